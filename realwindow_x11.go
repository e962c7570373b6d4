//go:build realwindow && linux

package main

/*
#cgo LDFLAGS: -lX11
#include <X11/Xlib.h>

static int moveWindow(unsigned long w, int x, int y) {
	Display *d = XOpenDisplay(NULL);
	if (d == NULL) {
		return 0;
	}
	XMoveWindow(d, (Window)w, x, y);
	XSync(d, False);
	XCloseDisplay(d);
	return 1;
}
*/
import "C"

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// moveWindow puts the window at x, y on the X screen: two windows side by
// side under Xvfb, where no window manager places them (both would open at
// the top left).
func moveWindow(w fyne.Window, x, y int) error {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return fmt.Errorf("the window has no native handle")
	}
	var handle uintptr
	nw.RunNative(func(ctx any) {
		if x11, ok := ctx.(driver.X11WindowContext); ok {
			handle = x11.WindowHandle
		}
	})
	if handle == 0 {
		return fmt.Errorf("not an X11 window")
	}
	if C.moveWindow(C.ulong(handle), C.int(x), C.int(y)) == 0 {
		return fmt.Errorf("cannot open the X display")
	}
	return nil
}
