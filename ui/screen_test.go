package ui

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/list"
)

// This file reads the work order table the way a person does: by what is
// drawn where. A row is the cells at one height; a cell's column is the
// header drawn above it.

// screenCell is one table cell as drawn: where it is on the window canvas
// and the cell widget drawing it.
type screenCell struct {
	c    *list.Cell
	pos  fyne.Position // absolute, on the window canvas
	size fyne.Size
}

// text is what the cell shows: its label, its badge, or a ticked or empty
// box for the selection column.
func (s screenCell) text() string {
	return drawnIn(s.c).text
}

func (s screenCell) center() fyne.Position {
	return s.pos.AddXY(s.size.Width/2, s.size.Height/2)
}

// screenRow is one row of the table as drawn: its cells by column title
// ("" is the tick-box column).
type screenRow struct {
	y     float32
	cells map[string]screenCell
}

func (r screenRow) number() string { return r.cells["Number"].text() }

// screenRows is every row the table draws inside its visible body (below
// the header row), top to bottom.
func screenRows(t *testing.T, w fyne.Window, tbl *list.Table) []screenRow {
	t.Helper()
	drv := fyne.CurrentApp().Driver()
	tPos := drv.AbsolutePositionForObject(tbl)
	// Header cells are buttons; their left edge names the column below.
	type head struct {
		x     float32
		title string
		h     float32
	}
	var heads []head
	var cells []screenCell
	walk(tbl, func(o fyne.CanvasObject) {
		switch c := o.(type) {
		case *widget.Button:
			heads = append(heads, head{drv.AbsolutePositionForObject(c).X, c.Text, c.Size().Height})
		case *list.Cell:
			cells = append(cells, screenCell{c: c, pos: drv.AbsolutePositionForObject(c), size: c.Size()})
		}
	})
	if len(heads) == 0 {
		t.Fatal("the table draws no header row")
	}
	top := tPos.Y + heads[0].h
	bottom := tPos.Y + tbl.Size().Height
	right := tPos.X + tbl.Size().Width
	byY := map[float32]*screenRow{}
	for _, s := range cells {
		mid := s.center()
		if mid.Y < top || mid.Y >= bottom || mid.X < tPos.X || mid.X >= right {
			continue // scrolled behind the header or past an edge
		}
		title, found := "", false
		for _, hd := range heads {
			if math.Abs(float64(hd.x-s.pos.X)) < 1 {
				title, found = hd.title, true
			}
		}
		if !found {
			continue
		}
		y := float32(math.Round(float64(s.pos.Y)))
		r := byY[y]
		if r == nil {
			r = &screenRow{y: y, cells: map[string]screenCell{}}
			byY[y] = r
		}
		r.cells[title] = s
	}
	out := make([]screenRow, 0, len(byY))
	for _, r := range byY {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b screenRow) int { return cmp.Compare(a.y, b.y) })
	return out
}

// screenRowOf is the drawn row of work order number, failing when it is not
// on screen.
func screenRowOf(t *testing.T, w fyne.Window, tbl *list.Table, number string) screenRow {
	t.Helper()
	rows := screenRows(t, w, tbl)
	for _, r := range rows {
		if r.number() == number {
			return r
		}
	}
	var shown []string
	for _, r := range rows {
		shown = append(shown, r.number())
	}
	t.Fatalf("%s is not on screen; the table shows %v", number, shown)
	return screenRow{}
}

// scrollIntoView turns the mouse wheel over the table until work order
// id's row is drawn, the way a person scrolls to a row they are looking
// for. (Table.ScrollTo is not used: scrolling up it lands the row under
// the header row, see TestUpArrowKeepsTheHighlightedRowOnScreen.)
func (h *harness) scrollIntoView(id int64) {
	h.t.Helper()
	tbl := h.desk.list.Table()
	index := func(number string) int {
		return slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Number == number })
	}
	want := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == id })
	if want < 0 {
		h.t.Fatalf("work order %d is not in the list", id)
	}
	number := h.rows()[want].Number
	mid := fyne.CurrentApp().Driver().AbsolutePositionForObject(tbl).AddXY(tbl.Size().Width/2, tbl.Size().Height/2)
	for range 200 {
		rows := screenRows(h.t, h.win, tbl)
		if slices.ContainsFunc(rows, func(r screenRow) bool { return r.number() == number }) {
			return
		}
		step := float32(-100) // a quick spin down: four 25 px notches
		if len(rows) > 0 && index(rows[0].number()) > want {
			step = 100
		}
		test.Scroll(h.win.Canvas(), mid, 0, step)
	}
	h.t.Fatalf("scrolling does not bring %s into view", number)
}

// tick clicks the tick box drawn at the start of work order number's row.
func (h *harness) tick(number string) {
	h.t.Helper()
	r := screenRowOf(h.t, h.win, h.desk.list.Table(), number)
	box, ok := r.cells[""]
	if !ok || !strings.HasPrefix(drawnIn(box.c).text, "[") {
		h.t.Fatalf("the row of %s draws no tick box", number)
	}
	test.TapCanvas(h.win.Canvas(), box.center())
}

// setBackDate chooses "Earlier (back-date)" on the Visit tab, picks at's
// day, then its hour and minute in the two selects, in local time, the way
// a person fills them (the minute select offers 5-minute steps).
func setBackDate(t *testing.T, v *visitForm, at time.Time) {
	t.Helper()
	at = at.In(time.Local)
	v.when.SetSelected(whenEarlier)
	day := at
	v.backDate.SetDate(&day)
	v.backTime.Hour.SetSelected(at.Format("15"))
	v.backTime.Minute.SetSelected(at.Format("04"))
	if v.backTime.Minute.Selected != at.Format("04") {
		t.Fatalf("the minute select does not offer %s", at.Format("04"))
	}
}

// notifications records the desktop notifications the window sends, in
// order (Fyne's test app keeps only the last one).
type notifications struct {
	fyne.App
	mu   sync.Mutex
	sent []fyne.Notification
}

func (n *notifications) SendNotification(x *fyne.Notification) {
	n.mu.Lock()
	n.sent = append(n.sent, *x)
	n.mu.Unlock()
	n.App.SendNotification(x)
}

func (n *notifications) all() []fyne.Notification {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.sent)
}

// recordNotifications makes the window's app record what it sends.
func (h *harness) recordNotifications() *notifications {
	n := &notifications{App: h.desk.app}
	h.desk.app = n
	return n
}

// formEntry is the entry of the form item labelled label inside o.
func formEntry(t *testing.T, o fyne.CanvasObject, label string) *widget.Entry {
	t.Helper()
	var found *widget.Entry
	walk(o, func(c fyne.CanvasObject) {
		f, ok := c.(*widget.Form)
		if !ok || found != nil {
			return
		}
		for _, it := range f.Items {
			if it.Text != label {
				continue
			}
			walk(it.Widget, func(w fyne.CanvasObject) {
				if e, ok := w.(*widget.Entry); ok && found == nil {
					found = e
				}
				if e, ok := w.(*dialogs.Entry); ok && found == nil {
					found = &e.Entry // a dialog's entry that passes Esc on
				}
			})
		}
	})
	if found == nil {
		t.Fatalf("no %q field", label)
	}
	return found
}
