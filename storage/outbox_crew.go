package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Who goes: assigning technicians and subcontractors to work orders, and
// taking them off (PUT /api/bulk/assign, /api/bulk/unassign). One row may
// name several work orders and several associates; the service takes each
// work order on its own and answers per work order, so a row is done for
// the work orders it took and refused for the others, as a bulk
// acceptance is.

// Assign queues assigning the associates to each of the work orders, in
// one call. Each work order's status and branch are checked first (the
// branch's list as the last sync read it; unread, the service judges);
// nothing is queued while one is refused.
func (s *Store) Assign(ctx context.Context, woIDs, associateIDs []int64) (*OutboxRow, error) {
	return s.crew(ctx, outbox.KindAssign, woIDs, associateIDs)
}

// Unassign queues taking the associates off each of the work orders.
func (s *Store) Unassign(ctx context.Context, woIDs, associateIDs []int64) (*OutboxRow, error) {
	return s.crew(ctx, outbox.KindUnassign, woIDs, associateIDs)
}

func (s *Store) crew(ctx context.Context, kind outbox.Kind, woIDs, associateIDs []int64) (*OutboxRow, error) {
	n, err := s.crewRow(ctx, kind, woIDs, associateIDs)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, n)
}

// crewRow checks an assignment or unassignment and builds its row.
func (s *Store) crewRow(ctx context.Context, kind outbox.Kind, woIDs, associateIDs []int64) (newRow, error) {
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
		if err := wo.Can(ruleOf(kind)); err != nil {
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
func crewSummary(kind outbox.Kind, who []int64, orders int, byID map[int64]api.Associate) string {
	s := "Assign " + NameAssociates(who, byID)
	if kind == outbox.KindUnassign {
		s = "Unassign " + NameAssociates(who, byID)
	}
	if orders > 1 {
		to := " to"
		if kind == outbox.KindUnassign {
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
