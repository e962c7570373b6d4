package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Who goes: assigning technicians and subcontractors to work orders, and
// taking them off (PUT /api/bulk/assign, /api/bulk/unassign). One row may
// name several work orders and several associates; the service takes each
// work order on its own and answers per work order, so a row is done for
// the work orders it took and refused for the others, as a bulk
// acceptance is.

// GroupCrew: the actions about who goes to a work order.
const GroupCrew OutboxGroup = "crew"

const (
	KindAssign   OutboxKind = "assign"
	KindUnassign OutboxKind = "unassign"
)

// FormCrew is where a refused assignment is corrected: who is assigned.
const FormCrew Form = "crew"

// What a colleague's assignments are called: "Ana Ruiz assigned Kenji Sato
// to this".
var (
	assignedTo     = Colleague{Event: "AssociatesAssigned", Verb: "assigned", Of: "to", Whom: "AssociateIds"}
	unassignedFrom = Colleague{Event: "AssociatesUnassigned", Verb: "unassigned", Of: "from", Whom: "AssociateIds"}
)

var _ = register(GroupCrew, map[OutboxKind]*action{
	KindAssign: {
		rule:      api.Assign,
		noun:      "Assignment",
		route:     Route{http.MethodPut, "/api/bulk/assign"},
		colleague: assignedTo,
		conflicts: []OutboxKind{KindReject},
		fix:       &fix{form: FormCrew, again: "assign", draft: draftCrew},
		effect:    crewEffect(KindAssign),
		send:      sendCrew((*api.Client).BulkAssign),
		landed:    crewLanded(KindAssign),
	},
	KindUnassign: {
		rule:      api.Unassign,
		noun:      "Unassignment",
		route:     Route{http.MethodPut, "/api/bulk/unassign"},
		colleague: unassignedFrom,
		conflicts: []OutboxKind{KindReject},
		fix:       &fix{form: FormCrew, again: "unassign", draft: draftCrew},
		effect:    crewEffect(KindUnassign),
		send:      sendCrew((*api.Client).BulkUnassign),
		landed:    crewLanded(KindUnassign),
	},
})

func draftCrew(raw json.RawMessage, _ string) (*Draft, error) {
	var q api.AssignRequest
	err := json.Unmarshal(raw, &q)
	return &Draft{Associates: q.AssociateIds}, err
}

// crewEffect shows the work order with the queued change of who goes.
func crewEffect(kind OutboxKind) func(context.Context, *Store, *api.WorkOrder, *OutboxRow) {
	return func(ctx context.Context, s *Store, wo *api.WorkOrder, row *OutboxRow) {
		var req api.AssignRequest
		if json.Unmarshal(row.Request, &req) != nil {
			return
		}
		who, _ := wo.Assigned()
		wo.SetAssigned(assignApplied(who, kind, req.AssociateIds, s.associatesByID(ctx)))
	}
}

func sendCrew(call func(*api.Client, context.Context, *api.AssignRequest) ([]api.BulkResult, error)) func(context.Context, *sendCtx) (any, error) {
	return func(ctx context.Context, sc *sendCtx) (any, error) {
		var r api.AssignRequest
		if err := sc.decode(&r); err != nil {
			return nil, err
		}
		r.MessageId = sc.row.MessageId
		return call(sc.c, ctx, &r)
	}
}

// crewLanded: an assignment whose answer was lost took effect when every
// work order lists every associate (an unassignment: none of them); each
// one's outcome is then a success. A work order that does not say who is
// assigned cannot tell: the row is sent again, which the service documents
// as a no-op for someone already assigned.
func crewLanded(kind OutboxKind) func(context.Context, *sendCtx) (bool, any, error) {
	return func(ctx context.Context, sc *sendCtx) (bool, any, error) {
		var req api.AssignRequest
		if err := sc.decode(&req); err != nil {
			return false, nil, err
		}
		wos, err := sc.c.GetWorkOrders(ctx, sc.row.WorkOrderIds)
		if err != nil {
			return false, nil, err
		}
		if len(wos) != len(sc.row.WorkOrderIds) {
			return false, nil, nil
		}
		out := make([]api.BulkResult, 0, len(wos))
		for _, wo := range wos {
			for _, id := range req.AssociateIds {
				on, known := wo.AssignedTo(id)
				if !known || on != (kind == KindAssign) {
					return false, nil, nil
				}
			}
			out = append(out, api.BulkResult{WorkOrderId: wo.WorkOrderId})
		}
		return true, out, nil
	}
}

// Assign queues assigning the associates to each of the work orders, in
// one call. Each work order's status and branch are checked first (the
// branch's list as the last sync read it; unread, the service judges);
// nothing is queued while one is refused.
func (s *Store) Assign(ctx context.Context, woIDs, associateIDs []int64) (*OutboxRow, error) {
	return s.crew(ctx, KindAssign, woIDs, associateIDs)
}

// Unassign queues taking the associates off each of the work orders.
func (s *Store) Unassign(ctx context.Context, woIDs, associateIDs []int64) (*OutboxRow, error) {
	return s.crew(ctx, KindUnassign, woIDs, associateIDs)
}

func (s *Store) crew(ctx context.Context, kind OutboxKind, woIDs, associateIDs []int64) (*OutboxRow, error) {
	n, err := s.crewRow(ctx, kind, woIDs, associateIDs)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, n)
}

// crewRow checks an assignment or unassignment and builds its row.
func (s *Store) crewRow(ctx context.Context, kind OutboxKind, woIDs, associateIDs []int64) (newRow, error) {
	targets, who := unique(woIDs), unique(associateIDs)
	if len(targets) == 0 {
		return newRow{}, invalid("no work orders selected")
	}
	if err := api.CheckBulk(len(targets)); err != nil {
		return newRow{}, refused(err)
	}
	byID := s.associatesByID(ctx)
	var problems []string
	for _, woID := range targets {
		wo, err := s.expected(ctx, woID)
		if err != nil {
			return newRow{}, err
		}
		if err := wo.Can(actions[kind].rule); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		branch, known, err := s.Associates(ctx, wo.BranchId)
		if err != nil {
			return newRow{}, err
		}
		if !known {
			branch = nil
		}
		if err := wo.CheckAssociates(who, branch, byID); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return newRow{}, invalid("%s", strings.Join(problems, "; "))
	}
	id := uuid.NewString()
	r := &api.AssignRequest{WorkOrderIds: targets, AssociateIds: who}
	r.MessageId = id
	return newRow{kind: kind, summary: crewSummary(kind, who, len(targets), byID), targets: targets, messageID: id, request: r}, nil
}

// crewSummary: "Assign Kenji Sato", "Unassign Kenji Sato and Mia Novak
// from 3 work orders".
func crewSummary(kind OutboxKind, who []int64, orders int, byID map[int64]api.Associate) string {
	s := "Assign " + NameAssociates(who, byID)
	if kind == KindUnassign {
		s = "Unassign " + NameAssociates(who, byID)
	}
	if orders > 1 {
		to := " to"
		if kind == KindUnassign {
			to = " from"
		}
		s += fmt.Sprintf("%s %d work orders", to, orders)
	}
	return s
}

// NameAssociates names ids in a sentence, "Kenji Sato and Mia Novak";
// one not listed is "associate 7101".
func NameAssociates(ids []int64, byID map[int64]api.Associate) string {
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		if a, ok := byID[id]; ok && a.Name != "" {
			names = append(names, a.Name)
		} else {
			names = append(names, fmt.Sprintf("associate %d", id))
		}
	}
	switch len(names) {
	case 0:
		return "nobody"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// unique is ids without repeats, in their order.
func unique(ids []int64) []int64 {
	var out []int64
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
