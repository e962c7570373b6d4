package storage

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Check-in, pause and check-out.

const (
	KindCheckIn         OutboxKind = "checkIn"
	KindPause           OutboxKind = "pause"
	KindCheckOut        OutboxKind = "checkOut"
	KindWorkDoneDetails OutboxKind = "workDoneDetails"
)

// Where a refused visit action is corrected.
const (
	FormVisit    Form = "visit"    // when it happened
	FormCheckOut Form = "checkOut" // when it happened, with the completion details
)

// What a colleague's visit actions are called.
var (
	checkedIn   = Colleague{Event: "CheckedInByContractor", Verb: "checked in", Of: "on", Past: "checked in"}
	paused      = Colleague{Event: "PausedByContractor", Verb: "paused", Past: "paused"}
	checkedOut  = Colleague{Event: "CheckedOutByContractor", Verb: "checked out", Of: "of", Past: "checked out"}
	detailsSent = Colleague{Event: "WorkDoneDetailsSent", Verb: "sent the completion details", Of: "for"}
)

var _ = register(GroupVisit, map[OutboxKind]*action{
	KindCheckIn: {
		rule:      api.CheckIn,
		noun:      "Check-in",
		route:     Route{http.MethodPut, "/api/workOrder/checkIn"},
		colleague: checkedIn,
		conflicts: []OutboxKind{KindCheckIn, KindCheckOut, KindReject},
		fix:       &fix{form: FormVisit, again: "check in", draft: draftVisit},
		status:    api.StatusCheckedIn,
		send: sendVisit(func(c *api.Client, ctx context.Context, p *visitPayload) error {
			return c.CheckIn(ctx, &p.VisitRequest)
		}),
		landed: statusLanded(api.StatusCheckedIn),
	},
	KindPause: {
		rule:      api.Pause,
		noun:      "Pause",
		route:     Route{http.MethodPut, "/api/workOrder/pause"},
		colleague: paused,
		conflicts: []OutboxKind{KindPause, KindCheckOut},
		fix:       &fix{form: FormVisit, again: "pause", draft: draftVisit},
		status:    api.StatusPaused,
		send: sendVisit(func(c *api.Client, ctx context.Context, p *visitPayload) error {
			return c.Pause(ctx, &p.VisitRequest)
		}),
		landed: statusLanded(api.StatusPaused),
	},
	KindCheckOut: {
		rule:      api.CheckOut,
		noun:      "Check-out",
		route:     Route{http.MethodPut, "/api/workOrder/checkOut"},
		colleague: checkedOut,
		conflicts: []OutboxKind{KindCheckOut, KindPause},
		fix:       &fix{form: FormCheckOut, again: "check out", draft: draftVisit},
		status:    api.StatusCheckedOut,
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
		rule:      api.CompleteDetails,
		noun:      "Completion details",
		route:     Route{http.MethodPut, "/api/workOrder/workDoneDetails"},
		colleague: detailsSent,
		status:    api.StatusCheckedOut,
		send:      sendWorkDoneDetails,
		landed:    statusLanded(api.StatusCheckedOut, api.StatusVerified),
		refresh:   refreshInvoice,
	},
})

// draftVisit reads back a check-in, pause or check-out: its comment, its
// completion details and the moment it was back-dated to (none when it was
// recorded as happening when sent).
func draftVisit(raw json.RawMessage, _ string) (*Draft, error) {
	var p visitPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	d := &Draft{Text: p.Comment, Completion: api.Completion{RepairInfo: p.RepairInfo, CustomFields: p.CustomFields}}
	if _, back := p.timing(); back != nil {
		at := back.UTC()
		d.At = &at
	}
	return d, nil
}

// futureTolerance absorbs clocks and pickers that round up to the minute.
const futureTolerance = time.Minute

// visit queues check-in, pause or check-out, keeping the moment the person
// acted and whether they back-dated; what ActualActionDate goes out is
// decided when it is sent (see queueVisit and sendVisit).
func (s *Store) visit(ctx context.Context, kind OutboxKind, summary string, woID int64, actual *time.Time, comment string, done api.Completion) (*OutboxRow, error) {
	now := s.now()
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(actions[kind].rule); err != nil {
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
	return s.queueVisit(ctx, kind, summary, wo, actual, now, comment, done)
}

// CheckIn queues a check-in. actual back-dates it; nil means now: sent in
// real time without ActualActionDate, or, reaching the service late
// (offline), with the moment of this call where the customer allows it.
func (s *Store) CheckIn(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckIn, "Check in", woID, actual, comment, api.Completion{})
}

// Pause queues pausing a checked-in work order (e.g. end of day).
func (s *Store) Pause(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindPause, "Pause", woID, actual, comment, api.Completion{})
}

// CheckOut queues a check-out with no completion information (see
// CheckOutWith for customers that require it).
func (s *Store) CheckOut(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckOut, "Check out", woID, actual, comment, api.Completion{})
}

// CheckOutWith queues a check-out carrying the completion information the
// customer requires (repair code, answers to its questions). A Request work
// order is refused without it, saying what is missing; a PMRM one is
// checked out and waits in NeedsCompletionDetails (see CompleteWorkDetails).
func (s *Store) CheckOutWith(ctx context.Context, woID int64, actual *time.Time, comment string, done api.Completion) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckOut, "Check out", woID, actual, comment, done)
}

// CompleteWorkDetails queues the completion details of a work order in
// NeedsCompletionDetails (PUT /api/workOrder/workDoneDetails), which then
// becomes CheckedOut and can be invoiced.
func (s *Store) CompleteWorkDetails(ctx context.Context, woID int64, comment string, done api.Completion) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.CompleteDetails); err != nil {
		return nil, refused(err)
	}
	if err := api.CheckText("work-done description", comment, false); err != nil {
		return nil, refused(err)
	}
	cs, err := s.settingsOf(ctx, wo)
	if err != nil {
		return nil, err
	}
	if err := api.WorkDoneDetailsProblem(wo, cs, done); err != nil {
		return nil, invalid("%s", err.Error())
	}
	id := uuid.NewString()
	r := &api.WorkDoneDetailsRequest{WorkOrderId: woID, Comment: comment, RepairInfo: done.RepairInfo, CustomFields: done.CustomFields}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindWorkDoneDetails, summary: "Complete details", targets: []int64{woID}, messageID: id, request: r})
}
