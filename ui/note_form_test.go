package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/note"
)

// The Internal note tab lives in ui/note, tested there against a fake; the
// whole-window tests of flows that cross views (the outbox, the header's
// refusal, the person's name) use it as a person does, finding its
// controls by their words.

// noteForm is the window's Internal note tab.
type noteForm struct {
	h   *harness
	tab *note.Tab
}

func noteOf(h *harness) noteForm { return noteForm{h, tabOf[*note.Tab](h)} }

// says is everything the tab shows, a line per label and button.
func (f noteForm) says() string { return strings.Join(texts(f.tab.Content()), "\n") }

// entry is the note's editor, the tab's one multi-line entry.
func (f noteForm) entry() *widget.Entry {
	f.h.t.Helper()
	var found *widget.Entry
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.MultiLine && found == nil {
			found = e
		}
	})
	if found == nil {
		f.h.t.Fatal("the Internal note tab has no editor")
	}
	return found
}

// save is the Save note button.
func (f noteForm) save() *widget.Button {
	f.h.t.Helper()
	return buttonIn(f.h.t, f.tab.Content(), "Save note")
}

// history is what the tab lists under History, newest first: each
// version's heading, then its text.
func (f noteForm) history() []string {
	all := texts(f.tab.Content())
	for i, s := range all {
		if s == "History" {
			return all[i+1:]
		}
	}
	return nil
}
