package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// searchEntry is the list's search box: Enter opens the first match and the
// Down key moves into the list, so a person can find and open a work order
// without the mouse; Esc clears the search and the list shows everything.
type searchEntry struct {
	widget.Entry
	onEnter func()
	onDown  func()
}

func newSearchEntry() *searchEntry {
	e := &searchEntry{}
	e.ExtendBaseWidget(e)
	return e
}

func (e *searchEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.onEnter != nil {
			e.onEnter()
			return
		}
	case fyne.KeyDown:
		if e.onDown != nil {
			e.onDown()
			return
		}
	case fyne.KeyEscape:
		if e.Text != "" {
			e.SetText("") // OnChanged runs the query again
		}
		return
	}
	e.Entry.TypedKey(k)
}
