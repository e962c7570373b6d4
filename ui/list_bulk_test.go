package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestBulkActsOnTheTickedRowsTheListShows: two New work orders are ticked,
// then a search hides one. Accept counts and accepts only the one shown, and
// the list says a ticked one is hidden and left out; the hidden one stays
// New and ticked, and shows again, ticked, when the search is cleared.
func TestBulkActsOnTheTickedRowsTheListShows(t *testing.T) {
	h := newHarness(t)
	v := h.desk.list
	picked := h.rowsWhere(2, func(r storage.Row) bool { return r.Status == api.StatusNew })
	shown, hidden := picked[0], picked[1] // a search for the first's number hides the second
	for _, r := range []storage.Row{shown, hidden} {
		h.scrollIntoView(r.Id)
		h.tick(r.Number)
	}
	if v.acceptBtn.Text != "Accept 2" || v.hiddenNote.Visible() {
		t.Fatalf("with two shown rows ticked: %q, note shown %v", v.acceptBtn.Text, v.hiddenNote.Visible())
	}

	test.Type(v.search, shown.Number)
	if v.total != 1 {
		t.Fatalf("searching %s lists %d rows", shown.Number, v.total)
	}
	if v.acceptBtn.Text != "Accept 1" || v.rejectBtn.Text != "Reject 1" {
		t.Errorf("with one ticked row hidden the buttons read %q and %q, want Accept 1 and Reject 1", v.acceptBtn.Text, v.rejectBtn.Text)
	}
	if !v.hiddenNote.Visible() || !strings.Contains(v.hiddenNote.Text, "1 ticked work order is hidden") || !strings.Contains(v.hiddenNote.Text, "leave it out") {
		t.Errorf("the list says %q (shown %v) about the hidden tick", v.hiddenNote.Text, v.hiddenNote.Visible())
	}
	test.Tap(v.acceptBtn)
	h.send()
	h.dismissOverlays()

	status := func(id int64) api.WorkOrderStatus {
		wo, err := h.store.WorkOrder(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return wo.Status
	}
	if got := status(shown.Id); got != api.StatusAccepted {
		t.Errorf("the shown ticked work order is %s after Accept 1", got)
	}
	if got := status(hidden.Id); got != api.StatusNew {
		t.Errorf("the hidden ticked work order is %s after Accept 1: it was accepted unseen", got)
	}

	v.search.SetText("")
	if !v.selected[hidden.Id] || v.selected[shown.Id] {
		t.Errorf("after Accept 1 the ticks are %v; want only the hidden %s", v.selectedIDs(), hidden.Number)
	}
	if v.acceptBtn.Text != "Accept 1" || v.hiddenNote.Visible() {
		t.Errorf("with the search cleared: %q, note shown %v", v.acceptBtn.Text, v.hiddenNote.Visible())
	}
}

// TestTheTickHintIsWholeOrNotShown: "Tick rows to accept or reject
// together" shows whole where the list has room for it (a wide window
// has), and not at all where it has not, never cut mid-word.
func TestTheTickHintIsWholeOrNotShown(t *testing.T) {
	h := newHarness(t)
	hint := h.desk.list.bulkHint
	for _, w := range []float32{960, 1024, 1280, 1920} {
		h.win.Resize(fyne.NewSize(w, 800))
		h.settle()
		l := hint.Label
		if room := hint.Size().Width >= l.MinSize().Width; l.Visible() != room || w == 1920 && !room {
			t.Errorf("at %.0f px (%.0f px for the hint, %.0f needed) the hint shows: %v", w, hint.Size().Width, l.MinSize().Width, l.Visible())
		}
		if l.Visible() && (l.Size().Width < l.MinSize().Width || l.Position().X < 0) {
			t.Errorf("at %.0f px the hint is cut to %.0f of %.0f px", w, l.Size().Width, l.MinSize().Width)
		}
	}
}
