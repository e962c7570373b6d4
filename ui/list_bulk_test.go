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
	note := func() string { // what the list says of ticked rows it hides; "" for nothing
		if l := h.listLabel(func(s string) bool { return strings.Contains(s, "ticked work order") }); l != nil {
			return l.Text
		}
		return ""
	}
	picked := h.rowsWhere(2, func(r storage.Row) bool { return r.Status == api.StatusNew })
	shown, hidden := picked[0], picked[1] // a search for the first's number hides the second
	for _, r := range []storage.Row{shown, hidden} {
		h.scrollIntoView(r.Id)
		h.tick(r.Number)
	}
	if h.listButton("Accept").Text != "Accept 2" || note() != "" {
		t.Fatalf("with two shown rows ticked: %q, note %q", h.listButton("Accept").Text, note())
	}

	test.Type(v.Search(), shown.Number)
	if v.Len() != 1 {
		t.Fatalf("searching %s lists %d rows", shown.Number, v.Len())
	}
	if a, r := h.listButton("Accept").Text, h.listButton("Reject").Text; a != "Accept 1" || r != "Reject 1" {
		t.Errorf("with one ticked row hidden the buttons read %q and %q, want Accept 1 and Reject 1", a, r)
	}
	if got := note(); !strings.Contains(got, "1 ticked work order is hidden") || !strings.Contains(got, "leave it out") {
		t.Errorf("the list says %q about the hidden tick", got)
	}
	test.Tap(h.listButton("Accept"))
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

	v.Search().SetText("")
	if !h.ticked(hidden.Id) || h.ticked(shown.Id) {
		t.Errorf("after Accept 1 %s is ticked %v and %s %v; want only the hidden %s", hidden.Number, h.ticked(hidden.Id), shown.Number, h.ticked(shown.Id), hidden.Number)
	}
	if h.listButton("Accept").Text != "Accept 1" || note() != "" {
		t.Errorf("with the search cleared: %q, note %q", h.listButton("Accept").Text, note())
	}
}

// TestTheTickHintIsWholeOrNotShown: "Tick rows to accept or reject
// together" shows whole where the list has room for it (a wide window
// has), and not at all where it has not, never cut mid-word.
func TestTheTickHintIsWholeOrNotShown(t *testing.T) {
	h := newHarness(t)
	hint := h.listHint()
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
