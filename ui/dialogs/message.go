package dialogs

import (
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Message is Fyne's information or error dialog with its icon beside
// the text: Fyne draws the icon over the text's top right corner, where a
// long message runs under it.
func Message(title, message string, icon fyne.Resource, w fyne.Window) {
	dlg := NewCustom(title, "OK", iconBeside(message, icon), w)
	fitMessage(dlg, w)
	dlg.Show()
}

// NewConfirm is dialog.NewConfirm (No and Yes, SetConfirmText to rename
// Yes) with its question icon beside the text, not over it, and buttons
// that answer Enter and Esc (Confirm).
func NewConfirm(title, message string, callback func(bool), w fyne.Window) *Confirm {
	dlg := NewCustomConfirm(title, "Yes", "No", iconBeside(message, theme.QuestionIcon()), callback, w)
	fitMessage(dlg, w)
	return dlg
}

// iconBeside lays a message out with icon to its left.
func iconBeside(message string, icon fyne.Resource) fyne.CanvasObject {
	if r, size := utf8.DecodeRuneInString(message); r != utf8.RuneError {
		message = string(unicode.ToUpper(r)) + message[size:]
	}
	text := widget.NewLabel(message)
	text.Wrapping = fyne.TextWrapWord
	img := canvas.NewImageFromResource(icon)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSquareSize(2 * theme.IconInlineSize()))
	return container.NewBorder(nil, nil, container.NewVBox(img), nil, text)
}

// fitMessage gives a message dialog a width to wrap its text in.
func fitMessage(dlg dialog.Dialog, w fyne.Window) {
	// Twice: a word-wrapped label knows its height once it has its width.
	for range 2 {
		dlg.Resize(fyne.NewSize(min(480, w.Canvas().Size().Width-40), 0))
	}
}

// Error is dialog.ShowError with the icon beside the text.
func Error(err error, w fyne.Window) {
	Message("Error", err.Error(), theme.ErrorIcon(), w)
}

// Info is dialog.ShowInformation with the icon beside the text.
func Info(title, msg string, w fyne.Window) { Message(title, msg, theme.InfoIcon(), w) }

// NotYet is what the person has to do first ("pick an item from the price
// list first"): shown as guidance, titled "Not yet", never "Error".
type NotYet string

func (n NotYet) Error() string { return string(n) }
