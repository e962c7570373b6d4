package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// ShowStartFailure is the window of an app that could not open its main
// window: started from a shortcut there is no terminal to read an error
// in, so it says what went wrong, in plain words, until the person quits.
func ShowStartFailure(a fyne.App, err error) fyne.Window {
	w := dialogs.NewWindow(a, "Work Order Desk")
	msg := widget.NewLabel("Work Order Desk could not start: " + format.Sentence(format.Error(err)))
	msg.Wrapping = fyne.TextWrapWord
	quit := widget.NewButtonWithIcon("Quit", theme.CancelIcon(), a.Quit)
	quit.Importance = widget.HighImportance
	icon := widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon()))
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), quit),
		container.NewVBox(icon), nil, msg)))
	w.Resize(fyne.NewSize(520, 180))
	w.Show()
	return w
}
