package storage

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Assign N… over work orders of two branches and a closed one: each work
// order gets those of the chosen people its branch has, the rest are
// reported per work order with the rule's reason, and one work order of
// another branch no longer holds back the others.
func TestAssignWhereAllowedQueuesWhatItCanAndSaysWhatNot(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	b := pick(t, s, func(w *api.WorkOrder) bool { return status(api.StatusAccepted)(w) && w.BranchId != a.BranchId })
	closed := pick(t, s, status(api.StatusRejected))
	listA, _, _ := s.Associates(ctx, a.BranchId)
	listB, _, _ := s.Associates(ctx, b.BranchId)
	onlyIn := func(list, other []api.Associate, wo *api.WorkOrder) int64 {
		for _, x := range list {
			if on, _ := wo.AssignedTo(x.Id); !on && !slices.ContainsFunc(other, func(y api.Associate) bool { return y.Id == x.Id }) {
				return x.Id
			}
		}
		t.Skip("the sandbox world has no associate of one branch only")
		return 0
	}
	k, m := onlyIn(listA, listB, a), onlyIn(listB, listA, b)

	rows, left, err := s.AssignWhereAllowed(ctx, []int64{a.WorkOrderId, b.WorkOrderId, closed.WorkOrderId}, []int64{k, m})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64][]int64{} // work order → people queued for it
	for _, r := range rows {
		if r.Kind != outbox.KindAssign {
			t.Errorf("queued a %s", r.Kind)
		}
		for _, wo := range r.WorkOrderIds {
			var req api.AssignRequest
			if err := json.Unmarshal(r.Request, &req); err != nil {
				t.Fatal(err)
			}
			got[wo] = req.AssociateIds
		}
	}
	if !slices.Equal(got[a.WorkOrderId], []int64{k}) || !slices.Equal(got[b.WorkOrderId], []int64{m}) || got[closed.WorkOrderId] != nil {
		t.Errorf("queued %v; want %s → %d, %s → %d, nothing for %s", got, a.WorkOrderNumber, k, b.WorkOrderNumber, m, closed.WorkOrderNumber)
	}
	says := map[int64]LeftOut{}
	for _, l := range left {
		says[l.WorkOrderId] = l
	}
	if l := says[a.WorkOrderId]; !strings.Contains(l.Why, "does not work for the branch of "+a.WorkOrderNumber) || !slices.Equal(l.Assigned, []int64{k}) {
		t.Errorf("%s: %+v", a.WorkOrderNumber, l)
	}
	if l := says[closed.WorkOrderId]; l.Why == "" || len(l.Assigned) != 0 || l.Number != closed.WorkOrderNumber {
		t.Errorf("the rejected work order: %+v", l)
	}
	if len(left) != 3 {
		t.Errorf("left out %+v; want the three work orders, each once", left)
	}

	// None allowed: nothing queued, every work order said.
	before, _ := s.UnfinishedOutbox(ctx)
	rows, left, err = s.AssignWhereAllowed(ctx, []int64{closed.WorkOrderId}, []int64{k})
	after, _ := s.UnfinishedOutbox(ctx)
	if err != nil || len(rows) != 0 || len(left) != 1 || len(after) != len(before) {
		t.Errorf("none allowed: %d rows, left %+v, err %v, outbox %d → %d", len(rows), left, err, len(before), len(after))
	}
}
