package list

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestAStatusChosenAfterItsCountChangedStillFilters: the person opens the
// status filter while the first sync is still counting ("New (0)"); the
// counts change before they tap; the tap on the label they saw still
// filters to New, and the filter then reads today's count. It showed
// every work order under a filter reading "New (0)" (seen in the real
// window right after start).
func TestAStatusChosenAfterItsCountChangedStillFilters(t *testing.T) {
	f := newFixture(t, demoReplica(t), 900)
	v := f.v
	if !slices.ContainsFunc(f.rows(), func(r storage.Row) bool { return r.Status == api.StatusNew }) {
		t.Fatal("the demo has no new work order")
	}

	v.setStatusCounts(map[api.WorkOrderStatus]int{}) // counted while the replica was still empty
	test.Tap(v.statusSel)
	choices := f.w.Canvas().Overlays().Top()
	if choices == nil {
		t.Fatal("tapping the status filter opened no choices")
	}
	v.reloadCounts() // the sync's counts arrive while the choices are open
	var seen fyne.Tappable
	walk(choices, func(o fyne.CanvasObject) {
		if tp, ok := o.(fyne.Tappable); ok && showsText(o, "New (0)") { // the innermost: the choice, not the menu around it
			seen = tp
		}
	})
	if seen == nil {
		t.Fatal(`the open choices show no "New (0)"`)
	}
	test.Tap(seen)

	rows := f.rows()
	if len(rows) == 0 {
		t.Fatal("the New filter lists nothing")
	}
	for _, r := range rows {
		if r.Status != api.StatusNew {
			t.Fatalf("under the New filter the list shows %s, %s", r.Number, r.Status)
		}
	}
	counts, err := v.store.StatusCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := statusOptions(counts)[1+slices.Index(api.AllStatuses, api.StatusNew)]
	if got := v.statusSel.Selected; got != want {
		t.Errorf("the filter reads %q, not today's %q", got, want)
	}
}

// showsText says whether a canvas.Text under o reads text.
func showsText(o fyne.CanvasObject, text string) bool {
	found := false
	walk(o, func(c fyne.CanvasObject) {
		if tx, ok := c.(*canvas.Text); ok && tx.Text == text {
			found = true
		}
	})
	return found
}
