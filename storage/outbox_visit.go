package storage

import (
	"context"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Check-in, pause and check-out.

const (
	KindCheckIn         OutboxKind = "checkIn"
	KindPause           OutboxKind = "pause"
	KindCheckOut        OutboxKind = "checkOut"
	KindWorkDoneDetails OutboxKind = "workDoneDetails"
)

var _ = register(GroupVisit, map[OutboxKind]*action{
	KindCheckIn: {
		status: api.StatusCheckedIn,
		send: sendVisit(func(c *api.Client, ctx context.Context, p *visitPayload) error {
			return c.CheckIn(ctx, &p.VisitRequest)
		}),
		landed: statusLanded(api.StatusCheckedIn),
	},
	KindPause: {
		status: api.StatusPaused,
		send: sendVisit(func(c *api.Client, ctx context.Context, p *visitPayload) error {
			return c.Pause(ctx, &p.VisitRequest)
		}),
		landed: statusLanded(api.StatusPaused),
	},
	KindCheckOut: {
		status: api.StatusCheckedOut,
		// A PMRM check-out without the details the customer asks for
		// lands in NeedsCompletionDetails, not CheckedOut.
		effect: func(ctx context.Context, s *Store, wo *api.WorkOrder, row *OutboxRow) {
			wo.Status = s.checkOutOutcome(ctx, wo, row.Request)
		},
		send: sendVisit(func(c *api.Client, ctx context.Context, p *visitPayload) error {
			return c.CheckOut(ctx, &p.CheckOutRequest)
		}),
		landed:  statusLanded(api.StatusCheckedOut, api.StatusNeedsCompletionDetails, api.StatusVerified),
		refresh: refreshInvoice,
	},
	KindWorkDoneDetails: {
		status:  api.StatusCheckedOut,
		send:    sendWorkDoneDetails,
		landed:  statusLanded(api.StatusCheckedOut, api.StatusVerified),
		refresh: refreshInvoice,
	},
})

var visitActions = map[OutboxKind]struct {
	action  api.Action
	summary string
	// completes: the action carries the completion information the
	// customer's settings require (repair code, answers).
	completes bool
}{
	KindCheckIn:  {api.CheckIn, "Check in", false},
	KindPause:    {api.Pause, "Pause", false},
	KindCheckOut: {api.CheckOut, "Check out", true},
}

// futureTolerance absorbs clocks and pickers that round up to the minute.
const futureTolerance = time.Minute

// visit queues check-in, pause or check-out, keeping the moment the person
// acted and whether they back-dated; what ActualActionDate goes out is
// decided when it is sent (see queueVisit and sendVisit).
func (s *Store) visit(ctx context.Context, kind OutboxKind, woID int64, actual *time.Time, comment string, done api.Completion) (*OutboxRow, error) {
	now := s.now()
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	va := visitActions[kind]
	if err := wo.Can(va.action); err != nil {
		return nil, refused(err)
	}
	if err := api.CheckText("comment", comment, false); err != nil {
		return nil, refused(err)
	}
	if actual != nil {
		if actual.After(now.Add(futureTolerance)) {
			return nil, invalid("that time is in the future; a visit can only be recorded for a time that has passed")
		}
		if !wo.Created.IsZero() && actual.Before(wo.Created) {
			return nil, invalid("that time is before %s was created", wo.Name())
		}
	}
	return s.queueVisit(ctx, kind, va.summary, wo, actual, now, comment, done)
}

// CheckIn queues a check-in. actual back-dates it; nil means now: sent in
// real time without ActualActionDate, or, reaching the service late
// (offline), with the moment of this call where the customer allows it.
func (s *Store) CheckIn(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckIn, woID, actual, comment, api.Completion{})
}

// Pause queues pausing a checked-in work order (e.g. end of day).
func (s *Store) Pause(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindPause, woID, actual, comment, api.Completion{})
}

// CheckOut queues a check-out with no completion information (see
// CheckOutWith for customers that require it).
func (s *Store) CheckOut(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckOut, woID, actual, comment, api.Completion{})
}
