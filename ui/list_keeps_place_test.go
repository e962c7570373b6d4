package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/list"
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
	q, _ := v.Shown()
	sorted, err := h.store.List(ctx, storage.ListQuery{Sort: q.Sort, Desc: q.Desc})
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
	if h.listCell(acted.Id, "Number").ring == nil {
		t.Error("the row acted on is not marked")
	}
	if h.listCell(after[at+1].Id, "Number").ring != nil {
		t.Error("the row below it is marked too")
	}
	if hint := h.listHint().Label.Text; !strings.Contains(hint, acted.Number+" stays here") {
		t.Errorf("the hint says %q", hint)
	}

	// Moving on: another work order is opened.
	other := after[at+1]
	h.open(other.Id)
	moved := h.rows()
	if got := slices.IndexFunc(moved, func(r storage.Row) bool { return r.Id == acted.Id }); got != where {
		t.Errorf("after moving on %s is on row %d; the sort puts it on %d", acted.Number, got, where)
	}
	if got := moved[v.Table().KeyboardRow()].Id; got != other.Id {
		t.Errorf("the keyboard is on %d, not on the work order opened (%s)", got, other.Number)
	}
	if held := heldOnScreen(h); len(held) > 0 {
		t.Errorf("%v are still marked held after moving on", held)
	}
	if strings.Contains(h.listHint().Label.Text, "stays here") {
		t.Errorf("the hint still says %q", h.listHint().Label.Text)
	}

	// A change of sort moves on too.
	at = slices.IndexFunc(moved, func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(moved[at].Id)
	tapButton(h.desk.detail.accept)
	h.flush()
	if hint := h.listHint().Label.Text; !strings.Contains(hint, moved[at].Number+" stays here") {
		t.Fatalf("after a second accept the hint says %q", hint)
	}
	h.sortListBy("Number", false)
	if hint := h.listHint().Label.Text; strings.Contains(hint, "stays here") {
		t.Errorf("sorted by number, the list still holds a row: %q", hint)
	}
	if held := heldOnScreen(h); len(held) > 0 {
		t.Errorf("sorted by number, %v are still marked held", held)
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
	c.Focus(v.Table())
	for range 40 {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	if v.Table().KeyboardRow() != 40 {
		t.Fatalf("the keyboard is on row %d after 40 × Down", v.Table().KeyboardRow())
	}
	want := rows[3]
	c.Focus(v.Search())
	test.Type(v.Search(), want.Number)
	if h.rows(); v.Len() != 1 {
		t.Fatalf("searching %s lists %d rows", want.Number, v.Len())
	}
	drawn := screenRows(t, h.win, v.Table())
	if len(drawn) == 0 || drawn[0].number() != want.Number {
		t.Fatalf("the result is not drawn on the first row: %+v", drawn)
	}
	top := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.Table()).Y
	if drawn[0].y-top > 3*aboutARow(h) {
		t.Errorf("the one row is drawn %v below the table's top, under blank space", drawn[0].y-top)
	}
	if v.Table().KeyboardRow() != 0 {
		t.Errorf("the keyboard is on row %d, not on the result", v.Table().KeyboardRow())
	}
	// Down from the search box moves into the list; Enter opens the row.
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if c.Focused() != v.Table() {
		t.Fatal("Down in the search box did not move to the list")
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.flush()
	if h.desk.detail.wo == nil || h.desk.detail.wo.WorkOrderId != want.Id {
		t.Errorf("Enter on the result did not open %s", want.Number)
	}
}

// aboutARow is about one row of the table.
func aboutARow(h *harness) float32 {
	h.t.Helper()
	var row float32
	walk(h.desk.list.Table(), func(o fyne.CanvasObject) {
		if c, ok := o.(*list.Cell); ok && row == 0 {
			row = c.Size().Height + 8
		}
	})
	return row
}

// heldOnScreen are the numbers of the rows drawn marked as held where the
// person acted on them (the grey line along the row).
func heldOnScreen(h *harness) []string {
	var out []string
	for _, r := range screenRows(h.t, h.win, h.desk.list.Table()) {
		if ring := drawnIn(r.cells["Number"].c).ring; ring != nil && ring != keyboardsRing {
			out = append(out, r.number())
		}
	}
	return out
}

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
