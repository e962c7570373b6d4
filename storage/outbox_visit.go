package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Check-in, pause and check-out.

// futureTolerance absorbs clocks and pickers that round up to the minute.
const futureTolerance = time.Minute

// visit queues check-in, pause or check-out, keeping the moment the person
// acted and whether they back-dated; what ActualActionDate goes out is
// decided when it is sent (see queueVisit and sendVisit).
func (s *Store) visit(ctx context.Context, kind outbox.Kind, summary string, woID int64, actual *time.Time, comment string, done api.Completion) (*OutboxRow, error) {
	now := s.now()
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(ruleOf(kind)); err != nil {
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
	return s.visit(ctx, outbox.KindCheckIn, "Check in", woID, actual, comment, api.Completion{})
}

// Pause queues pausing a checked-in work order (e.g. end of day).
func (s *Store) Pause(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, outbox.KindPause, "Pause", woID, actual, comment, api.Completion{})
}

// CheckOut queues a check-out with no completion information (see
// CheckOutWith for customers that require it).
func (s *Store) CheckOut(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, outbox.KindCheckOut, "Check out", woID, actual, comment, api.Completion{})
}

// CheckOutWith queues a check-out carrying the completion information the
// customer requires (repair code, answers to its questions). A Request work
// order is refused without it, saying what is missing; a PMRM one is
// checked out and waits in NeedsCompletionDetails (see CompleteWorkDetails).
func (s *Store) CheckOutWith(ctx context.Context, woID int64, actual *time.Time, comment string, done api.Completion) (*OutboxRow, error) {
	return s.visit(ctx, outbox.KindCheckOut, "Check out", woID, actual, comment, done)
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
	return s.enqueue(ctx, newRow{kind: outbox.KindWorkDoneDetails, summary: "Complete details", targets: []int64{woID}, messageID: id, request: r})
}
