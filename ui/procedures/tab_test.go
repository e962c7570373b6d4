package procedures

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// TestChoosingAStepShowsItsEditor: until a step is chosen the tab asks
// for one; a step chosen in the tree shows its procedure and number, its
// description, its value's unit and type, and its files, listed from the
// service; Save waits for something entered.
func TestChoosingAStepShowsItsEditor(t *testing.T) {
	f := newFake(t, refrigeration())
	if !f.shows("Choose a step above to see its description and files.") {
		t.Fatalf("before a step is chosen the tab says:\n%s", f.says())
	}
	f.choose(f.ref(10, 101))
	for _, want := range []string{
		"Refrigeration service checklist › 1. Temperature before (°F) — Not started",
		"Read at the evaporator before defrosting.", "°F", "number", "evaporator.jpg",
	} {
		if !f.shows(want) {
			t.Errorf("the chosen step does not show %q:\n%s", want, f.says())
		}
	}
	if f.shows("Choose a step above to see its description and files.") {
		t.Error("the tab still asks for a step once one is chosen")
	}
	if !f.tab.editor.save.Disabled() {
		t.Error("Save is enabled before anything was entered")
	}
}

// TestTheTreeMarksARequiredStepAndCountsWhatIsDone: every procedure row
// says how far it is, every step row its number, name and status, a
// required one marked so.
func TestTheTreeMarksARequiredStepAndCountsWhatIsDone(t *testing.T) {
	f := newFake(t, refrigeration())
	for _, c := range []struct{ node, want string }{
		{procNode(10), "Refrigeration service checklist — 0 of 4 steps done"},
		{stepNode(10, 101), "1. Temperature before (°F) — Not started"},
		{stepNode(10, 102), "2. Condenser coil cleaned — Open (required)"},
		{stepNode(20, 201), "1. Lockout tagged — Not started (required)"},
	} {
		if got := f.tab.nodeText(c.node); got != c.want {
			t.Errorf("the tree's row %s reads %q; want %q", c.node, got, c.want)
		}
	}
}

// TestSavingAStepQueuesIt: Done, a temperature and a comment, Save: the
// step is queued as entered (able to replace a refused one), the window
// says so, the tree shows the value, and the editor says it waits to be
// sent until the service has it.
func TestSavingAStepQueuesIt(t *testing.T) {
	f := newFake(t, refrigeration())
	ref := f.ref(10, 101)
	f.choose(ref)
	e := f.tab.editor
	e.status.SetSelected("Done")
	test.Type(e.value, "38.5")
	test.Type(e.comment, "before defrost")
	if e.save.Disabled() {
		t.Fatalf("Save is disabled with a number entered:\n%s", f.says())
	}
	test.Tap(e.save)
	want := []api.StepRequest{{WorkOrderId: 7, ProcedureId: 10, StepId: 101, Status: api.StepDone, Value: "38.5", Comment: "before defrost"}}
	if !slices.Equal(f.updates, want) || f.Replaced != 1 || len(f.Errors) != 0 {
		t.Fatalf("Save queued %+v (%d correction contexts, errors %q); want %+v", f.updates, f.Replaced, f.Errors, want)
	}
	if !slices.Equal(f.Said, []string{"Step 1 of Refrigeration service checklist: Done"}) || !slices.Equal(f.reloads, []int64{7}) {
		t.Errorf("the window was told %q and reloaded %v", f.Said, f.reloads)
	}
	if got := f.tab.nodeText(stepNode(10, 101)); !strings.Contains(got, "Done: 38.5 °F") {
		t.Errorf("while queued the tree says %q", got)
	}
	if !f.shows("Saved: waiting to be sent.") || !e.save.Disabled() {
		t.Errorf("while queued (Save disabled %v) the editor says:\n%s", e.save.Disabled(), f.says())
	}
	f.send()
	if f.shows("Saved: waiting to be sent.") {
		t.Errorf("once sent the editor still says it waits:\n%s", f.says())
	}
}

// TestAStepTakesOnlyAValueOfItsType: a value its type cannot read is said
// under the field and never queued, Enter included; a yes/no step is a
// choice and queued as yes or no; an amount is in the work order's
// currency.
func TestAStepTakesOnlyAValueOfItsType(t *testing.T) {
	f := newFake(t, refrigeration())
	f.choose(f.ref(10, 101))
	e := f.tab.editor
	e.status.SetSelected("Done")
	test.Type(e.value, "cold")
	if !strings.Contains(f.says(), "takes a number") || !e.save.Disabled() {
		t.Errorf("a temperature of %q: Save disabled %v; the tab says:\n%s", "cold", e.save.Disabled(), f.says())
	}
	e.value.OnSubmitted(e.value.Text)
	if len(f.updates) != 0 {
		t.Fatalf("a temperature of %q was queued: %+v", "cold", f.updates)
	}

	f.choose(f.ref(10, 103))
	if !f.shows("yes or no") || len(e.valueAt.Objects) != 1 || e.valueAt.Objects[0] != e.yesNo {
		t.Fatalf("a yes/no step offers %v:\n%s", e.valueAt.Objects, f.says())
	}
	e.status.SetSelected("Done")
	e.yesNo.SetSelected("No")
	test.Tap(e.save)
	if len(f.updates) != 1 || f.updates[0].Value != api.StepNo {
		t.Fatalf("the yes/no step was queued as %+v", f.updates)
	}

	f.choose(f.ref(10, 104))
	if !f.shows("amount in USD") || e.unit.Text != "USD" || e.value.PlaceHolder != "0.00" {
		t.Errorf("an amount's field says %q, unit %q, placeholder %q", f.says(), e.unit.Text, e.value.PlaceHolder)
	}
}

// TestNAOnlyWhereTheCustomerAllowsIt: a procedure is offered Mark N/A…
// unless the customer said it may not be (the tab then says so); the
// person is asked first, and only then is it queued.
func TestNAOnlyWhereTheCustomerAllowsIt(t *testing.T) {
	f := newFake(t, refrigeration())
	f.chooseProcedure(20)
	if f.shows("Mark N/A…") || !strings.Contains(f.says(), "the customer does not allow marking it N/A") {
		t.Errorf("a procedure the customer may not have marked N/A:\n%s", f.says())
	}

	f.chooseProcedure(10)
	na := buttonIn(t, f.tab.Content(), "Mark N/A…")
	if na.Disabled() || strings.Contains(f.says(), "does not allow") {
		t.Fatalf("a procedure that may be marked N/A: Mark N/A… disabled %v:\n%s", na.Disabled(), f.says())
	}
	test.Tap(na)
	if f.overlay() == nil || len(f.marked) != 0 {
		t.Fatalf("Mark N/A… queued %v without asking", f.marked)
	}
	test.Tap(buttonIn(t, f.overlay(), "Cancel"))
	if len(f.marked) != 0 {
		t.Fatalf("Cancel queued %v", f.marked)
	}
	test.Tap(na)
	test.Tap(buttonIn(t, f.overlay(), "Mark N/A"))
	if !slices.Equal(f.marked, []int64{10}) || !slices.Equal(f.Said, []string{"Refrigeration service checklist marked N/A"}) {
		t.Fatalf("confirmed, the tab queued %v and said %q", f.marked, f.Said)
	}
	if f.shows("Mark N/A…") || !strings.HasPrefix(f.tab.nodeText(procNode(10)), "Refrigeration service checklist — Marked N/A") {
		t.Errorf("while queued the procedure reads %q:\n%s", f.tab.nodeText(procNode(10)), f.says())
	}
}

// TestAProcedureMarkedNAIsMadeApplicableAgain: on a procedure marked N/A
// its steps cannot be completed, and both the procedure and each of its
// steps offer Mark as applicable again, queued without a question; once
// queued the step can be completed again.
func TestAProcedureMarkedNAIsMadeApplicableAgain(t *testing.T) {
	wo := refrigeration()
	wo.WorkDetails.Procedures[0].IsMarkedNa = true
	f := newFake(t, wo)
	f.chooseProcedure(10)
	buttonIn(t, f.tab.Content(), "Mark as applicable again")

	f.choose(f.ref(10, 101))
	e := f.tab.editor
	if !e.status.Disabled() || !strings.Contains(f.says(), "is marked N/A") {
		t.Fatalf("a step of the N/A procedure: editor disabled %v:\n%s", e.status.Disabled(), f.says())
	}
	again := buttonIn(t, f.tab.Content(), "Mark as applicable again")
	if again.Disabled() {
		t.Fatal("Mark as applicable again is disabled on the step")
	}
	test.Tap(again)
	if f.overlay() != nil || !slices.Equal(f.cleared, []int64{10}) {
		t.Fatalf("Mark as applicable again asked first (%v) or queued %v", f.overlay() != nil, f.cleared)
	}
	if e.status.Disabled() || f.shows("Mark as applicable again") {
		t.Errorf("while the clearing is queued, the editor is disabled %v:\n%s", e.status.Disabled(), f.says())
	}
}

// TestARefusedStepIsPutBackInItsEditor: a refused step's status, value and
// comment go back into its editor as the person's unsaved edit, to correct
// and save again; the tab tells an edit of the person's not yet saved.
func TestARefusedStepIsPutBackInItsEditor(t *testing.T) {
	f := newFake(t, refrigeration())
	ref := f.ref(10, 101)
	if !f.tab.HasStep(ref) || f.tab.HasStep(f.ref(10, 999)) {
		t.Fatal("HasStep does not know the work order's steps")
	}
	f.tab.ChooseStep(ref)
	e := f.tab.editor
	if f.tab.HoldsOther() {
		t.Fatal("the editor holds an edit before anything was typed")
	}
	test.Type(e.comment, "x")
	if !f.tab.HoldsOther() {
		t.Fatal("the editor does not tell what the person typed")
	}
	f.tab.EditDraft(api.StepRequest{WorkOrderId: 7, ProcedureId: 10, StepId: 101, Status: api.StepDone, Value: "120", Comment: "as refused"})
	if e.status.Selected != "Done" || e.value.Text != "120" || e.comment.Text != "as refused" || e.save.Disabled() {
		t.Fatalf("the refused step is back as %q %q %q (Save disabled %v)", e.status.Selected, e.value.Text, e.comment.Text, e.save.Disabled())
	}
	e.value.SetText("38")
	test.Tap(e.save)
	if len(f.updates) != 1 || f.updates[0].Value != "38" || f.updates[0].Comment != "as refused" {
		t.Errorf("the correction was queued as %+v", f.updates)
	}
}

// TestAWorkOrderWithoutProceduresSaysSo: one line says there are none,
// with no tree and no step to choose; a work order with procedures shows
// them again.
func TestAWorkOrderWithoutProceduresSaysSo(t *testing.T) {
	f := newFake(t, &api.WorkOrder{WorkOrderId: 8, Status: api.StatusCheckedIn})
	if says := f.says(); says != "This work order has no procedures." {
		t.Errorf("the tab shows:\n%s", says)
	}
	f.wo = refrigeration()
	f.show()
	if f.shows("This work order has no procedures.") || !f.tab.split.Visible() {
		t.Errorf("with procedures the tab shows:\n%s", f.says())
	}
}

// TestALongDescriptionPushesTheFilesDown: on a pane as narrow as the
// detail's, a step's long description wraps whole above its editor and
// files, not under the Add file… button.
func TestALongDescriptionPushesTheFilesDown(t *testing.T) {
	wo := refrigeration()
	long := "Record supply and return air temperatures at the unit and at the farthest diffuser, with the outside temperature and the time of each reading."
	wo.WorkDetails.Procedures[0].Steps[1].Description = long
	f := newFake(t, wo)
	f.choose(f.ref(10, 101))
	f.choose(f.ref(10, 102))
	var info *widget.Label
	viewtest.Walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Text == long {
			info = l
		}
	})
	if info == nil {
		t.Fatalf("the step's description is not shown:\n%s", f.says())
	}
	at, _ := positionIn(f.tab.Content(), info)
	add, _ := positionIn(f.tab.Content(), f.tab.files.Add)
	if bottom := at.Y + info.Size().Height; bottom > add.Y+0.5 || info.Size().Height+0.5 < info.MinSize().Height {
		t.Errorf("the description (y %.0f–%.0f, needs %.0f px) runs under the Add file… button at y %.0f", at.Y, bottom, info.MinSize().Height, add.Y)
	}
}

// positionIn is where target is inside root, if it is shown there.
func positionIn(root, target fyne.CanvasObject) (fyne.Position, bool) {
	if root == target {
		return fyne.Position{}, true
	}
	if !root.Visible() {
		return fyne.Position{}, false
	}
	var kids []fyne.CanvasObject
	switch c := root.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(c).Objects()
	}
	for _, k := range kids {
		if p, ok := positionIn(k, target); ok {
			return k.Position().Add(p), true
		}
	}
	return fyne.Position{}, false
}
