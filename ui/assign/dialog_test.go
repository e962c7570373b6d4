package assign

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// For one work order the dialog ticks who is on it; ticking others and
// unticking one queues both, taking off first, and says so; the button
// that opened it is the one held while they are queued.
func TestOneWorkOrderTicksWhoIsOnItAndUntickingTakesThemOff(t *testing.T) {
	f := newFake(t, demoReplica(t))
	ctx := context.Background()
	wo := f.pick(func(w *api.WorkOrder) bool {
		who, _ := w.Assigned()
		return w.Status == api.StatusAccepted && len(who) == 1
	})
	was, _ := wo.Assigned()
	crew, known, err := f.store.Associates(ctx, wo.BranchId)
	if err != nil || !known {
		t.Fatalf("branch %d's people: %v", wo.BranchId, err)
	}
	var add []api.Associate
	for _, a := range crew {
		if a.Id != was[0].Id && len(add) < 2 {
			add = append(add, a)
		}
	}
	f.controls = []fyne.Disableable{widget.NewButton("Assign…", nil)}
	f.dialog.Show([]int64{wo.WorkOrderId}, nil)
	if !strings.Contains(viewtest.Texts(f.top()), "Who goes to this work order?") {
		t.Errorf("the dialog says:\n%s", viewtest.Texts(f.top()))
	}
	if !f.check(format.Associate(was[0])).Checked || f.check(format.Associate(add[0])).Checked {
		t.Fatalf("%s is not ticked, or %s is", was[0].Name, add[0].Name)
	}
	for _, a := range append(add, was[0]) {
		f.check(format.Associate(a)).SetChecked(!f.check(format.Associate(a)).Checked)
	}
	f.tap("Save")
	want := []string{"Unassign " + was[0].Name, "Assign " + add[0].Name + " and " + add[1].Name}
	if got := f.queued(); !slices.Equal(got, want) {
		t.Fatalf("queued %q; want %q", got, want)
	}
	if got := f.Said; len(got) != 1 || got[0] != strings.Join(want, "; ") {
		t.Errorf("the window was told %q", got)
	}
	if len(f.asked) != 1 || !slices.Equal(f.asked[0], []int64{wo.WorkOrderId}) || f.Replaced != 1 {
		t.Errorf("controls asked for %v, %d contexts read; want the work order's, once", f.asked, f.Replaced)
	}
	if f.top() != nil || len(f.Errors) > 0 || len(f.unticked) > 0 {
		t.Errorf("after Save: a dialog open %v, errors %q, unticked %v", f.top() != nil, f.Errors, f.unticked)
	}
}

// A person without the mouse ticks a name with Space while its tick box
// has the keyboard; Enter then saves, and Esc, after ticking, leaves
// without assigning. In the tryout both did nothing there.
func TestTheDialogAnswersEnterAndEscOnATickBox(t *testing.T) {
	f := newFake(t, demoReplica(t))
	ctx := context.Background()
	wo := f.pick(func(w *api.WorkOrder) bool {
		who, _ := w.Assigned()
		return w.Status == api.StatusAccepted && len(who) == 0
	})
	crew, known, err := f.store.Associates(ctx, wo.BranchId)
	if err != nil || !known || len(crew) < 2 {
		t.Fatalf("branch %d's people: %v (%d)", wo.BranchId, err, len(crew))
	}
	for _, c := range []struct {
		key  fyne.KeyName
		who  api.Associate
		want []string
	}{
		{fyne.KeyEscape, crew[1], nil},
		{fyne.KeyReturn, crew[0], []string{"Assign " + crew[0].Name}},
	} {
		f.dialog.Show([]int64{wo.WorkOrderId}, nil)
		box := f.check(format.Associate(c.who))
		f.Win.Canvas().Focus(box)
		box.TypedRune(' ')
		if !box.Checked {
			t.Fatalf("Space did not tick %s", c.who.Name)
		}
		box.TypedKey(&fyne.KeyEvent{Name: c.key})
		if f.top() != nil {
			t.Fatalf("%s on a tick box left the dialog open", c.key)
		}
		if got := f.queued(); !slices.Equal(got, c.want) {
			t.Errorf("after %s the outbox holds %q; want %q", c.key, got, c.want)
		}
	}
}

// Several work orders of two branches, with a technician only one of
// them has: that one is assigned, the other is named with the reason in a
// dialog that is not an error, and is not unticked. The dialog lists each
// branch's people under the branch, by name, the same every time.
func TestSeveralAreAssignedWhereTheyMayAndTheRestIsSaid(t *testing.T) {
	f := newFake(t, demoReplica(t))
	ctx := context.Background()
	first := f.pick(func(w *api.WorkOrder) bool { return w.Status == api.StatusAccepted })
	other := f.pick(func(w *api.WorkOrder) bool { return w.Status == api.StatusAccepted && w.BranchId != first.BranchId })
	mine, _, _ := f.store.Associates(ctx, first.BranchId)
	theirs, _, _ := f.store.Associates(ctx, other.BranchId)
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
	both := []int64{first.WorkOrderId, other.WorkOrderId}
	order := func() []string {
		f.dialog.Show(both, nil)
		var got []string
		viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Check:
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
	f.tap("Cancel")
	again := order()
	if !slices.Equal(once, again) || len(once) == 0 {
		t.Fatalf("the dialog's order changed:\n%q\n%q", once, again)
	}
	heads := 0
	for i, s := range once {
		if strings.HasPrefix(s, "Branch ") {
			heads++
			if !strings.Contains(s, first.WorkOrderNumber) && !strings.Contains(s, other.WorkOrderNumber) {
				t.Errorf("the heading %q names none of the work orders", s)
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
	if !strings.Contains(viewtest.Texts(f.top()), "Whom to assign to the 2 ticked work orders?") {
		t.Errorf("the dialog says:\n%s", viewtest.Texts(f.top()))
	}
	f.check(format.Associate(*only)).SetChecked(true)
	f.tap("Save")

	rows, _ := f.store.UnfinishedOutbox(ctx)
	if len(rows) != 1 || rows[0].Kind != outbox.KindAssign || !slices.Equal(rows[0].WorkOrderIds, []int64{first.WorkOrderId}) {
		t.Fatalf("queued %+v; want %s's assignment alone", rows, first.WorkOrderNumber)
	}
	all := viewtest.Texts(f.top())
	if !strings.Contains(all, "Assigned to 1 of 2 work orders") || strings.Contains(all, "Error") || strings.Contains(all, ".:") || strings.Contains(all, "..") ||
		!strings.Contains(all, only.Name+" does not work for the branch of "+other.WorkOrderNumber) {
		t.Errorf("the dialog says:\n%s", all)
	}
	if len(f.Errors) > 0 {
		t.Errorf("shown as errors: %q", f.Errors)
	}
	if len(f.unticked) != 1 || !slices.Equal(f.unticked[0], []int64{first.WorkOrderId}) {
		t.Errorf("unticked %v; want %s alone", f.unticked, first.WorkOrderNumber)
	}
	if len(f.asked) != 1 || !slices.Equal(f.asked[0], both) {
		t.Errorf("controls asked for %v; want the two work orders'", f.asked)
	}
}

// A refused assignment comes back with whom it named ticked: cancelling
// gives the correction up, and saving queues the corrected one in its
// place (the context Replacing gives) and ends the correction.
func TestARefusedAssignmentComesBackTicked(t *testing.T) {
	f := newFake(t, demoReplica(t))
	ctx := context.Background()
	wo := f.pick(func(w *api.WorkOrder) bool {
		who, _ := w.Assigned()
		return w.Status == api.StatusAccepted && len(who) == 0
	})
	crew, _, _ := f.store.Associates(ctx, wo.BranchId)
	if len(crew) < 2 {
		t.Fatalf("branch %d has %d people", wo.BranchId, len(crew))
	}
	refused := []int64{crew[1].Id}

	f.correcting = true
	f.dialog.Show([]int64{wo.WorkOrderId}, refused)
	if !f.check(format.Associate(crew[1])).Checked || f.check(format.Associate(crew[0])).Checked {
		t.Fatalf("%s is not ticked, or %s is", crew[1].Name, crew[0].Name)
	}
	f.tap("Cancel")
	if f.stopped != 1 || len(f.queued()) != 0 {
		t.Fatalf("Cancel: stopped correcting %d times, queued %q; want once, nothing", f.stopped, f.queued())
	}

	f.correcting = true
	f.dialog.Show([]int64{wo.WorkOrderId}, refused)
	f.check(format.Associate(crew[0])).SetChecked(true)
	f.tap("Save")
	if want := []string{"Assign " + crew[1].Name + " and " + crew[0].Name}; !slices.Equal(f.queued(), want) {
		t.Errorf("queued %q; want %q", f.queued(), want)
	}
	if f.Replaced != 1 || !slices.Equal(f.corrected, []int64{wo.WorkOrderId}) || f.stopped != 1 {
		t.Errorf("Save: %d contexts read, corrected %v, stopped %d; want 1, the work order, still 1", f.Replaced, f.corrected, f.stopped)
	}

	// Saved unchanged: nothing is queued and the correction is given up.
	f.correcting = true
	f.dialog.Show([]int64{wo.WorkOrderId}, nil)
	f.tap("Save")
	if f.stoppedIfAny != 1 || len(f.queued()) != 1 {
		t.Errorf("Save unchanged: stopped %d, queued %q; want once, still one", f.stoppedIfAny, f.queued())
	}
}

// A replica that never read anyone's people offers everyone it knows,
// which is nobody, and says how to read them; the branch's heading says
// it is not known.
func TestNobodyListedSaysToSync(t *testing.T) {
	store := viewtest.GeneratedReplica(t, 1)
	f := newFake(t, store)
	f.dialog.Show([]int64{1_000_000}, nil)
	got := viewtest.Texts(f.top())
	for _, want := range []string{
		"Branch not known · not listed yet: everyone known",
		"The service has not listed this branch's people yet",
		"Nobody is listed for this branch yet. Sync (Ctrl+R) to read its technicians and subcontractors.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the dialog says:\n%s\nwant %q", got, want)
		}
	}
}
