package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// The window's dialogs answer Enter and Esc through xwidget, which the
// views in their own packages (the board, receivables, the day sheet)
// share.

// escEntry is an Entry for a dialog that passes Esc on to close it and
// Enter to confirm it (xwidget.DialogEntry).
type escEntry = xwidget.DialogEntry

func newEscEntry() *escEntry              { return xwidget.NewDialogEntry() }
func newEscPasswordEntry() *escEntry      { return xwidget.NewDialogPasswordEntry() }
func newEscMultiLineEntry() *escEntry     { return xwidget.NewDialogMultiLineEntry() }
func dismissTopDialog(c fyne.Canvas) bool { return xwidget.DismissTop(c) }
func confirmTopDialog(c fyne.Canvas) bool { return xwidget.ConfirmTop(c) }

// buttonLabelled finds a visible button reading label in a dialog.
func buttonLabelled(o fyne.CanvasObject, label string) *widget.Button {
	return xwidget.ButtonLabelled(o, label)
}

// newWindow opens a window of the app whose dialogs answer Enter and Esc:
// every window of the app is opened through it (windows_test.go holds
// that).
func newWindow(a fyne.App, title string) fyne.Window {
	w := a.NewWindow(title)
	xwidget.AnswerDialogKeys(w.Canvas())
	return w
}
