package hub

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// The customer marks a work order's procedure not applicable in their own
// system: the ProcedureMarked notification's event carries the procedures
// as GET /api/procedure answers now, which a desktop applies without
// asking (the record alone does not say AllowMarkNotApplicable). The same
// notification again, nothing having changed, streams nothing. A
// desktop's own GET /api/procedure through the hub still reaches the
// service every time: a landed check compares with what it holds now.
func TestANotificationOfAProcedureCarriesTheProcedures(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ctx := context.Background()
	wo, err := o.sb.CreateWorkOrder(sandbox.WorkOrderSpec{Status: api.StatusAccepted, Procedure: sandbox.ProcedureEditable})
	if err != nil {
		t.Fatal(err)
	}
	id := wo.WorkOrderId
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	_, creds := o.person(a, "Ana Ruiz")
	announce(t, o, a, []int64{id})
	desk := desktop(t, a, creds)
	calls := o.countCalls()
	procs, err := desk.GetProcedures(ctx, id)
	if err != nil || len(procs) == 0 {
		t.Fatalf("the work order's procedures through the hub: %v, %v", procs, err)
	}
	if _, err := desk.GetProcedures(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := calls.n.Load(); n < 2 {
		t.Errorf("two reads of the procedures through the hub made %d calls at the service, want each to reach it", n)
	}
	heard, all := eventsHeard(openStream(t, a, creds, ""))
	if err := o.sb.MarkProcedure(id, procs[0].Id, true, false); err != nil {
		t.Fatal(err)
	}
	tok := notificationToken(t, o)
	marked := notice(t, id, api.ActionProcedureMarked, api.ProcedureMarkedEvent{ProcedureId: procs[0].Id, IsMarkedNa: true})
	if status := postNotice(nil, a.srv.URL, tok, marked); status != 200 {
		t.Fatalf("the notification: HTTP %d", status)
	}
	waitFor(t, 10*time.Second, "the notification's event", func() bool { return heard() >= 1 })
	he := all()[0]
	if he.Header.Action != api.ActionProcedureMarked || he.Reread == nil || he.Reread.Procedures == nil {
		t.Fatalf("the event of ProcedureMarked: %+v, want its procedures re-read", he)
	}
	raw, err := json.Marshal(he)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := storage.RereadOf(raw)
	if err != nil || rr.Procedures == nil || len(*rr.Procedures) == 0 {
		t.Fatalf("a desktop reads the event's procedures as %+v, %v", rr, err)
	}
	if p := (*rr.Procedures)[0]; p.Id != procs[0].Id || !p.IsMarkedNa {
		t.Errorf("the event's procedure: %+v, want %d marked N/A as the service holds it", p, procs[0].Id)
	}
	// The same again: its re-read finds what the hub held.
	again := notice(t, id, api.ActionProcedureMarked, api.ProcedureMarkedEvent{ProcedureId: procs[0].Id, IsMarkedNa: true})
	if status := postNotice(nil, a.srv.URL, tok, again); status != 200 {
		t.Fatalf("the notification again: HTTP %d", status)
	}
	// Its answer comes once the re-read is recorded: an event it made is
	// on the stream by then, or just after.
	time.Sleep(200 * time.Millisecond)
	if n := heard(); n != 1 {
		t.Errorf("heard %d events, want 1: the second notification found nothing new", n)
	}
}
