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
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// In the Visit tab, Assign… ticks who goes: several at once, and unticking
// takes someone off; both are queued, and the tab shows them at once.
func TestAssignSeveralFromTheVisitTab(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	wo := h.pick(func(w *api.WorkOrder) bool {
		who, _ := w.Assigned()
		return w.Status == api.StatusAccepted && len(who) == 1
	})
	was, _ := wo.Assigned()
	crew, known, err := h.store.Associates(ctx, wo.BranchId)
	if err != nil || !known {
		t.Fatalf("branch %d's people: %v", wo.BranchId, err)
	}
	var add []api.Associate
	for _, a := range crew {
		if a.Id != was[0].Id && len(add) < 2 {
			add = append(add, a)
		}
	}
	h.open(wo.WorkOrderId)
	h.selectTab("Visit")
	tab := visitOf(h)
	test.Tap(tab.assign)
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("Assign… opened nothing")
	}
	for _, a := range append(add, was[0]) {
		test.Tap(checkIn(t, dlg, format.Associate(a)))
	}
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush()
	rows, err := h.store.UnfinishedOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Summary)
	}
	want := []string{"Unassign " + was[0].Name, "Assign " + add[0].Name + " and " + add[1].Name}
	if !slices.Equal(got, want) {
		t.Fatalf("queued %q; want %q", got, want)
	}
	if text := tab.who.Text; !strings.Contains(text, add[0].Name) || !strings.Contains(text, add[1].Name) || strings.Contains(text, was[0].Name) {
		t.Errorf("the Visit tab says %q while queued", text)
	}
	h.send()
	remote, err := h.eng.Client.GetWorkOrder(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range add {
		if on, _ := remote.AssignedTo(a.Id); !on {
			t.Errorf("the service does not have %s on it", a.Name)
		}
	}
	if on, _ := remote.AssignedTo(was[0].Id); on {
		t.Errorf("the service still has %s on it", was[0].Name)
	}
}

// Ticked rows are assigned together: one assignment naming them all.
func TestBulkAssignFromTickedRows(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	first := h.pick(func(w *api.WorkOrder) bool { return w.Status == api.StatusAccepted })
	second := h.pick(func(w *api.WorkOrder) bool {
		return w.Status == api.StatusAccepted && w.BranchId == first.BranchId && w.WorkOrderId != first.WorkOrderId
	})
	h.tickRows(first.WorkOrderId, second.WorkOrderId)
	if b := h.listButton("Assign"); !b.Visible() || b.Text != "Assign 2…" {
		t.Fatalf("the bulk button reads %q (shown %v)", b.Text, b.Visible())
	}
	test.Tap(h.listButton("Assign"))
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	crew, _, _ := h.store.Associates(ctx, first.BranchId)
	test.Tap(checkIn(t, dlg, format.Associate(crew[len(crew)-1])))
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush()
	rows, _ := h.store.UnfinishedOutbox(ctx)
	if len(rows) != 1 || rows[0].Kind != outbox.KindAssign || !slices.Equal(rows[0].WorkOrderIds, []int64{min(first.WorkOrderId, second.WorkOrderId), max(first.WorkOrderId, second.WorkOrderId)}) {
		t.Fatalf("queued %+v; want one assignment of both", rows)
	}
	if h.ticked(first.WorkOrderId) || h.ticked(second.WorkOrderId) || h.listButton("Assign").Visible() {
		t.Error("the rows stay ticked after the assignment was queued")
	}
}

// pick is the first work order of the list matching ok.
func (h *harness) pick(ok func(*api.WorkOrder) bool) *api.WorkOrder {
	h.t.Helper()
	for _, r := range h.rows() {
		wo, err := h.store.WorkOrder(context.Background(), r.Id)
		if err != nil {
			h.t.Fatal(err)
		}
		if ok(wo) {
			return wo
		}
	}
	h.t.Fatal("no work order of the demo fits")
	return nil
}

// checkIn is the check box labelled text under o.
func checkIn(t *testing.T, o fyne.CanvasObject, text string) *widget.Check {
	t.Helper()
	var found *widget.Check
	walk(o, func(c fyne.CanvasObject) {
		switch x := c.(type) {
		case *widget.Check:
			if x.Text == text {
				found = x
			}
		case *dialogs.Check:
			if x.Text == text {
				found = &x.Check
			}
		}
	})
	if found == nil {
		t.Fatalf("no %q check box", text)
	}
	return found
}
