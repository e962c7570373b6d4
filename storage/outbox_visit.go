package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Check-in, pause and check-out.

var _ = register(GroupVisit, map[OutboxKind]*action{
	KindCheckIn: {
		status: api.StatusCheckedIn,
		send:   sendVisit((*api.Client).CheckIn),
		landed: statusLanded(api.StatusCheckedIn),
	},
	KindPause: {
		status: api.StatusPaused,
		send:   sendVisit((*api.Client).Pause),
		landed: statusLanded(api.StatusPaused),
	},
	KindCheckOut: {
		status: api.StatusCheckedOut,
		send:   sendVisit((*api.Client).CheckOut),
		landed: statusLanded(api.StatusCheckedOut, api.StatusNeedsCompletionDetails, api.StatusVerified),
	},
})

var visitActions = map[OutboxKind]struct {
	action  api.Action
	summary string
}{
	KindCheckIn:  {api.CheckIn, "Check in"},
	KindPause:    {api.Pause, "Pause"},
	KindCheckOut: {api.CheckOut, "Check out"},
}

func sendVisit(call func(*api.Client, context.Context, *api.VisitRequest) error) func(context.Context, *sendCtx) (any, error) {
	return func(ctx context.Context, sc *sendCtx) (any, error) {
		var r api.VisitRequest
		if err := sc.decode(&r); err != nil {
			return nil, err
		}
		r.MessageId = sc.row.MessageId
		return nil, call(sc.c, ctx, &r)
	}
}

// futureTolerance absorbs clocks and pickers that round up to the minute.
const futureTolerance = time.Minute

// visit queues check-in, pause or check-out. ActualActionDate is always the
// moment the person acted: what they back-dated to, or now. A visit queued
// offline and sent an hour later is therefore recorded at the true time.
func (s *Store) visit(ctx context.Context, kind OutboxKind, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
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
	at := now
	if actual != nil {
		if actual.After(now.Add(futureTolerance)) {
			return nil, invalid("the time %s is in the future; a visit can only be recorded for a time that has passed",
				actual.Local().Format("2006-01-02 15:04"))
		}
		if !wo.Created.IsZero() && actual.Before(wo.Created) {
			return nil, invalid("the time %s is before %s was created", actual.Local().Format("2006-01-02 15:04"), wo.Name())
		}
		at = *actual
	}
	at = at.UTC()
	id := uuid.NewString()
	r := &api.VisitRequest{WorkOrderId: woID, ActualActionDate: &at, Comment: comment}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: kind, summary: va.summary, targets: []int64{woID}, messageID: id, request: r})
}

// CheckIn queues a check-in. actual back-dates it; nil means now (the
// moment of this call, which is what will be sent, however late).
func (s *Store) CheckIn(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckIn, woID, actual, comment)
}

// Pause queues pausing a checked-in work order (e.g. end of day).
func (s *Store) Pause(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindPause, woID, actual, comment)
}

// CheckOut queues a check-out.
func (s *Store) CheckOut(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckOut, woID, actual, comment)
}
