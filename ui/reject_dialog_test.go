package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// TestARefusedRejectionKeepsItsReason: when the rejection cannot be queued
// (here the work order was accepted meanwhile, as a stale tick in the list
// can leave it), the person gets the reason back in the dialog under the
// error, not an empty one to type again.
func TestARefusedRejectionKeepsItsReason(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.desk.showReject([]int64{r.Id})
	dlg := h.win.Canvas().Overlays().Top()
	const typed = "We do not service rooftop units at this site"
	entry := entryIn(t, dlg)
	test.Type(entry, typed)
	test.Tap(buttonIn(t, dlg, "Reject"))
	h.flush()
	overlays := h.win.Canvas().Overlays().List()
	if len(overlays) < 2 {
		t.Fatalf("after a refused rejection %d dialogs are open (%q); want the error over the reason", len(overlays), h.overlayText())
	}
	if got := h.overlayText(); !strings.Contains(got, "only a new work order can be rejected") {
		t.Errorf("the error says %q", got)
	}
	if got := entryIn(t, overlays[len(overlays)-2]).Text; got != typed {
		t.Errorf("the reason dialog under the error holds %q, want what was typed", got)
	}
}

// entryIn is the first entry under o (a dialog).
func entryIn(t *testing.T, o fyne.CanvasObject) *widget.Entry {
	t.Helper()
	var found *widget.Entry
	walk(o, func(c fyne.CanvasObject) {
		if found != nil {
			return
		}
		switch e := c.(type) {
		case *widget.Entry:
			found = e
		case *dialogs.Entry:
			found = &e.Entry
		}
	})
	if found == nil {
		t.Fatal("no entry in the dialog")
	}
	return found
}
