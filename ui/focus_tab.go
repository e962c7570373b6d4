package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Ctrl+1 … Ctrl+9 take the keyboard into the tab they show, where Tab
// from there would first stop; a person on the keyboard then types or
// presses where they look, instead of in the list they left.

// focusTab gives the keyboard to the shown tab's first control, if it has
// one a person can use.
func (d *Desk) focusTab() {
	t := d.detail.selectedTab()
	if t == nil {
		return
	}
	if f := firstFocusable(t.Content()); f != nil {
		d.win.Canvas().Focus(f)
	}
}

// firstFocusable is the first control under o, in the order Tab visits
// them, that is shown and enabled. It looks through containers, scrolls
// and splits, where the tabs' controls sit; a control inside another
// widget is that widget's to give.
func firstFocusable(o fyne.CanvasObject) fyne.Focusable {
	if o == nil || !o.Visible() {
		return nil
	}
	if f, ok := o.(fyne.Focusable); ok {
		if dis, ok := o.(fyne.Disableable); !ok || !dis.Disabled() {
			return f
		}
		return nil
	}
	var inside []fyne.CanvasObject
	switch x := o.(type) {
	case *fyne.Container:
		inside = x.Objects
	case *container.Scroll:
		inside = []fyne.CanvasObject{x.Content}
	case *container.Split:
		inside = []fyne.CanvasObject{x.Leading, x.Trailing}
	}
	for _, ch := range inside {
		if f := firstFocusable(ch); f != nil {
			return f
		}
	}
	return nil
}
