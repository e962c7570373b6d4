package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// FinalForm asks for what an act that cannot be undone needs (the reason
// to reject a work order) and does it only on its own button: a tap, or
// Enter or Space once the person has moved to it. Enter and Ctrl+Enter, in a field
// or with nothing focused, neither act nor close it, so what was typed
// stays; Esc and Cancel give up. The act's button, drawn red, waits until
// every field is valid.
func FinalForm(title, act string, items []*widget.FormItem, callback func(bool), w fyne.Window) dialog.Dialog {
	form := widget.NewForm(items...)
	dlg, cancel, confirm := finalDialog(title, form, act, "Cancel", callback, w)
	cancel.keepsTyped = true
	valid := func(err error) {
		if err != nil {
			confirm.Disable()
		} else {
			confirm.Enable()
		}
	}
	valid(form.Validate())
	form.SetOnValidationChanged(valid)
	return dlg
}
