package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Ctrl+1 … Ctrl+9 take the keyboard into the tab they show, where Tab
// from there would first stop; a person on the keyboard then types or
// presses where they look, instead of in the list they left.

// keyboardStart is a tab whose first stop is not where a person starts:
// the Messages tab's thread takes the keyboard first (to scroll it), and
// what was typed there after Ctrl+4 went nowhere (issue 38's second tryout).
type keyboardStart interface {
	KeyboardStart() fyne.Focusable
}

// focusTab gives the keyboard to the shown tab's first control, if it has
// one a person can use.
func (d *Desk) focusTab() {
	i := d.detail.appTabs.SelectedIndex()
	if i < 0 || i >= len(d.detail.tabs) {
		return
	}
	if f := tabStart(d.detail.tabs[i], d.detail.appTabs.Items[i].Content); f != nil {
		d.win.Canvas().Focus(f)
	}
}

// tabStart is where Ctrl+1 … Ctrl+9 put the keyboard in tab t, shown as
// content: the control the tab names, else its first one. content is what
// the tab bar shows, never t.Content() again: that builds the tab's
// containers anew around the same widgets, and laying out that unseen copy
// moved the Visit tab's buttons into a column over its last action (issue
// 38's second tryout).
func tabStart(t tab, content fyne.CanvasObject) fyne.Focusable {
	if s, ok := t.(keyboardStart); ok {
		if f := s.KeyboardStart(); f != nil {
			if o, ok := f.(fyne.CanvasObject); ok && o.Visible() {
				if dis, ok := f.(fyne.Disableable); !ok || !dis.Disabled() {
					return f
				}
			}
		}
	}
	return firstFocusable(content)
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
	case *widget.Form:
		// A form's fields come before what follows it: the Quote tab's
		// Amount, not the price list under the form (Ctrl+2).
		for _, it := range x.Items {
			inside = append(inside, it.Widget)
		}
	}
	for _, ch := range inside {
		if f := firstFocusable(ch); f != nil {
			return f
		}
	}
	return nil
}
