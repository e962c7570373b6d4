// Package ui holds the Fyne views of Work Order Desk. It reads the local
// replica, hands every action to the outbox, and touches widgets only on the
// main goroutine (fyne.Do for results from elsewhere). It never calls HTTP.
package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// NewMainWindow builds the main window.
func NewMainWindow(a fyne.App) fyne.Window {
	a.Settings().SetTheme(newTheme())
	w := a.NewWindow("Work Order Desk")
	w.SetContent(container.NewCenter(widget.NewLabel("Work Order Desk")))
	w.Resize(fyne.NewSize(1280, 800))
	return w
}
