// Command floor is the start-up floor of the toolkit on this machine: a
// Fyne window with one label, timed to its first frame as workdesk's
// --startup-probe times the window (make perf runs the two back to back).
// The first frame's target is the window's; what a bare window takes here
// is the part of it that no change of ours can cut (on Xvfb, Mesa's
// software renderer and the page faults of a fresh process).
package main

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/probe"
)

func main() {
	a := app.NewWithID("com.workorderdesk.floor")
	w := a.NewWindow("Floor")
	w.SetContent(widget.NewLabel("Work Order Desk"))
	w.Resize(fyne.NewSize(1280, 800))
	a.Lifecycle().SetOnStarted(func() { go probe.FirstFrame(a, os.Stdout) })
	w.ShowAndRun()
}
