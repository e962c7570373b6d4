//go:build realwindow && !linux

package main

import (
	"fmt"

	"fyne.io/fyne/v2"
)

func moveWindow(fyne.Window, int, int) error {
	return fmt.Errorf("moving a window is only done under X11")
}
