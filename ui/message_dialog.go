package ui

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

// showMessage is Fyne's information or error dialog with its icon beside
// the text: Fyne draws the icon over the text's top right corner, where a
// long message runs under it.
func showMessage(title, message string, icon fyne.Resource, w fyne.Window) {
	if r, size := utf8.DecodeRuneInString(message); r != utf8.RuneError {
		message = string(unicode.ToUpper(r)) + message[size:]
	}
	text := widget.NewLabel(message)
	text.Wrapping = fyne.TextWrapWord
	img := canvas.NewImageFromResource(icon)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSquareSize(2 * theme.IconInlineSize()))
	content := container.NewBorder(nil, nil, container.NewVBox(img), nil, text)
	dlg := dialog.NewCustom(title, "OK", content, w)
	// Twice: a word-wrapped label knows its height once it has its width.
	for range 2 {
		dlg.Resize(fyne.NewSize(min(480, w.Canvas().Size().Width-40), 0))
	}
	dlg.Show()
}

// showErrorDialog is dialog.ShowError with the icon beside the text.
func showErrorDialog(err error, w fyne.Window) {
	showMessage("Error", err.Error(), theme.ErrorIcon(), w)
}

// showInfoDialog is dialog.ShowInformation with the icon beside the text.
func showInfoDialog(title, msg string, w fyne.Window) { showMessage(title, msg, theme.InfoIcon(), w) }
