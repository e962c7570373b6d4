package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheCursorStaysOnTheAcceptedRow: a new work order opened from the
// list with the keyboard and accepted with Ctrl+Shift+A keeps the
// keyboard's row, wherever the list shows it after, so Up, Down and Enter
// go on from the work order shown on the right (A14), not from whatever
// took its place.
func TestTheCursorStaysOnTheAcceptedRow(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	tbl := h.desk.list.Table()
	index := func(id int64) int {
		for i, r := range h.rows() {
			if r.Id == id {
				return i
			}
		}
		return -1
	}
	// The new work order whose accept moves it furthest.
	var row storage.Row
	for _, r := range h.rows() {
		if r.Status == api.StatusNew {
			row = r
			break
		}
	}
	before := index(row.Id)
	c.Focus(tbl)
	for range before {
		typeKey(c, fyne.KeyDown)
	}
	if tbl.KeyboardRow() != before {
		t.Fatalf("%d × Down put the keyboard on row %d", before, tbl.KeyboardRow())
	}
	typeKey(c, fyne.KeyReturn)
	h.flush()
	if h.desk.detail.wo == nil || h.desk.detail.wo.WorkOrderId != row.Id {
		t.Fatalf("Enter on %s did not open it", row.Number)
	}
	press(c, fyne.KeyA, true)
	h.flush()
	h.send()
	h.flush()
	after := index(row.Id) // the row acted on keeps its place, or moves (a reload of the same view)
	if got := tbl.KeyboardRow(); got != after {
		t.Errorf("%s moved from row %d to %d; the keyboard is on row %d", row.Number, before, after, got)
	}
	typeKey(c, fyne.KeyDown)
	typeKey(c, fyne.KeyUp)
	typeKey(c, fyne.KeyReturn)
	h.flush()
	if h.desk.detail.wo.WorkOrderId != row.Id {
		t.Errorf("Down, Up, Enter opened %s, not %s", h.desk.detail.wo.WorkOrderNumber, row.Number)
	}
}
