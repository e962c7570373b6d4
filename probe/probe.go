// Package probe is what the window's flags for looking at it from outside
// do: --startup-probe prints the time from the process's start to the
// first frame (make measure-startup), --screenshot writes the window's
// pixels to a PNG (make smoke, make screenshot).
package probe

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"time"

	"fyne.io/fyne/v2"
)

// started approximates the process's start where the kernel's record is
// not at hand: package variables are set before main runs.
var started = time.Now()

// FirstFrame waits two turns of the event loop after start (the first
// frame is drawn in between), prints to out how long the process has run,
// and quits.
func FirstFrame(a fyne.App, out io.Writer) {
	fyne.DoAndWait(func() {})
	fyne.DoAndWait(func() {})
	fmt.Fprintf(out, "first frame after %d ms\n", processAge().Milliseconds())
	fyne.Do(a.Quit)
}

// Capture waits for the window to settle, then writes its pixels to path
// as a PNG; it returns the exit status (1 when the file could not be
// written, with why on stderr).
func Capture(w fyne.Window, path string) int {
	time.Sleep(1500 * time.Millisecond)
	var img image.Image
	fyne.DoAndWait(func() { img = w.Canvas().Capture() })
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		return 1
	}
	if err := png.Encode(out, img); err != nil {
		out.Close()
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		return 1
	}
	if err := out.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		return 1
	}
	return 0
}
