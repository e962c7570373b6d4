package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// noticeBanner says, above the list, why the window is not connected as
// configured (Deps.Notice) and offers the way to fix it; the person can
// dismiss it.
func (d *Desk) noticeBanner(text string) fyne.CanvasObject {
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	msg.Importance = widget.WarningImportance
	var banner *fyne.Container
	fix := widget.NewButtonWithIcon("Connection settings…", theme.SettingsIcon(), d.showSettings)
	fix.Importance = widget.HighImportance
	dismiss := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { banner.Hide() })
	dismiss.Importance = widget.LowImportance
	banner = container.NewBorder(nil, nil,
		container.NewCenter(widget.NewIcon(theme.NewWarningThemedResource(theme.WarningIcon()))),
		container.NewHBox(container.NewCenter(fix), container.NewCenter(dismiss)), msg)
	return banner
}
