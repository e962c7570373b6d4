package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/files"
	"github.com/workorderdesk/workdesk/ui/procedures"
)

// procsForm is the Procedures tab (ui/procedures) as the whole-window
// tests reach it: by what a person sees, the controls found by their words.
type procsForm struct {
	h   *harness
	tab *procedures.Tab
}

func procsOf(h *harness) procsForm { return procsForm{h, tabOf[*procedures.Tab](h)} }

// says is everything the tab shows, a line per label and button.
func (f procsForm) says() string { return strings.Join(texts(f.tab.Content()), "\n") }

// shows reports whether one of the tab's labels reads text exactly.
func (f procsForm) shows(text string) bool {
	for _, s := range texts(f.tab.Content()) {
		if s == text {
			return true
		}
	}
	return false
}

// choose chooses step ref in the tree, as a click on it does.
func (f procsForm) choose(ref api.StepRef) {
	f.tab.ChooseStep(ref)
	f.h.flush()
}

// tree is the tab's tree of procedures and steps.
func (f procsForm) tree() *widget.Tree {
	f.h.t.Helper()
	var found *widget.Tree
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if t, ok := o.(*widget.Tree); ok && found == nil {
			found = t
		}
	})
	if found == nil {
		f.h.t.Fatal("the Procedures tab shows no tree")
	}
	return found
}

// row is the text of the tree's row that begins with prefix ("" if none
// is shown).
func (f procsForm) row(prefix string) string {
	for _, s := range texts(f.tree()) {
		if strings.HasPrefix(s, prefix) {
			return s
		}
	}
	return ""
}

// tapRow taps the tree's row that begins with prefix, as a click does.
func (f procsForm) tapRow(prefix string) {
	f.h.t.Helper()
	var found fyne.Tappable
	walk(f.tree(), func(o fyne.CanvasObject) {
		t, ok := o.(fyne.Tappable)
		if !ok || found != nil {
			return
		}
		if _, isLabel := o.(*widget.Label); isLabel {
			return
		}
		for _, s := range texts(o) {
			if strings.HasPrefix(s, prefix) {
				found = t
			}
		}
	})
	if found == nil {
		f.h.t.Fatalf("the tree shows no row %q…", prefix)
	}
	test.Tap(found)
	f.h.flush()
}

// files is the chosen step's file panel.
func (f procsForm) files() *files.Panel {
	f.h.t.Helper()
	var found *files.Panel
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if p, ok := o.(*files.Panel); ok && found == nil {
			found = p
		}
	})
	if found == nil {
		f.h.t.Fatal("the Procedures tab shows no step's files")
	}
	return found
}

// button is the shown button reading text, or nil.
func (f procsForm) button(text string) *widget.Button {
	var found *widget.Button
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && found == nil {
			found = b
		}
	})
	return found
}

// choice is the step editor's choice that offers option (Done, Yes).
func (f procsForm) choice(option string) *widget.RadioGroup {
	f.h.t.Helper()
	var found *widget.RadioGroup
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if r, ok := o.(*widget.RadioGroup); ok && found == nil {
			for _, s := range r.Options {
				if s == option {
					found = r
				}
			}
		}
	})
	if found == nil {
		f.h.t.Fatalf("the step's editor offers no %q", option)
	}
	return found
}

// commentHint is what the step's comment field says while empty.
const commentHint = "What you found or did (optional)"

// comment is the step's comment field; value is its value's.
func (f procsForm) comment() *widget.Entry {
	return f.entry(func(e *widget.Entry) bool { return e.PlaceHolder == commentHint })
}
func (f procsForm) value() *widget.Entry {
	return f.entry(func(e *widget.Entry) bool { return e.PlaceHolder != commentHint })
}

// fields counts the entries shown: a yes/no step's value is a choice,
// leaving the comment alone.
func (f procsForm) fields() int {
	n := 0
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if _, is := o.(*widget.Entry); is {
			n++
		}
	})
	return n
}

func (f procsForm) entry(ok func(*widget.Entry) bool) *widget.Entry {
	f.h.t.Helper()
	var found *widget.Entry
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if e, is := o.(*widget.Entry); is && found == nil && ok(e) {
			found = e
		}
	})
	if found == nil {
		f.h.t.Fatal("the step's editor has no such field")
	}
	return found
}
