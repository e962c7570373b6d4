package list

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheListShowsWhatTheReplicaLists: the count says how many work orders
// the replica holds, and the table's rows are the replica's, most urgent
// deadline first, the first page read at once and the others as the
// table shows them.
func TestTheListShowsWhatTheReplicaLists(t *testing.T) {
	store := demoReplica(t)
	f := newFixture(t, store, 900)
	ctx := context.Background()
	all, err := store.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.v.count.Text, fmt.Sprintf("%d work orders", all); got != want || all <= pageSize {
		t.Fatalf("the count reads %q, want %q (over a page)", got, want)
	}
	want, err := store.List(ctx, storage.ListQuery{Sort: storage.SortNextDeadline})
	if err != nil {
		t.Fatal(err)
	}
	got := f.rows()
	if len(got) != len(want) {
		t.Fatalf("the list shows %d rows, the replica lists %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Id != want[i].Id {
			t.Fatalf("row %d is %s, the replica lists %s there", i, got[i].Number, want[i].Number)
		}
	}
	if c := f.cellAt(0, 1); c.text.Text != want[0].Number {
		t.Errorf("the first row's Number cell reads %q, want %s", c.text.Text, want[0].Number)
	}
	// Typing narrows: the count says how many of all.
	test.Type(f.v.search, "harbor")
	n, err := store.CountList(ctx, storage.ListQuery{Search: "harbor"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.v.count.Text, fmt.Sprintf("%d of %d work orders", n, all); got != want || n == 0 || n == all {
		t.Errorf("searching \"harbor\" the count reads %q, want %q", got, want)
	}
	found, err := store.List(ctx, storage.ListQuery{Search: "harbor", Sort: storage.SortNextDeadline})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := idsOf(f.rows()), idsOf(found); !slices.Equal(got, want) {
		t.Errorf("searching \"harbor\" lists %v, the replica finds %v", got, want)
	}
}

// TestTheListOpensWhatThePersonPicks: a tap on a row, Enter on the
// keyboard's row and Enter in the search box each ask the window to open
// that work order; a tap on the tick box opens nothing.
func TestTheListOpensWhatThePersonPicks(t *testing.T) {
	f := newFixture(t, demoReplica(t), 900)
	rows := f.rows()
	f.v.table.Select(tableCell(3, 1))
	f.w.Canvas().Focus(f.v.table)
	f.v.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	f.v.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	f.v.table.Select(tableCell(6, 0)) // the tick box's column
	test.Type(f.v.search, rows[9].Number)
	f.v.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	want := []int64{rows[3].Id, rows[4].Id, rows[9].Id}
	if !slices.Equal(f.win.opened, want) {
		t.Errorf("the list asked to open %v, want %v", f.win.opened, want)
	}
}

// TestTheKeyboardsRowStaysOnItsWorkOrder: when the list is read again and
// a work order comes in above the keyboard's row, the keyboard stays on
// the work order it was on, not on the row number.
func TestTheKeyboardsRowStaysOnItsWorkOrder(t *testing.T) {
	store := demoReplica(t)
	f := newFixture(t, store, 900)
	test.Tap(header(t, f.v.table, "Number").button) // by number: where a new one goes is known
	f.w.Canvas().Focus(f.v.table)
	for range 5 {
		f.v.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	on, _ := f.v.rowAt(f.v.table.KeyboardRow())
	putWorkOrder(t, store, 9_000_001, "AAA00001") // sorts first
	f.v.Reload()
	if got, _ := f.v.rowAt(0); got.Number != "AAA00001" {
		t.Fatalf("the new work order is not first: %s", got.Number)
	}
	if at, _ := f.v.rowAt(f.v.table.KeyboardRow()); at.Id != on.Id || f.v.table.KeyboardRow() != 6 {
		t.Errorf("the keyboard is on row %d, %s; want row 6, %s", f.v.table.KeyboardRow(), at.Number, on.Number)
	}
}

// TestAHeldRowStaysUntilThePersonMovesOn: a work order the window acted
// on (Keep) stays on its row though a change sorts it elsewhere, marked,
// and the hint says until when; opening another lets it go where the sort
// puts it.
func TestAHeldRowStaysUntilThePersonMovesOn(t *testing.T) {
	store := demoReplica(t)
	f := newFixture(t, store, 900)
	test.Tap(header(t, f.v.table, "Number").button)
	before := f.rows()
	acted := before[3]
	f.v.Keep(acted.Id)
	putWorkOrder(t, store, acted.Id, "ZZZ99999") // renumbered: by number it goes last
	f.v.Reload()
	after := f.rows()
	if len(after) != len(before) || after[3].Id != acted.Id || after[4].Id != before[4].Id {
		t.Fatalf("rows moved after the change to the held work order: row 3 is %s, row 4 %s", after[3].Number, after[4].Number)
	}
	if !f.cellAt(3, 1).ring.Visible() || f.cellAt(4, 1).ring.Visible() {
		t.Error("the held row is not marked, or the row below it is")
	}
	if hint := f.v.bulkHint.Label.Text; hint != "ZZZ99999 stays here until you open another" {
		t.Errorf("the hint says %q", hint)
	}
	f.v.Open(before[5].Id)
	moved := f.rows()
	if moved[len(moved)-1].Id != acted.Id {
		t.Errorf("after moving on the last row is %s, not the renumbered ZZZ99999", moved[len(moved)-1].Number)
	}
	if hint := f.v.bulkHint.Label.Text; strings.Contains(hint, "stays here") {
		t.Errorf("the hint still says %q", hint)
	}
	if got := f.win.opened; !slices.Equal(got, []int64{before[5].Id}) {
		t.Errorf("the list asked to open %v", got)
	}
}

// TestRowsActedOnTogetherStayWhereTheyWere: several work orders kept at
// once (a bulk accept), below one kept before, each stay on their row
// and no other row moves between them. In the real window a bulk accept
// of three rows left one where it was and moved another down, a row not
// acted on taking its place (issue 38's second tryout).
func TestRowsActedOnTogetherStayWhereTheyWere(t *testing.T) {
	store := demoReplica(t)
	f := newFixture(t, store, 900)
	test.Tap(header(t, f.v.table, "Number").button) // by number: a renumbered one goes last
	before := f.rows()
	f.v.Keep(before[0].Id)
	putWorkOrder(t, store, before[0].Id, "ZZZ99990")
	f.v.Reload()
	acted := []int64{before[1].Id, before[2].Id, before[3].Id}
	f.v.Keep(acted...)
	for i, id := range acted {
		putWorkOrder(t, store, id, fmt.Sprintf("ZZZ9999%d", i+1))
	}
	f.v.Reload()
	after := f.rows()
	for i := range 6 {
		if after[i].Id != before[i].Id {
			t.Errorf("row %d is %s, was %s (id %d)", i, after[i].Number, before[i].Number, before[i].Id)
		}
	}
}

// TestTickingRowsOffersTheBulkActions: ticked rows turn the hint into
// Accept, Reject and Assign with how many; each hands the window the
// ticked work orders; Untick (after the action) clears them.
func TestTickingRowsOffersTheBulkActions(t *testing.T) {
	f := newFixture(t, demoReplica(t), 1300)
	rows := f.rows()
	if !f.v.bulkHint.Visible() || f.v.acceptBtn.Visible() {
		t.Fatal("with nothing ticked the list offers bulk actions")
	}
	for _, row := range []int{2, 5} {
		f.w.Canvas().Focus(f.v.table)
		f.v.table.moveHighlight(row)
		f.v.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	}
	if f.cellAt(2, 0).check.Checked != true || f.cellAt(3, 0).check.Checked {
		t.Error("the ticked rows' boxes are not ticked, or another's is")
	}
	for _, b := range []struct{ text, want string }{{f.v.acceptBtn.Text, "Accept 2"}, {f.v.rejectBtn.Text, "Reject 2"}, {f.v.assignBtn.Text, "Assign 2…"}} {
		if b.text != b.want {
			t.Errorf("a bulk button reads %q, want %q", b.text, b.want)
		}
	}
	if f.v.bulkHint.Visible() {
		t.Error("the hint shows beside the bulk buttons")
	}
	ids := []int64{rows[2].Id, rows[5].Id}
	slices.Sort(ids)
	test.Tap(f.v.acceptBtn)
	test.Tap(f.v.rejectBtn)
	test.Tap(f.v.assignBtn)
	for what, got := range map[string][][]int64{"Accept": f.win.accepted, "Reject": f.win.rejected, "Assign": f.win.assigned} {
		if len(got) != 1 || !slices.Equal(got[0], ids) {
			t.Errorf("%s handed the window %v, want %v", what, got, ids)
		}
	}
	f.v.Untick(ids[:1])
	if f.v.acceptBtn.Text != "Accept 1" {
		t.Errorf("one unticked, the button reads %q", f.v.acceptBtn.Text)
	}
	f.v.Untick(ids[1:])
	if f.v.acceptBtn.Visible() || !f.v.bulkHint.Visible() {
		t.Error("all unticked, the list still offers bulk actions")
	}
}

// TestAFailedPageReadIsReportedOnce: a page that cannot be read is
// reported to the window once, however many cells asked for it.
func TestAFailedPageReadIsReportedOnce(t *testing.T) {
	store := demoReplica(t)
	f := newFixture(t, store, 900)
	if f.v.total <= pageSize {
		t.Fatalf("the list has %d rows: too few for a second page", f.v.total)
	}
	store.Close() // the replica becomes unreadable
	f.v.table.ScrollToBottom()
	f.v.table.Refresh()
	if len(f.win.problems) != 1 || f.win.problems[0] == nil {
		t.Errorf("the failure was reported %v, want once", f.win.problems)
	}
}

// putWorkOrder writes a work order numbered number into the replica, as a
// sync would: a new one, or id renumbered.
func putWorkOrder(t *testing.T, store *storage.Store, id int64, number string) {
	t.Helper()
	ctx := context.Background()
	wo := &api.WorkOrder{WorkOrderId: id, Status: api.StatusAccepted, Created: fixedNow, Currency: "USD",
		Customer: api.Customer{Id: 4100, Name: "Customer"}}
	if old, err := store.WorkOrder(ctx, id); err == nil && old != nil {
		wo = old
	}
	wo.WorkOrderNumber = number
	wo.LastUpdate = fixedNow.Add(time.Minute)
	if err := store.PutWorkOrders(ctx, []api.WorkOrder{*wo}); err != nil {
		t.Fatal(err)
	}
}

func idsOf(rows []storage.Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.Id
	}
	return out
}

// TestTickingRowsNeverWidensTheList: in a pane as narrow as a 1024-pixel
// window leaves the list, ticking rows brings the bulk buttons without
// making the pane wider than it is: they wrap under one another, each
// whole inside the pane. Side by side they pushed the detail past the
// window's right edge (issue 38's second tryout).
func TestTickingRowsNeverWidensTheList(t *testing.T) {
	const width = 560
	f := newFixture(t, demoReplica(t), width)
	for _, row := range []int{2, 5} {
		f.w.Canvas().Focus(f.v.table)
		f.v.table.moveHighlight(row)
		f.v.table.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	}
	if !f.v.acceptBtn.Visible() {
		t.Fatal("two ticked rows bring no bulk buttons")
	}
	if w := f.w.Content().MinSize().Width; w > width {
		t.Errorf("with two rows ticked the list needs %.0f px, more than its %d-px pane", w, width)
	}
	f.w.Resize(fyne.NewSize(width, 800)) // laid out again, as the window does
	d := fyne.CurrentApp().Driver()
	for _, b := range []*widget.Button{f.v.acceptBtn, f.v.rejectBtn, f.v.assignBtn} {
		if at := d.AbsolutePositionForObject(b); at.X+b.Size().Width > width || b.Size().Width < b.MinSize().Width {
			t.Errorf("%q is drawn at %.0f, %.0f px wide (needs %.0f), in a %d-px pane", b.Text, at.X, b.Size().Width, b.MinSize().Width, width)
		}
	}
}
