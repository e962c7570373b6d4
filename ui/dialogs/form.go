package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Form is dialog.NewForm's dialog, a form above Cancel and an answer that
// waits until every field is valid, whose buttons answer Enter and Esc
// once Tab gave them the keyboard, as the rest of its dialogs do (Fyne's
// answer only Space, and Esc on them was dropped).
type Form struct {
	*Confirm
}

// NewForm asks for items, answered by confirm (once every field is valid)
// or dismiss.
func NewForm(title, confirm, dismiss string, items []*widget.FormItem, callback func(bool), w fyne.Window) *Form {
	form := widget.NewForm(items...)
	f := &Form{NewCustomConfirm(title, confirm, dismiss, form, callback, w)}
	valid := func(err error) {
		if err != nil {
			f.yes.Disable()
		} else {
			f.yes.Enable()
		}
	}
	valid(form.Validate())
	form.SetOnValidationChanged(valid)
	return f
}

// ShowForm shows NewForm's dialog.
func ShowForm(title, confirm, dismiss string, items []*widget.FormItem, callback func(bool), w fyne.Window) {
	NewForm(title, confirm, dismiss, items, callback, w).Show()
}

// Submit answers as the confirming button does, unless a field is not
// yet valid.
func (f *Form) Submit() {
	if !f.yes.Disabled() {
		f.yes.OnTapped()
	}
}
