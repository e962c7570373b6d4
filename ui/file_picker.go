package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// openFileDialog is dialog.ShowFileOpen at a size where a folder's files can
// be seen.
func openFileDialog(cb func(fyne.URIReadCloser, error), w fyne.Window) {
	showFilePicker(dialog.NewFileOpen(cb, w), w)
}

// showFilePicker shows fd at a size where a folder's files can be seen
// (Fyne's default shows about four rows). Fyne 2.8.1 builds the picker only
// in Show, and its Resize reads the picker's minimum size, so a Resize
// before Show dereferences nil and ends the process. Where the platform's
// own picker takes over (a Flatpak portal, mobile) there is no Fyne picker
// to size: only one that appeared on the canvas is resized.
//
// A save picker focuses its file name, which keeps every key, Esc too; the
// name is filled in already, so the picker opens with nothing focused and
// Esc reaches the window, which closes it (a click in the name types there).
func showFilePicker(fd *dialog.FileDialog, w fyne.Window) {
	overlays := w.Canvas().Overlays()
	before := overlays.Top()
	fd.Show()
	if top := overlays.Top(); top != nil && top != before {
		fd.Resize(fyne.NewSize(820, 560))
		w.Canvas().Unfocus()
	}
}
