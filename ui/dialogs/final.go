package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Final asks before something that cannot be undone (submitting an
// invoice, deleting it, discarding an action, removing a file). Its
// confirming button names the act (act: "Submit invoice", "Discard");
// danger draws it red, for a loss rather than a step forward. The focus
// starts on Cancel, so the Enter that opened it, pressed again, cancels it;
// Enter with nothing focused cancels it too (ConfirmTop): only a tap on
// the act, or Enter or Space on it once the person has moved to it with
// Tab, goes ahead. Esc cancels wherever the focus is.
func Final(title, message, act string, danger bool, callback func(bool), w fyne.Window) {
	FinalOr(title, message, act, "Cancel", danger, callback, w)
}

// FinalOr is Final whose Cancel says what not going ahead keeps ("Keep
// what I typed"); Esc and Enter answer it as they answer Cancel.
func FinalOr(title, message, act, keep string, danger bool, callback func(bool), w fyne.Window) {
	dlg, cancel, confirm := finalDialog(title, iconBeside(message, theme.WarningIcon()), act, keep, callback, w)
	if !danger {
		confirm.Importance = widget.HighImportance
	}
	fitMessage(dlg, w)
	dlg.Show()
	w.Canvas().Focus(cancel)
}

// finalDialog shows content above a Cancel (reading keep) and the act's
// button, drawn red; callback hears one answer, whichever comes first.
func finalDialog(title string, content fyne.CanvasObject, act, keep string, callback func(bool), w fyne.Window) (*dialog.CustomDialog, *finalCancel, *Button) {
	var cancel *finalCancel
	var confirm *Button
	dlg := withButtons(title, content, w, func(dlg *dialog.CustomDialog) []fyne.CanvasObject {
		answered := false
		answer := func(ok bool) {
			if answered {
				return
			}
			answered = true
			dlg.Hide()
			callback(ok)
		}
		cancel = newFinalCancel(func() { answer(false) })
		cancel.Text = keep
		confirm = newKeyButton(act, nil, func() { answer(true) }, func() { answer(false) })
		confirm.Importance = widget.DangerImportance
		return []fyne.CanvasObject{cancel, confirm}
	})
	return dlg, cancel, confirm
}

// finalCancel is a final question's Cancel button: it takes the focus
// when the dialog opens, and answers Enter as well as Space (a Fyne
// button answers only Space, and a focused one keeps every key, so Enter
// would do nothing and Esc would not close the dialog).
type finalCancel struct {
	widget.Button
	keepsTyped bool // the Cancel of a FinalForm: Enter elsewhere must not drop what was typed
}

func newFinalCancel(tapped func()) *finalCancel {
	b := &finalCancel{}
	b.Text = "Cancel"
	b.Icon = theme.CancelIcon()
	b.OnTapped = tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *finalCancel) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter, fyne.KeyEscape:
		b.Tapped(nil)
	default:
		b.Button.TypedKey(k)
	}
}
