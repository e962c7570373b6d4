package storage

import (
	"context"
	"slices"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// What a technician's day sheet and calendar read: their visits of some
// days as the board plans them (queued plans included), each work order
// whole, with its internal note. Only the replica is read, so a sheet
// prints offline too.

// SheetVisit is one visit of a technician's day sheet.
type SheetVisit struct {
	// WorkOrder is the work order as the person sees it: queued
	// appointments, assignments and status changes applied; its
	// ScheduledStart is the visit's start, its Associates who goes.
	WorkOrder *api.WorkOrder
	// Note is the internal note as it will be once edits waiting are sent.
	Note string
}

// TechnicianVisits are the visits technician tech is assigned to that
// start in [from, to), by start. Visits over (checked out, closed) are
// among them: a calendar sent before must hear they are off.
func (s *Store) TechnicianVisits(ctx context.Context, tech int64, from, to time.Time) ([]SheetVisit, error) {
	visits, _, err := s.weekVisits(ctx, from, to)
	if err != nil {
		return nil, err
	}
	var out []SheetVisit
	for _, v := range visits {
		if !slices.ContainsFunc(v.Assigned, func(a api.Associate) bool { return a.Id == tech }) {
			continue
		}
		wo, _, _, err := s.seenWorkOrder(ctx, v.WorkOrderId)
		if err != nil {
			return nil, err
		}
		if wo == nil {
			continue
		}
		// Who goes as the board says it: the record's with queued
		// assignments applied (seenWorkOrder has the same, unless the
		// record never said and the replica's crew list does).
		if v.AssignedKnown {
			wo.SetAssigned(v.Assigned)
		}
		if start := wo.ScheduledStart(); start.IsZero() {
			at := v.Start
			wo.Schedule = &api.Schedule{ScheduledStart: &at, Pte: v.Pte}
		}
		note, err := s.Note(ctx, v.WorkOrderId)
		if err != nil {
			return nil, err
		}
		out = append(out, SheetVisit{WorkOrder: wo, Note: note.Text})
	}
	return out, nil
}
