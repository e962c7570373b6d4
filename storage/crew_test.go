package storage

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// The sync keeps each branch's associates and who each work order is
// assigned to, as the service says; the list filters by a technician and
// by nobody, and a record that does not say who is assigned is unknown:
// neither assigned nor unassigned.
func TestSyncKeepsBranchesAndWhoIsAssigned(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wos, err := svc.client.GetWorkOrders(ctx, allIDs(t, s))
	if err != nil {
		t.Fatal(err)
	}
	branches := map[int64]bool{}
	byAssociate := map[int64][]int64{}
	var nobody, ids []int64
	for _, wo := range wos {
		branches[wo.BranchId] = true
		ids = append(ids, wo.WorkOrderId)
		who, _ := wo.Assigned()
		if len(who) == 0 {
			nobody = append(nobody, wo.WorkOrderId)
		}
		for _, a := range who {
			byAssociate[a.Id] = append(byAssociate[a.Id], wo.WorkOrderId)
		}
	}
	for b := range branches {
		want, err := svc.client.GetAssociates(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		got, known, err := s.Associates(ctx, b)
		if err != nil || !known || !slices.Equal(got, want) {
			t.Errorf("branch %d: the replica lists %v (known %v, %v); the service %v", b, got, known, err, want)
		}
	}
	who, err := s.AssigneesOf(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, wo := range wos {
		want, _ := wo.Assigned()
		got := who[wo.WorkOrderId]
		if !got.Known || len(got.Who) != len(want) || got.Queued {
			t.Errorf("%s: the replica says %+v; the service %v", wo.WorkOrderNumber, got, want)
		}
	}
	listed := func(q ListQuery) []int64 {
		t.Helper()
		rows, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, r := range rows {
			out = append(out, r.Id)
		}
		slices.Sort(out)
		return out
	}
	for id, want := range byAssociate {
		slices.Sort(want)
		if got := listed(ListQuery{Assignee: id}); !slices.Equal(got, want) {
			t.Errorf("filtered by associate %d: %v; want %v", id, got, want)
		}
	}
	slices.Sort(nobody)
	if got := listed(ListQuery{Assignee: NoAssignee}); !slices.Equal(got, nobody) || len(got) == 0 {
		t.Errorf("filtered by nobody: %v; want %v", got, nobody)
	}

	// A record that does not say (another service's dialect): unknown.
	wo := wos[0]
	wo.Associates = nil
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{wo}); err != nil {
		t.Fatal(err)
	}
	if got := listed(ListQuery{Assignee: NoAssignee}); slices.Contains(got, wo.WorkOrderId) {
		t.Errorf("a record that does not say who is assigned is listed as assigned to nobody")
	}
	if got, _ := s.AssigneesOf(ctx, []int64{wo.WorkOrderId}); got[wo.WorkOrderId].Known {
		t.Errorf("a record that does not say who is assigned reads as known: %+v", got[wo.WorkOrderId])
	}
}

func allIDs(t *testing.T, s *Store) []int64 {
	t.Helper()
	rows, err := s.List(context.Background(), ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.Id
	}
	return ids
}

// The rules are asked before anything is queued: an associate of another
// branch, or a closed work order, is refused in plain words and nothing is
// queued; a branch whose list was never read refuses nobody (the service
// judges). Offline, the queued assignment shows at once.
func TestAssignIsCheckedThenShownQueued(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	other := pick(t, s, func(w *api.WorkOrder) bool { return w.BranchId != wo.BranchId })
	stranger := technicianOff(t, s, other)
	_, err := s.Assign(ctx, []int64{wo.WorkOrderId}, []int64{stranger})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "does not work for the branch of "+wo.WorkOrderNumber) {
		t.Errorf("an associate of another branch: %v", err)
	}
	closed := pick(t, s, status(api.StatusRejected))
	if _, err := s.Assign(ctx, []int64{closed.WorkOrderId}, []int64{technicianOff(t, s, closed)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a rejected work order: %v", err)
	}
	if rows, _ := s.UnfinishedOutbox(ctx); len(rows) != 0 {
		t.Fatalf("refused assignments were queued: %+v", rows)
	}

	// Queued and not sent (offline): the work order shows them assigned.
	who := technicianOff(t, s, wo)
	row := mustRow(t)(s.Assign(ctx, []int64{wo.WorkOrderId}, []int64{who}))
	if row.Group != outbox.GroupCrew || row.Summary == "" || !strings.HasPrefix(row.Summary, "Assign ") {
		t.Errorf("the row: group %s, summary %q", row.Group, row.Summary)
	}
	got, _ := s.AssigneesOf(ctx, []int64{wo.WorkOrderId})
	if a := got[wo.WorkOrderId]; !a.Queued || !slices.ContainsFunc(a.Who, func(x api.Associate) bool { return x.Id == who && x.Name != "" }) {
		t.Errorf("while queued the list shows %+v; want the technician, by name, queued", a)
	}
	p, err := s.Pending(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if on, _ := p.Expected.AssignedTo(who); !on || p.StatusQueued() {
		t.Errorf("the detail's expected work order: assigned %v, status queued %v", on, p.StatusQueued())
	}

	// A branch never read: the service judges.
	if _, err := s.w.ExecContext(ctx, `UPDATE associate_branches SET fetched_at = NULL WHERE branch_id = ?`, other.BranchId); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Assign(ctx, []int64{other.WorkOrderId}, []int64{technicianOff(t, s, wo, other)}); err != nil {
		t.Errorf("a branch whose list was never read: %v; want it queued for the service to judge", err)
	}
}

// A planned visit is an assignment, then an appointment that keeps the
// access type, queued together in that order; someone already assigned is
// not assigned again; a visit moved to another technician takes the first
// off. The board shows the plan at once, and the service gets it.
func TestPlanVisitQueuesTheAssignmentThenTheAppointment(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	wo := pick(t, s, func(w *api.WorkOrder) bool {
		return status(api.StatusAccepted)(w) && w.Schedule != nil && w.Schedule.Pte != ""
	})
	kenji := technicianOff(t, s, wo)
	start := svc.sb.Clock().Now().Add(26 * time.Hour).Truncate(time.Hour)

	rows, err := s.PlanVisit(ctx, wo.WorkOrderId, kenji, 0, start)
	if err != nil {
		t.Fatal(err)
	}
	if kinds := rowKinds(rows); !slices.Equal(kinds, []outbox.Kind{outbox.KindAssign, outbox.KindAppointment}) {
		t.Fatalf("queued %v; want an assignment, then an appointment", kinds)
	}
	if rows[0].Id > rows[1].Id {
		t.Error("the appointment would go out before the assignment")
	}
	if !strings.Contains(string(rows[1].Request), `"Pte":"`+wo.Schedule.Pte+`"`) {
		t.Errorf("the appointment %s drops the access type %q", rows[1].Request, wo.Schedule.Pte)
	}
	week := weekOf(t, s, start)
	v := visitIn(t, week.Visits, wo.WorkOrderId)
	if !v.Start.Equal(start) || !v.Queued || !slices.ContainsFunc(v.Assigned, func(a api.Associate) bool { return a.Id == kenji }) {
		t.Errorf("the board shows %+v; want it at %v with the technician, queued", v, start)
	}
	sendAll(t, x)
	remote := svc.remote(t, wo.WorkOrderId)
	if on, _ := remote.AssignedTo(kenji); !on || !remote.ScheduledStart().Equal(start) || remote.Schedule.Pte != wo.Schedule.Pte {
		t.Errorf("the service: assigned %v, start %v, access %q", on, remote.ScheduledStart(), remote.Schedule.Pte)
	}

	// Again, an hour later: only the appointment.
	rows, err = s.PlanVisit(ctx, wo.WorkOrderId, kenji, kenji, start.Add(time.Hour))
	if err != nil || !slices.Equal(rowKinds(rows), []outbox.Kind{outbox.KindAppointment}) {
		t.Errorf("moving the visit within the technician's row queued %v, %v; want the appointment alone", rowKinds(rows), err)
	}
	sendAll(t, x)
	// To another technician: Kenji off, the other on, the appointment.
	other := technicianOff(t, s, local(t, s, wo.WorkOrderId))
	rows, err = s.PlanVisit(ctx, wo.WorkOrderId, other, kenji, start.Add(2*time.Hour))
	if err != nil || !slices.Equal(rowKinds(rows), []outbox.Kind{outbox.KindUnassign, outbox.KindAssign, outbox.KindAppointment}) {
		t.Fatalf("moving the visit to another technician queued %v, %v", rowKinds(rows), err)
	}
	sendAll(t, x)
	remote = svc.remote(t, wo.WorkOrderId)
	if on, _ := remote.AssignedTo(kenji); on {
		t.Error("the first technician is still assigned after the move")
	}
	if on, _ := remote.AssignedTo(other); !on || !remote.ScheduledStart().Equal(start.Add(2*time.Hour)) {
		t.Errorf("after the move the service has assigned %v at %v", on, remote.ScheduledStart())
	}

	// A status that allows no appointment queues nothing at all.
	done := pick(t, s, status(api.StatusCheckedOut))
	if _, err := s.PlanVisit(ctx, done.WorkOrderId, technicianOff(t, s, done), 0, start); !errors.Is(err, ErrInvalid) {
		t.Errorf("planning a checked-out work order: %v", err)
	}
	if rows, _ := s.UnfinishedOutbox(ctx); len(rows) != 0 {
		t.Errorf("left queued: %+v", rows)
	}
}

// The service refuses the assignment (the replica's list was out of date):
// the appointment queued after it is held, not sent; the board shows the
// visit held by the refusal; discarding the assignment lets it go.
func TestRefusedAssignmentHoldsTheAppointment(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	wo := pick(t, s, status(api.StatusAccepted))
	list, _, _ := s.Associates(ctx, wo.BranchId)
	gone := api.Associate{Id: 99001, Name: "Former Employee", Type: api.AssociateCruMember}
	if err := s.PutAssociates(ctx, wo.BranchId, append(list, gone)); err != nil {
		t.Fatal(err)
	}
	before := svc.remote(t, wo.WorkOrderId).ScheduledStart()
	start := svc.sb.Clock().Now().Add(30 * time.Hour).Truncate(time.Hour)
	rows, err := s.PlanVisit(ctx, wo.WorkOrderId, gone.Id, 0, start)
	if err != nil {
		t.Fatal(err)
	}
	assign, appointment := rows[0], rows[1]
	sendAll(t, x)
	if r := rowState(t, s, assign.Id); r.State != OutboxFailed {
		t.Fatalf("the assignment is %s; want refused", r.State)
	}
	if r := rowState(t, s, appointment.Id); r.State != OutboxPending {
		t.Fatalf("the appointment is %s; want held, pending", r.State)
	}
	if n := len(svc.wire.calls(http.MethodPut, "/api/workOrder/appointmentInfo")); n != 0 {
		t.Errorf("the held appointment reached the service %d times", n)
	}
	if got := svc.remote(t, wo.WorkOrderId).ScheduledStart(); !got.Equal(before) {
		t.Errorf("the service's start moved to %v", got)
	}
	held, err := s.HeldBehind(ctx, assign.Id)
	if err != nil || len(held) != 1 || held[0].Id != appointment.Id {
		t.Errorf("held behind the refusal: %+v, %v; want the appointment", held, err)
	}
	if v := visitIn(t, weekOf(t, s, start).Visits, wo.WorkOrderId); v.HeldBy != assign.Id {
		t.Errorf("the board's visit is held by %d; want the refused assignment %d", v.HeldBy, assign.Id)
	}
	if err := s.Discard(ctx, assign.Id); err != nil {
		t.Fatal(err)
	}
	sendAll(t, x)
	if got := svc.remote(t, wo.WorkOrderId).ScheduledStart(); !got.Equal(start) {
		t.Errorf("after the assignment was discarded the service's start is %v; want %v", got, start)
	}
}

// An assignment whose answer was lost after the service applied it is
// found there and not sent again.
func TestLostAssignmentAnswerIsReconciled(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	who := technicianOff(t, s, wo)
	row := mustRow(t)(s.Assign(ctx, []int64{wo.WorkOrderId}, []int64{who}))
	var first atomic.Bool
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/bulk/assign" && first.CompareAndSwap(false, true) {
			return dropAfter
		}
		return pass
	})
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("the row is %s %q; want done", r.State, r.Error)
	}
	if n := len(svc.wire.calls(http.MethodPut, "/api/bulk/assign")); n != 1 {
		t.Errorf("sent %d times; want once: the landed check should have found it", n)
	}
}

// The week: the replica's visits with who goes, and the work waiting for a
// visit by on-site-by deadline, soonest first.
func TestWeekReadsVisitsAndWaitingWork(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	now := svc.sb.Clock().Now()
	wk := weekOf(t, s, now)
	if len(wk.Visits) == 0 || len(wk.Waiting) == 0 || len(wk.Crew) == 0 {
		t.Fatalf("the week has %d visits, %d waiting, %d people", len(wk.Visits), len(wk.Waiting), len(wk.Crew))
	}
	withTech := 0
	for i, v := range wk.Visits {
		if v.Start.Before(wk.From) || !v.Start.Before(wk.To) || i > 0 && v.Start.Before(wk.Visits[i-1].Start) {
			t.Errorf("visit %s at %v in the week %v–%v, out of order or outside", v.Number, v.Start, wk.From, wk.To)
		}
		if len(v.Assigned) > 0 {
			withTech++
		}
		if v.BranchId == 0 || v.Customer == "" {
			t.Errorf("visit %+v lacks its branch or customer", v)
		}
	}
	if withTech == 0 {
		t.Error("no visit of the week has a technician")
	}
	for i, v := range wk.Waiting {
		if !v.Start.IsZero() || !slices.Contains(api.VisitAhead, v.Status) {
			t.Errorf("waiting: %s is %s, start %v", v.Number, v.Status, v.Start)
		}
		if i > 0 && !v.OnSiteBy.IsZero() && (wk.Waiting[i-1].OnSiteBy.IsZero() || v.OnSiteBy.Before(wk.Waiting[i-1].OnSiteBy)) {
			t.Errorf("waiting is not by on-site-by: %v after %v", v.OnSiteBy, wk.Waiting[i-1].OnSiteBy)
		}
	}
}

func rowKinds(rows []*OutboxRow) []outbox.Kind {
	var out []outbox.Kind
	for _, r := range rows {
		out = append(out, r.Kind)
	}
	return out
}

// weekOf is the board's week around at: from the day before, seven days.
func weekOf(t *testing.T, s *Store, at time.Time) *Week {
	t.Helper()
	from := at.Truncate(24*time.Hour).AddDate(0, 0, -1)
	wk, err := s.Week(context.Background(), from, from.AddDate(0, 0, 7))
	if err != nil {
		t.Fatal(err)
	}
	return wk
}

func visitIn(t *testing.T, vs []Visit, id int64) Visit {
	t.Helper()
	for _, v := range vs {
		if v.WorkOrderId == id {
			return v
		}
	}
	t.Fatalf("work order %d is not among the week's visits", id)
	return Visit{}
}

func local(t *testing.T, s *Store, id int64) *api.WorkOrder {
	t.Helper()
	wo, err := s.WorkOrder(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return wo
}
