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

// TestTheAssignDialogAnswersEnterAndEscOnATickBox: a person without the
// mouse tabs to a name in the Assign dialog and ticks it with Space; Enter
// then saves, and Esc, after ticking, leaves without assigning. In the
// tryout both did nothing while the tick box had the keyboard.
func TestTheAssignDialogAnswersEnterAndEscOnATickBox(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	wo := h.pick(func(w *api.WorkOrder) bool {
		who, _ := w.Assigned()
		return w.Status == api.StatusAccepted && len(who) == 0
	})
	crew, known, err := h.store.Associates(ctx, wo.BranchId)
	if err != nil || !known || len(crew) < 2 {
		t.Fatalf("branch %d's people: %v (%d)", wo.BranchId, err, len(crew))
	}
	h.open(wo.WorkOrderId)
	h.selectTab("Visit")
	tab := visitOf(h)
	for _, c := range []struct {
		key  fyne.KeyName
		who  api.Associate
		want []string
	}{
		{fyne.KeyEscape, crew[1], nil},
		{fyne.KeyReturn, crew[0], []string{"Assign " + crew[0].Name}},
	} {
		test.Tap(tab.assign)
		h.flush()
		dlg := h.win.Canvas().Overlays().Top()
		if dlg == nil {
			t.Fatal("Assign… opened nothing")
		}
		var box *dialogs.Check
		walk(dlg, func(o fyne.CanvasObject) {
			if x, ok := o.(*dialogs.Check); ok && x.Text == format.Associate(c.who) {
				box = x
			}
		})
		if box == nil {
			t.Fatalf("no tick box for %s", c.who.Name)
		}
		h.win.Canvas().Focus(box)
		box.TypedRune(' ')
		if !box.Checked {
			t.Fatalf("Space did not tick %s", c.who.Name)
		}
		box.TypedKey(&fyne.KeyEvent{Name: c.key})
		h.flush()
		if h.win.Canvas().Overlays().Top() != nil {
			t.Fatalf("%s on a tick box left the Assign dialog open", c.key)
		}
		rows, err := h.store.UnfinishedOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.Summary)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("after %s the outbox holds %q; want %q", c.key, got, c.want)
		}
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

// Assign 2… over work orders of two branches, with a technician only one
// of them has: that one is assigned, the other is named with the reason
// in a dialog that is not an error, and stays ticked. The dialog lists
// each branch's people under the branch, by name, the same every time.
func TestBulkAssignAssignsWhereItCanAndSaysWhyNot(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	first := h.pick(func(w *api.WorkOrder) bool { return w.Status == api.StatusAccepted })
	other := h.pick(func(w *api.WorkOrder) bool { return w.Status == api.StatusAccepted && w.BranchId != first.BranchId })
	mine, _, _ := h.store.Associates(ctx, first.BranchId)
	theirs, _, _ := h.store.Associates(ctx, other.BranchId)
	var only *api.Associate
	for i, a := range mine {
		if on, _ := first.AssignedTo(a.Id); !on && !slices.ContainsFunc(theirs, func(x api.Associate) bool { return x.Id == a.Id }) {
			only = &mine[i]
			break
		}
	}
	if only == nil {
		t.Fatal("the demo has no technician of one branch only")
	}
	h.tickRows(first.WorkOrderId, other.WorkOrderId)
	order := func() []string {
		test.Tap(h.listButton("Assign"))
		h.flush()
		dlg := h.win.Canvas().Overlays().Top()
		var got []string
		walk(dlg, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *dialogs.Check:
				got = append(got, x.Text)
			case *widget.Label:
				if strings.HasPrefix(x.Text, "Branch ") {
					got = append(got, x.Text)
				}
			}
		})
		return got
	}
	once := order()
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Cancel"))
	h.flush()
	again := order()
	if !slices.Equal(once, again) || len(once) == 0 {
		t.Fatalf("the dialog's order changed:\n%q\n%q", once, again)
	}
	heads := 0
	for i, s := range once {
		if strings.HasPrefix(s, "Branch ") {
			heads++
			if !strings.Contains(s, first.WorkOrderNumber) && !strings.Contains(s, other.WorkOrderNumber) {
				t.Errorf("the heading %q names none of the ticked work orders", s)
			}
			continue
		}
		if i > 0 && !strings.HasPrefix(once[i-1], "Branch ") && strings.ToLower(once[i-1]) > strings.ToLower(s) {
			t.Errorf("%q is listed before %q: not by name", once[i-1], s)
		}
	}
	if heads != 2 {
		t.Errorf("%d branch headings; want 2: %q", heads, once)
	}
	dlg := h.win.Canvas().Overlays().Top()
	test.Tap(checkIn(t, dlg, format.Associate(*only)))
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush()

	rows, _ := h.store.UnfinishedOutbox(ctx)
	if len(rows) != 1 || rows[0].Kind != outbox.KindAssign || !slices.Equal(rows[0].WorkOrderIds, []int64{first.WorkOrderId}) {
		t.Fatalf("queued %+v; want %s's assignment alone", rows, first.WorkOrderNumber)
	}
	said := h.win.Canvas().Overlays().Top()
	var texts []string
	walk(said, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	})
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "Assigned to 1 of 2 work orders") || strings.Contains(all, "Error") || strings.Contains(all, ".:") || strings.Contains(all, "..") ||
		!strings.Contains(all, only.Name+" does not work for the branch of "+other.WorkOrderNumber) {
		t.Errorf("the dialog says:\n%s", all)
	}
	if h.ticked(first.WorkOrderId) || !h.ticked(other.WorkOrderId) {
		t.Errorf("ticked after: %s %v, %s %v; want only %s", first.WorkOrderNumber, h.ticked(first.WorkOrderId), other.WorkOrderNumber, h.ticked(other.WorkOrderId), other.WorkOrderNumber)
	}
}
