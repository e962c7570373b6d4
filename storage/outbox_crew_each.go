package storage

import (
	"context"
	"slices"

	"github.com/workorderdesk/workdesk/api"
)

// LeftOut is a work order an assignment could not be queued for, or some
// of whose chosen people could not: the rule's reason in plain words.
type LeftOut struct {
	WorkOrderId int64
	Number      string
	// Assigned are those of the chosen people it is still queued for
	// (none: the work order was left out whole).
	Assigned []int64
	Why      string
}

// AssignWhereAllowed queues assigning the associates to each of woIDs that
// the rules allow, and reports the others: a work order whose status
// allows no assignment is left out, and one whose branch lacks some of
// the people gets the rest. The service answers per work order too, so
// one work order of another branch no longer holds back the batch. Work
// orders getting the same people share one row; the rows come back in
// the order queued. Nothing is queued when none is allowed.
func (s *Store) AssignWhereAllowed(ctx context.Context, woIDs, associateIDs []int64) ([]*OutboxRow, []LeftOut, error) {
	targets, who := unique(woIDs), unique(associateIDs)
	if len(targets) == 0 {
		return nil, nil, invalid("no work orders selected")
	}
	if len(who) == 0 {
		return nil, nil, invalid("choose at least one technician or subcontractor")
	}
	if err := api.CheckBulk(len(targets)); err != nil {
		return nil, nil, refused(err)
	}
	byID := s.associatesByID(ctx)
	var left []LeftOut
	var groups [][]int64 // the people each group of work orders gets
	var members [][]int64
	for _, woID := range targets {
		wo, err := s.expected(ctx, woID)
		if err != nil {
			return nil, nil, err
		}
		if err := wo.Can(api.Assign); err != nil {
			left = append(left, LeftOut{WorkOrderId: woID, Number: wo.Name(), Why: sentenceOf(err)})
			continue
		}
		branch, known, err := s.Associates(ctx, wo.BranchId)
		if err != nil {
			return nil, nil, err
		}
		if !known {
			branch = nil
		}
		var ok, bad []int64
		for _, id := range who {
			if wo.CheckAssociates([]int64{id}, branch, byID) == nil {
				ok = append(ok, id)
			} else {
				bad = append(bad, id)
			}
		}
		if len(bad) > 0 {
			// The rule names everyone its branch lacks at once.
			why := wo.CheckAssociates(bad, branch, byID)
			left = append(left, LeftOut{WorkOrderId: woID, Number: wo.Name(), Assigned: ok, Why: sentenceOf(why)})
		}
		if len(ok) == 0 {
			continue
		}
		i := slices.IndexFunc(groups, func(g []int64) bool { return slices.Equal(g, ok) })
		if i < 0 {
			groups, members = append(groups, ok), append(members, nil)
			i = len(groups) - 1
		}
		members[i] = append(members[i], woID)
	}
	var rows []*OutboxRow
	for i, people := range groups {
		r, err := s.Assign(ctx, members[i], people)
		if err != nil {
			return rows, left, err
		}
		rows = append(rows, r)
	}
	return rows, left, nil
}

// sentenceOf is a rule's refusal as the person reads it.
func sentenceOf(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// AssociatesByID names every associate the replica knows, by id.
func (s *Store) AssociatesByID(ctx context.Context) map[int64]api.Associate {
	return s.associatesByID(ctx)
}
