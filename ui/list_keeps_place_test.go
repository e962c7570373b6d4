package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

func idsOf(rows []storage.Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.Id
	}
	return out
}

// A work order accepted from the list stays on its row, marked, with its
// new status, and no other row moves, though the sort now puts it
// elsewhere (A05, A14); the hint says until when. Opening another work
// order lets it go where the sort puts it, the keyboard staying on the
// work order opened; so does a change of sort.
func TestARowActedOnStaysWhereItWasUntilThePersonMovesOn(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	v := h.desk.list
	before := h.rows()
	at := slices.IndexFunc(before, func(r storage.Row) bool { return r.Status == api.StatusNew })
	if at < 0 {
		t.Fatal("the demo lists no new work order")
	}
	acted := before[at]
	h.open(acted.Id)
	tapButton(h.desk.detail.accept)
	h.flush()
	h.send()
	sorted, err := h.store.List(ctx, storage.ListQuery{Sort: v.query.Sort, Desc: v.query.Desc})
	if err != nil {
		t.Fatal(err)
	}
	where := slices.IndexFunc(sorted, func(r storage.Row) bool { return r.Id == acted.Id })
	if where == at {
		t.Fatalf("accepted, %s sorts where it was (row %d): the test shows nothing", acted.Number, at)
	}

	after := h.rows()
	if !slices.Equal(idsOf(after), idsOf(before)) {
		t.Errorf("rows moved after the accept:\n%v\n%v", idsOf(before), idsOf(after))
	}
	if after[at].Id != acted.Id || after[at].Status != api.StatusAccepted {
		t.Errorf("row %d is %s (%s); want %s, Accepted", at, after[at].Number, after[at].Status, acted.Number)
	}
	if !cellAt(v, at, colNumber).ring.Visible() {
		t.Error("the row acted on is not marked")
	}
	if cellAt(v, at+1, colNumber).ring.Visible() {
		t.Error("the row below it is marked too")
	}
	if hint := v.bulkHint.Label.Text; !strings.Contains(hint, acted.Number+" stays here") {
		t.Errorf("the hint says %q", hint)
	}

	// Moving on: another work order is opened.
	other := after[at+1]
	h.open(other.Id)
	moved := h.rows()
	if got := slices.IndexFunc(moved, func(r storage.Row) bool { return r.Id == acted.Id }); got != where {
		t.Errorf("after moving on %s is on row %d; the sort puts it on %d", acted.Number, got, where)
	}
	if got := moved[v.table.highlighted.Row].Id; got != other.Id {
		t.Errorf("the keyboard is on %d, not on the work order opened (%s)", got, other.Number)
	}
	for i := range moved {
		if cellAt(v, i, colNumber).ring.Visible() && i != v.table.focusedRow() {
			t.Errorf("row %d is still marked after moving on", i)
		}
	}
	if strings.Contains(v.bulkHint.Label.Text, "stays here") {
		t.Errorf("the hint still says %q", v.bulkHint.Label.Text)
	}

	// A change of sort moves on too.
	at = slices.IndexFunc(moved, func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(moved[at].Id)
	tapButton(h.desk.detail.accept)
	h.flush()
	if len(v.held) != 1 {
		t.Fatalf("held %v after a second accept", v.held)
	}
	hdr := newColumnHeader()
	v.updateHeader(widget.TableCellID{Row: -1, Col: slices.Index(v.cols, colNumber)}, hdr)
	hdr.button.OnTapped()
	h.flush()
	if len(v.held) != 0 || len(v.query.Held) != 0 {
		t.Errorf("sorted by number, the list still holds %v", v.held)
	}
}

// With the list scrolled down, a search that finds one work order draws it
// on the first row, at the top, with the keyboard on it: Ctrl+L, Down and
// Enter open it at once (A06).
func TestANewSearchStartsAtTheTopWithTheKeyboardOnItsFirstRow(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	v := h.desk.list
	rows := h.rows()
	c.Focus(v.table)
	for range 40 {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	if v.table.highlighted.Row != 40 {
		t.Fatalf("the keyboard is on row %d after 40 × Down", v.table.highlighted.Row)
	}
	want := rows[3]
	c.Focus(v.search)
	test.Type(v.search, want.Number)
	if h.rows(); v.total != 1 {
		t.Fatalf("searching %s lists %d rows", want.Number, v.total)
	}
	drawn := screenRows(t, h.win, v.table)
	if len(drawn) == 0 || drawn[0].number() != want.Number {
		t.Fatalf("the result is not drawn on the first row: %+v", drawn)
	}
	top := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.table).Y
	if drawn[0].y-top > 3*aboutARow(v) {
		t.Errorf("the one row is drawn %v below the table's top, under blank space", drawn[0].y-top)
	}
	if v.table.highlighted.Row != 0 {
		t.Errorf("the keyboard is on row %d, not on the result", v.table.highlighted.Row)
	}
	// Down from the search box moves into the list; Enter opens the row.
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if c.Focused() != v.table {
		t.Fatal("Down in the search box did not move to the list")
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.flush()
	if h.desk.detail.wo == nil || h.desk.detail.wo.WorkOrderId != want.Id {
		t.Errorf("Enter on the result did not open %s", want.Number)
	}
}

// aboutARow is about one row of the table.
func aboutARow(v *listView) float32 { return newCell().MinSize().Height + 8 }

// A work order with an invoice badge under its NTE lays its header out
// whole: the customer and site line ends above the tabs, not over the
// Summary tab's icon (A10); and so does the next one opened, and the
// badged one again.
func TestAHeaderWithAnInvoiceBadgeEndsAboveTheTabs(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1280, 800))
	h.settle()
	var badged, plain int64
	for _, r := range h.rows() {
		if r.Status != api.StatusCheckedOut && r.Status != api.StatusVerified {
			if plain == 0 {
				plain = r.Id
			}
			continue
		}
		h.open(r.Id) // its invoice is read as it opens
		if h.desk.detail.invoice.Visible() {
			badged = r.Id
			break
		}
	}
	if badged == 0 || plain == 0 {
		t.Fatal("no work order of the demo has an invoice badge, or none lacks one")
	}
	drv := fyne.CurrentApp().Driver()
	check := func(what string) {
		t.Helper()
		d := h.desk.detail
		where := drv.AbsolutePositionForObject(d.where).Y + d.where.MinSize().Height
		tabs := drv.AbsolutePositionForObject(d.appTabs).Y
		if where > tabs+1 {
			t.Errorf("%s: the customer line ends at %v, below the tabs' top %v", what, where, tabs)
		}
	}
	check("the first opened with a badge")
	h.open(plain)
	check("then one without")
	h.open(badged)
	check("and the badged one again")
}
