package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/arrange"
)

// noticeBanner says, above the list, why the window is not connected as
// configured (Deps.Notice) and offers the way to fix it: the Live
// connection settings, or in office mode Connect to office hub…; the
// person can dismiss it.
func (d *Desk) noticeBanner(text string) *fyne.Container {
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	msg.Importance = widget.WarningImportance
	var banner *fyne.Container
	fix := widget.NewButtonWithIcon("Connection settings…", theme.SettingsIcon(), d.settings.ShowLive)
	if d.deps.Office {
		fix = widget.NewButtonWithIcon("Connect to office hub…", theme.LoginIcon(), d.settings.ShowOffice)
	}
	fix.Importance = widget.HighImportance
	dismiss := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { banner.Hide(); d.bannerChanged() })
	dismiss.Importance = widget.LowImportance
	banner = container.NewBorder(nil, nil,
		container.NewCenter(widget.NewIcon(theme.NewWarningThemedResource(theme.WarningIcon()))),
		container.NewHBox(container.NewCenter(fix), container.NewCenter(dismiss)), msg)
	return banner
}

// signInRefused is what the window says while the office hub refuses the
// person's sign-in (the event stream's StreamRefused).
const signInRefused = "The office hub refused your sign-in: your account may have been disabled, or your client secret changed. " +
	"Ask the person who runs the office hub, then enter your client id and secret again (File › Connect to office hub…). " +
	"Until then you see the work orders as last synced, and your actions wait in the outbox."

// showSignInRefused shows or hides the banner saying the hub refused the
// sign-in; it is shown again each time the refusal starts over.
func (d *Desk) showSignInRefused(on bool) {
	if d.refused == nil {
		return
	}
	if on {
		d.refused.Show()
	} else {
		d.refused.Hide()
	}
	d.bannerChanged()
}

// bannerChanged lays the window out again after a banner came or went:
// a container lays its children out only when resized or refreshed, so a
// banner shown in a window already on screen was drawn over the search
// row until the window was resized (E07).
func (d *Desk) bannerChanged() {
	if d.frame != nil {
		// Twice: the banner's word-wrapped text knows its height once it
		// has its width, and the first pass gives it that.
		arrange.Relayout(d.frame)
		arrange.Relayout(d.frame)
	}
}
