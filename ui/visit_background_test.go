package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestAVisitQueuedLateLeavesTheNextWorkOrderAlone: a check-in on A that is
// queued only after the person opened B (the writer was busy with a sync)
// does not reset B's back-date choice or show A's last action on B.
func TestAVisitQueuedLateLeavesTheNextWorkOrderAlone(t *testing.T) {
	h := newBackgroundHarness(t)
	// Northwind Retail allows back-dating: B's choice of a back-date is
	// the person's to make.
	rows := []storage.Row{h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}), h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted})}
	h.open(rows[0].Id)
	h.selectTab("Visit")
	v := visitOf(h)
	release := holdWriter(t, h.store.Path())
	test.Tap(v.checkIn)
	h.open(rows[1].Id)
	v.when.SetSelected(whenEarlier)
	before := v.lastState.Text
	release()
	h.waitFor("the check-in to be queued", func() bool { return !h.desk.busy(v.checkIn) })
	if v.when.Selected != whenEarlier {
		t.Errorf("B's back-date choice was reset to %q by A's check-in", v.when.Selected)
	}
	if v.lastState.Text != before {
		t.Errorf("B's tab now says %q (A's last action); before %q", v.lastState.Text, before)
	}
}
