package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestABannerThatComesOrGoesLaysTheWindowOut: in a window already on
// screen, the office hub's refusal of the sign-in shows its banner above
// the search row, not over it (E07: drawn over it until the window was
// resized), and when it goes the search row moves back up; a dismissed
// notice gives its room back the same way.
func TestABannerThatComesOrGoesLaysTheWindowOut(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.Office = true
		d.Notice = "Demo mode: the live connection has no secret on this computer."
	}})
	h.flush()
	searchTop := func() float32 {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(h.desk.list.Search()).Y
	}
	bottomOf := func(o fyne.CanvasObject) float32 {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Y + o.Size().Height
	}
	// The search row sits just under what is above it: no banner over
	// it, and no empty room where one was.
	under := func(what string, above fyne.CanvasObject) {
		t.Helper()
		if gap := searchTop() - bottomOf(above); gap < 0 || gap > 3*theme.Padding() {
			t.Errorf("%s: the search row's top is %.0f, the bottom of what is above it %.0f", what, searchTop(), bottomOf(above))
		}
	}
	top := h.desk.frame.Objects[1].(*fyne.Container) // the Border's top: toolbar and notice, then the refusal
	h.desk.showSignInRefused(true)
	if !h.desk.refused.Visible() {
		t.Fatal("the refusal's banner is not shown")
	}
	under("the refusal shown", h.desk.refused)
	h.desk.showSignInRefused(false)
	under("the refusal gone", top.Objects[0])

	var dismiss *widget.Button
	walk(h.desk.frame, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && dismiss == nil && b.Text == "" && b.Icon != nil && b.Icon.Name() == theme.CancelIcon().Name() {
			dismiss = b
		}
	})
	if dismiss == nil {
		t.Fatal("the notice has no dismiss button")
	}
	toolbar := top.Objects[0].(*fyne.Container).Objects[0]
	test.Tap(dismiss)
	under("the notice dismissed", toolbar)
}
