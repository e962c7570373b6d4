package storage

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/outbox"
)

// renamedService is newService speaking sandbox.DialectRenamed: among
// other guesses, a work order lists its associates nowhere.
func renamedService(t testing.TB, n int) *service {
	t.Helper()
	w := &wire{}
	sb := sandboxtest.New(t, sandboxtest.Seed(7), sandboxtest.WorkOrders(n), sandboxtest.RealClock(), sandboxtest.NoMessageIdDedup(),
		sandboxtest.With(func(o *sandbox.Options) { o.Dialect = sandbox.DialectRenamed }),
		sandboxtest.Wrap(func(next http.Handler) http.Handler { w.next = next; return w }))
	return &service{sb: sb, wire: w, srv: sb.Server, client: sb.Client, tokens: sb.Tokens}
}

// Where the record does not say who is assigned (the list's place is our
// guess), the Assigned column and the board show whom this office
// assigned, once sent too, and "unknown" for the rest: never "nobody",
// not even after the office took its own people off again. A colleague's
// assignment the office hub told of counts as the office's.
func TestWhomTheOfficeAssignedShowsWhereTheRecordDoesNotSay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := renamedService(t, 160)
	s := syncedStore(t, svc)
	wo := pick(t, s, func(w *api.WorkOrder) bool {
		return w.Status == api.StatusAccepted && w.Schedule != nil && w.BranchId == 492042
	})
	if _, known := wo.Assigned(); known {
		t.Fatalf("the renamed dialect's record says who is assigned: %+v", wo.Associates)
	}
	shown := func(when string) Assignees {
		t.Helper()
		got, err := s.AssigneesOf(ctx, []int64{wo.WorkOrderId})
		if err != nil {
			t.Fatal(err)
		}
		a := got[wo.WorkOrderId]
		if !a.Partial {
			t.Errorf("%s: %+v; want Partial: the record does not say", when, a)
		}
		return a
	}
	onBoard := func(when string) Visit {
		t.Helper()
		return visitIn(t, weekOf(t, s, wo.ScheduledStart()).Visits, wo.WorkOrderId)
	}
	if a := shown("before anything"); a.Known || len(a.Who) != 0 {
		t.Errorf("before anything: %+v; want unknown", a)
	}
	if v := onBoard("before anything"); v.AssignedKnown {
		t.Errorf("the board says %+v is known before anything", v.Assigned)
	}

	// The renamed dialect lists the branch's associates under another key
	// too: their names as an earlier read (or the hub) gave them.
	kenji := api.Associate{Id: 7101, Name: "Kenji Sato", Type: api.AssociateCruMember}
	miguel := api.Associate{Id: 7102, Name: "Miguel Alvarez", Type: api.AssociateCruMember}
	if err := s.PutAssociates(ctx, wo.BranchId, []api.Associate{kenji, miguel}); err != nil {
		t.Fatal(err)
	}
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	mustRow(t)(s.Assign(ctx, []int64{wo.WorkOrderId}, []int64{kenji.Id}))
	if a := shown("queued"); !a.Known || !a.Queued || len(a.Who) != 1 || a.Who[0].Id != kenji.Id {
		t.Errorf("queued: %+v; want %s, queued", a, kenji.Name)
	}
	if v := onBoard("queued"); !v.AssignedPartial || len(v.Assigned) != 1 || v.Assigned[0].Id != kenji.Id {
		t.Errorf("queued, the board shows %+v (partial %v); want %s, marked partly known", v.Assigned, v.AssignedPartial, kenji.Name)
	}
	sendAll(t, x)
	if a := shown("sent"); !a.Known || a.Queued || len(a.Who) != 1 || a.Who[0].Name != kenji.Name {
		t.Errorf("sent: %+v; want %s, as this office assigned", a, kenji.Name)
	}
	if v := onBoard("sent"); !v.AssignedKnown || !v.AssignedPartial || len(v.Assigned) != 1 || v.Assigned[0].Id != kenji.Id {
		t.Errorf("the board shows %+v (known %v, partial %v); want %s, partly known", v.Assigned, v.AssignedKnown, v.AssignedPartial, kenji.Name)
	}

	// A colleague adds Miguel through the office hub.
	ev, err := api.ParseEvent(fmt.Appendf(nil, `{"Header":{"WorkOrderId":%d,"Action":%q,"ActionDate":%q,"MessageId":"hub-1"},"PerformedBy":{"Name":"Ana Ruiz"},"Detail":{"AssociateIds":[%d]}}`,
		wo.WorkOrderId, outbox.KindAssign.Colleague().Event, svc.sb.Now().Add(-time.Millisecond).UTC().Format(time.RFC3339Nano), miguel.Id))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.HandleEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	ids := func(who []api.Associate) []int64 {
		var out []int64
		for _, a := range who {
			out = append(out, a.Id)
		}
		slices.Sort(out)
		return out
	}
	if a := shown("a colleague's"); !slices.Equal(ids(a.Who), ids([]api.Associate{kenji, miguel})) {
		t.Errorf("after a colleague assigned %s: %+v; want both", miguel.Name, a)
	}

	// The office takes both off again: who is on it is unknown, not nobody.
	mustRow(t)(s.Unassign(ctx, []int64{wo.WorkOrderId}, []int64{kenji.Id, miguel.Id}))
	if a := shown("unassignment queued"); a.Known || len(a.Who) != 0 {
		t.Errorf("an unassignment queued: %+v; want unknown, never nobody", a)
	}
	sendAll(t, x)
	if a := shown("unassigned"); a.Known || len(a.Who) != 0 {
		t.Errorf("unassigned: %+v; want unknown, never nobody", a)
	}
	if v := onBoard("unassigned"); v.AssignedKnown {
		t.Errorf("the board says %+v is known after the office took its people off", v.Assigned)
	}
}
