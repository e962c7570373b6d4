package hub

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Ana completes step 3 of a procedure on her desktop, through one hub
// instance; Bo's desktop, on another, hears it on its stream: the event
// names Ana, says which step she completed, and Bo's replica shows the step
// done. Her edit of the internal note reaches Bo's replica the same way,
// with its history naming her, without Bo's desktop asking the service.
func TestOfficeDesktopHearsAColleaguesStepAndNote(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	_, anaCreds := o.person(a, "Ana Ruiz")
	_, boCreds := o.person(b, "Bo Chen")
	created, err := o.sb.CreateWorkOrder(sandbox.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandbox.ProcedureEditable})
	if err != nil {
		t.Fatal(err)
	}
	id := created.WorkOrderId
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	ana := openOfficeDesktop(t, a.srv.URL, filepath.Join(t.TempDir(), "ana.db"), anaCreds, nil)
	bo := openOfficeDesktop(t, b.srv.URL, filepath.Join(t.TempDir(), "bo.db"), boCreds, nil)
	// Ana's window asks the hub whom it acts for, as the app does on
	// start (office.go): her writes then carry her name.
	if _, err := ana.HubPerson(ctx); err != nil {
		t.Fatal(err)
	}
	syncDesktop(t, ana)
	syncDesktop(t, bo)
	waitStream(t, bo, storage.StreamConnected)
	boHears := heard(bo)

	wo, err := ana.Store.WorkOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p := wo.Procedures()[0]
	third := p.Sorted()[2] // "Gaskets OK", a yes/no
	ref := api.StepRef{WorkOrderId: id, ProcedureId: p.Id, StepId: third.Id}
	if _, err := ana.Store.UpdateStep(ctx, ref, api.StepUpdate{Status: api.StepDone, Value: "yes", Comment: "both doors"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	ev := waitHeard(t, boHears, id, "StepUpdatedByContractor", 10*time.Second)
	if by := storage.EventPerformer(ev); by != "Ana Ruiz" {
		t.Errorf("the event names %q; want Ana Ruiz", by)
	}
	boWO, err := bo.Store.WorkOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := "completed step 3 of " + p.Name
	if got := outbox.ColleagueDid(ev, boWO); got != want {
		t.Errorf("Bo's desktop says Ana %q; want %q", got, want)
	}
	if _, st, ok := boWO.Step(ref); !ok || st.Status != api.StepDone || st.ValueText(boWO.Currency) != "Yes" || st.Comment != "both doors" {
		t.Errorf("Bo's replica has the step as %+v; want it done, yes, with Ana's comment", st)
	}
	evs, err := bo.Store.Events(ctx, id)
	if err != nil || len(evs) == 0 || evs[len(evs)-1].PerformedBy != "Ana Ruiz" {
		t.Errorf("Bo's event log: %+v, %v", evs, err)
	}

	// The internal note: Bo's replica takes the hub's re-read of it.
	const note = "Gate code 4471; the dock closes at 16:00."
	if _, err := ana.Store.SetNote(ctx, id, note, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	ev = waitHeard(t, boHears, id, "InternalNoteEditedByContractor", 10*time.Second)
	if got := outbox.ColleagueDid(ev, boWO); got != "edited the internal note" {
		t.Errorf("Bo's desktop says Ana %q", got)
	}
	n, err := bo.Store.Note(ctx, id)
	if err != nil || n.Current.InternalNote != note || n.Current.UpdatedBy != "Ana Ruiz" || n.Read.IsZero() {
		t.Errorf("Bo's replica has the note %+v, %v; want Ana's, with who wrote it", n, err)
	}
}
