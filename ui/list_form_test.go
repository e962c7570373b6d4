package ui

import (
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/list"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// The work order list lives in ui/list, tested there against a fake; the
// whole-window tests of flows that cross views (an accept from the detail,
// a sync, the bulk actions' dialogs, the panes' layout) read it as a
// person does: its controls by their words, its cells by what they draw.

// listFind is the first object of the list pane outside its table, shown
// or not, that match says.
func (h *harness) listFind(what string, match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	h.t.Helper()
	var found fyne.CanvasObject
	var all func(o fyne.CanvasObject)
	all = func(o fyne.CanvasObject) {
		if o == nil || found != nil {
			return
		}
		if match(o) {
			found = o
			return
		}
		switch c := o.(type) {
		case *list.Table:
		case *fyne.Container:
			for _, ch := range c.Objects {
				all(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				all(ch)
			}
		}
	}
	all(h.desk.split.Leading)
	if found == nil {
		h.t.Fatalf("the list has no %s", what)
	}
	return found
}

// listButton is the list's button whose text starts with prefix: "Accept"
// (Accept 2), "Reject", "Assign", "Clear the search".
func (h *harness) listButton(prefix string) *widget.Button {
	h.t.Helper()
	return h.listFind(prefix+" button", func(o fyne.CanvasObject) bool {
		b, ok := o.(*widget.Button)
		return ok && strings.HasPrefix(b.Text, prefix)
	}).(*widget.Button)
}

// listLabel is the list's label whose text match says, nil when none.
func (h *harness) listLabel(match func(text string) bool) *widget.Label {
	var found *widget.Label
	walk(h.desk.split.Leading, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && found == nil && match(l.Text) {
			found = l
		}
	})
	return found
}

// listSays is what the list shows above and in place of its table, a line
// per label: the count, the hints, an empty list's words.
func (h *harness) listSays() string {
	var out []string
	var all func(o fyne.CanvasObject)
	all = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch c := o.(type) {
		case *list.Table:
		case *widget.Label:
			out = append(out, c.Text)
		case *fyne.Container:
			for _, ch := range c.Objects {
				all(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				all(ch)
			}
		}
	}
	all(h.desk.split.Leading)
	return strings.Join(out, "\n")
}

// listHint is the row of bulk buttons' hint while nothing is ticked.
func (h *harness) listHint() *arrange.FitText {
	h.t.Helper()
	return h.listFind("hint", func(o fyne.CanvasObject) bool { _, ok := o.(*arrange.FitText); return ok }).(*arrange.FitText)
}

// statusFilter, attentionFilter and assigneeFilter are the list's filters.
func (h *harness) statusFilter() *widget.Select {
	h.t.Helper()
	return h.listFind("status filter", func(o fyne.CanvasObject) bool {
		s, ok := o.(*widget.Select)
		return ok && len(s.Options) > 0 && strings.HasPrefix(s.Options[0], "All statuses")
	}).(*widget.Select)
}

func (h *harness) attentionFilter() *widget.Check {
	h.t.Helper()
	return h.listFind("Needs attention", func(o fyne.CanvasObject) bool {
		c, ok := o.(*widget.Check)
		return ok && strings.HasPrefix(c.Text, "Needs attention")
	}).(*widget.Check)
}

func (h *harness) assigneeFilter() *widget.Select {
	h.t.Helper()
	return h.listFind("assignee filter", func(o fyne.CanvasObject) bool {
		s, ok := o.(*widget.Select)
		return ok && len(s.Options) > 0 && s.Options[0] == "Any technician"
	}).(*widget.Select)
}

// listCount is what the list's count says: "72 work orders".
func (h *harness) listCount() string {
	h.t.Helper()
	l := h.listLabel(func(s string) bool {
		return strings.HasSuffix(s, " work orders") || strings.HasSuffix(s, " work order")
	})
	if l == nil {
		h.t.Fatalf("the list shows no count: %q", h.listSays())
	}
	return l.Text
}

// listHeader is the table's header button of column title.
func (h *harness) listHeader(title string) *widget.Button {
	h.t.Helper()
	var found *widget.Button
	walk(h.desk.list.Table(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == title && found == nil {
			found = b
		}
	})
	if found == nil {
		h.t.Fatalf("the list shows no %q column", title)
	}
	return found
}

// sortListBy taps column title's header, as a person sorts the list by
// it: once, and again for the reverse order.
func (h *harness) sortListBy(title string, desc bool) {
	h.t.Helper()
	test.Tap(h.listHeader(title))
	if desc {
		test.Tap(h.listHeader(title))
	}
	h.flush()
}

// cellDraws is what a cell of the table draws.
type cellDraws struct {
	text   string // its label, its badge, or a ticked "[x]" or empty "[ ]" box
	mark   string // a colleague's initials beside it, "" for none
	queued bool   // its badge is marked queued
	fill   color.Color
	// ring is the line along its row: the keyboard's (palette.Brand), a
	// held row's (grey); nil for none.
	ring color.Color
	// label is its text's label (nil for a badge or a box).
	label *widget.Label
}

// drawnIn reads a cell as it is cellDraws.
func drawnIn(c *list.Cell) cellDraws {
	var d cellDraws
	objs := test.WidgetRenderer(c).Objects()
	box := objs[0].(*fyne.Container) // the cell's stack of parts
	for _, o := range box.Objects {
		switch x := o.(type) {
		case *canvas.Rectangle:
			d.fill = x.FillColor
		case *widget.Label:
			if x.Visible() {
				d.text, d.label = x.Text, x
			}
		case *xwidget.TickBox:
			if x.Visible() {
				d.text = "[ ]"
				if x.Checked {
					d.text = "[x]"
				}
			}
		case *fyne.Container:
			if !x.Visible() {
				continue
			}
			for _, ch := range x.Objects {
				switch y := ch.(type) {
				case *xwidget.Badge:
					if y.Visible() {
						d.text, d.queued = y.Text(), y.Queued()
					}
				case *canvas.Rectangle: // the ring's two lines
					d.ring = y.FillColor
				}
			}
		case fyne.Widget: // the colleague's mark
			if x.Visible() {
				walk(x, func(m fyne.CanvasObject) {
					if t, ok := m.(*canvas.Text); ok {
						d.mark = t.Text
					}
				})
			}
		}
	}
	return d
}

// keyboardsRing is the keyboard's row mark; a held row's is grey.
var keyboardsRing = color.Color(palette.Brand)

// listCell is what the list draws for work order id in column title,
// scrolled into view as a person would.
func (h *harness) listCell(id int64, title string) cellDraws {
	h.t.Helper()
	h.scrollIntoView(id)
	row := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == id })
	number := h.rows()[row].Number
	c, ok := screenRowOf(h.t, h.win, h.desk.list.Table(), number).cells[title]
	if !ok {
		h.t.Fatalf("the list shows no %q column", title)
	}
	return drawnIn(c.c)
}

// tickRows ticks the rows of ids, scrolled into view, as a person does.
func (h *harness) tickRows(ids ...int64) {
	h.t.Helper()
	for _, id := range ids {
		h.scrollIntoView(id)
		i := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == id })
		h.tick(h.rows()[i].Number)
	}
}

// ticked reports whether work order id's row is ticked.
func (h *harness) ticked(id int64) bool {
	h.t.Helper()
	return h.listCell(id, "").text == "[x]"
}
