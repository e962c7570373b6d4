package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// sideWindowSize is the size a window beside the list (the dispatch
// board, receivables) opens at: the main window's, which the person has
// fitted to their screen. A fixed 1280x800 ran off a 1024x768 laptop's.
func (d *Desk) sideWindowSize() fyne.Size {
	if s := d.win.Canvas().Size(); s.Width >= 640 && s.Height >= 480 {
		return s
	}
	return fyne.NewSize(1280, 800)
}

// closeOnCtrlW lets the keyboard close w, as a browser's tab closes: the
// side windows have no menu, and without a window manager's Alt+F4 a
// person without the mouse could not leave them.
func closeOnCtrlW(w fyne.Window) {
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { w.Close() })
}
