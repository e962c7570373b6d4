package storage

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// PlanVisit queues what the dispatch board plans: associate goes to work
// order woID at start. In one transaction, in this order: taking instead
// off it (a visit moved from another technician; 0 = none), assigning
// associate (unless they are assigned already, queued included), and the
// appointment (ScheduledStart, keeping the access type the work order has).
// Every rule is asked first and nothing is queued if one refuses. Should
// the service refuse the assignment, the appointment waits behind it, as
// every later action on a work order waits behind a refusal, until the
// person retries, corrects or discards it.
func (s *Store) PlanVisit(ctx context.Context, woID, associate, instead int64, start time.Time) ([]*OutboxRow, error) {
	if start.IsZero() {
		return nil, invalid("choose when the visit starts")
	}
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.SetAppointment); err != nil {
		return nil, refused(err)
	}
	var rows []newRow
	if instead != 0 && instead != associate {
		if on, _ := wo.AssignedTo(instead); on {
			n, err := s.crewRow(ctx, outbox.KindUnassign, []int64{woID}, []int64{instead})
			if err != nil {
				return nil, err
			}
			rows = append(rows, n)
		}
	}
	if associate != 0 {
		if on, _ := wo.AssignedTo(associate); !on {
			n, err := s.crewRow(ctx, outbox.KindAssign, []int64{woID}, []int64{associate})
			if err != nil {
				return nil, err
			}
			rows = append(rows, n)
		}
	}
	pte := ""
	if wo.Schedule != nil {
		pte = wo.Schedule.Pte
	}
	id := uuid.NewString()
	r := &api.AppointmentRequest{WorkOrderId: woID, ScheduledStart: start.UTC(), Pte: pte}
	r.MessageId = id
	rows = append(rows, newRow{kind: outbox.KindAppointment, summary: "Schedule the visit", targets: []int64{woID}, messageID: id, request: r})
	return s.enqueueAll(ctx, rows)
}

// HeldBehind lists, for a refused row, the rows on its work orders that
// wait behind it (an appointment planned with a refused assignment).
func (s *Store) HeldBehind(ctx context.Context, rowID int64) ([]OutboxRow, error) {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return nil, err
	}
	var out []OutboxRow
	for _, wo := range row.WorkOrderIds {
		rows, err := s.unfinished(ctx, wo)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.Id > rowID && !slices.ContainsFunc(out, func(o OutboxRow) bool { return o.Id == r.Id }) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}
