package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Accepting, rejecting (one or many) and scheduling a work order.

const (
	KindAccept      OutboxKind = "accept"
	KindReject      OutboxKind = "reject"
	KindBulkAccept  OutboxKind = "bulkAccept"
	KindBulkReject  OutboxKind = "bulkReject"
	KindAppointment OutboxKind = "appointment"
)

// Where a refused rejection and a refused scheduled start are corrected.
const (
	FormReason   Form = "reason"   // the reason dialog of a rejection
	FormSchedule Form = "schedule" // the scheduled start's date and time
)

// What a colleague's acceptance, rejection and scheduling are called; the
// bulk actions make the same events as the single ones.
var (
	accepted       = Colleague{Event: "AcceptedByContractor", Verb: "accepted", Past: "accepted"}
	rejected       = Colleague{Event: "RejectedByContractor", Verb: "rejected", Past: "rejected"}
	appointmentSet = Colleague{Event: "AppointmentSet", Verb: "set the appointment", Of: "of"}
)

var _ = register(GroupWorkOrder, map[OutboxKind]*action{
	KindAccept: {
		rule:      api.Accept,
		noun:      "Acceptance",
		route:     Route{http.MethodPut, "/api/workOrder/accept"},
		colleague: accepted,
		conflicts: []OutboxKind{KindAccept, KindReject},
		status:    api.StatusAccepted,
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.AcceptRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.Accept(ctx, &r)
		},
		landed: statusLanded(api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusCheckedOut, api.StatusOnHold),
	},
	KindReject: {
		rule:      api.Reject,
		noun:      "Rejection",
		route:     Route{http.MethodPut, "/api/workOrder/reject"},
		colleague: rejected,
		conflicts: []OutboxKind{KindAccept, KindReject},
		fix:       &fix{form: FormReason, again: "reject again", draft: draftReject},
		status:    api.StatusRejected,
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.RejectRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.Reject(ctx, &r)
		},
		landed: statusLanded(api.StatusRejected),
	},
	KindBulkAccept: {
		rule:      api.Accept,
		noun:      "Acceptance",
		route:     Route{http.MethodPut, "/api/bulk/accept"},
		colleague: accepted,
		conflicts: []OutboxKind{KindAccept, KindReject},
		status:    api.StatusAccepted,
		send:      sendBulk((*api.Client).BulkAccept),
		landed:    bulkLanded(api.StatusAccepted),
	},
	KindBulkReject: {
		rule:      api.Reject,
		noun:      "Rejection",
		route:     Route{http.MethodPut, "/api/bulk/reject"},
		colleague: rejected,
		conflicts: []OutboxKind{KindAccept, KindReject},
		status:    api.StatusRejected,
		send:      sendBulk((*api.Client).BulkReject),
		landed:    bulkLanded(api.StatusRejected),
	},
	KindAppointment: {
		rule:      api.SetAppointment,
		noun:      "Scheduled start",
		route:     Route{http.MethodPut, "/api/workOrder/appointmentInfo"},
		colleague: appointmentSet,
		conflicts: []OutboxKind{KindReject, KindCheckOut},
		fix:       &fix{form: FormSchedule, again: "set the scheduled start", draft: draftAppointment},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.AppointmentRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.UpdateAppointment(ctx, &r)
		},
		// The start (and access type) asked for is the work order's:
		// sending it again would change nothing, but the hub sends every
		// write once.
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			var r api.AppointmentRequest
			if err := sc.decode(&r); err != nil {
				return false, nil, err
			}
			wo, err := sc.readWorkOrder(ctx)
			if err != nil {
				return false, nil, err
			}
			s := wo.Schedule
			return s != nil && s.ScheduledStart != nil && s.ScheduledStart.Equal(r.ScheduledStart) &&
				(r.Pte == "" || s.Pte == r.Pte), nil, nil
		},
	},
})

func draftReject(raw json.RawMessage, _ string) (*Draft, error) {
	var q api.RejectRequest
	err := json.Unmarshal(raw, &q)
	return &Draft{Text: q.Comment}, err
}

func draftAppointment(raw json.RawMessage, _ string) (*Draft, error) {
	var q api.AppointmentRequest
	err := json.Unmarshal(raw, &q)
	start := q.ScheduledStart.UTC()
	return &Draft{At: &start, Pte: q.Pte}, err
}

func sendBulk(call func(*api.Client, context.Context, *api.BulkRequest) ([]api.BulkResult, error)) func(context.Context, *sendCtx) (any, error) {
	return func(ctx context.Context, sc *sendCtx) (any, error) {
		var r api.BulkRequest
		if err := sc.decode(&r); err != nil {
			return nil, err
		}
		r.MessageId = sc.row.MessageId
		return call(sc.c, ctx, &r)
	}
}

// bulkLanded: a bulk action took effect when none of its work orders is
// still New; each one's outcome is then read off its status.
func bulkLanded(want api.WorkOrderStatus) func(context.Context, *sendCtx) (bool, any, error) {
	return func(ctx context.Context, sc *sendCtx) (bool, any, error) {
		wos, err := sc.c.GetWorkOrders(ctx, sc.row.WorkOrderIds)
		if err != nil {
			return false, nil, err
		}
		var out []api.BulkResult
		for _, wo := range wos {
			if wo.Status == api.StatusNew {
				return false, nil, nil
			}
			r := api.BulkResult{WorkOrderId: wo.WorkOrderId}
			if wo.Status != want {
				r.Code, r.Message = api.CodeWrongStatus, fmt.Sprintf("%s is %s", wo.Name(), wo.Status.Label())
			}
			out = append(out, r)
		}
		return len(out) > 0, out, nil
	}
}

// Accept queues accepting a New work order.
func (s *Store) Accept(ctx context.Context, woID int64, comment string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.Accept); err != nil {
		return nil, refused(err)
	}
	if err := api.CheckText("comment", comment, false); err != nil {
		return nil, refused(err)
	}
	id := uuid.NewString()
	r := &api.AcceptRequest{WorkOrderId: woID, Comment: comment}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindAccept, summary: "Accept", targets: []int64{woID}, messageID: id, request: r})
}

// Reject queues rejecting a New work order; the reason is required.
func (s *Store) Reject(ctx context.Context, woID int64, reason string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.Reject); err != nil {
		return nil, refused(err)
	}
	if err := api.CheckText("reason", reason, true); err != nil {
		return nil, refused(err)
	}
	id := uuid.NewString()
	r := &api.RejectRequest{WorkOrderId: woID, Comment: reason}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindReject, summary: "Reject: " + reason, targets: []int64{woID}, messageID: id, request: r})
}

// BulkAccept queues accepting several New work orders in one call; the row
// keeps each work order's outcome.
func (s *Store) BulkAccept(ctx context.Context, ids []int64) (*OutboxRow, error) {
	return s.bulk(ctx, KindBulkAccept, ids, "")
}

// BulkReject queues rejecting several New work orders with one reason.
func (s *Store) BulkReject(ctx context.Context, ids []int64, reason string) (*OutboxRow, error) {
	if err := api.CheckText("reason", reason, true); err != nil {
		return nil, refused(err)
	}
	return s.bulk(ctx, KindBulkReject, ids, reason)
}

func (s *Store) bulk(ctx context.Context, kind OutboxKind, ids []int64, reason string) (*OutboxRow, error) {
	if len(ids) == 0 {
		return nil, invalid("no work orders selected")
	}
	act := actions[kind].rule
	seen := map[int64]bool{}
	var targets []int64
	for _, woID := range ids {
		if !seen[woID] {
			seen[woID] = true
			targets = append(targets, woID)
		}
	}
	if err := api.CheckBulk(len(targets)); err != nil {
		return nil, refused(err)
	}
	var problems []string
	for _, woID := range targets {
		wo, err := s.expected(ctx, woID)
		if err != nil {
			return nil, err
		}
		if err := wo.Can(act); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return nil, invalid("%s", strings.Join(problems, "; "))
	}
	id := uuid.NewString()
	r := &api.BulkRequest{WorkOrderIds: targets, Comment: reason}
	r.MessageId = id
	summary := fmt.Sprintf("Accept %d work orders", len(targets))
	if kind == KindBulkReject {
		summary = fmt.Sprintf("Reject %d work orders: %s", len(targets), reason)
	}
	return s.enqueue(ctx, newRow{kind: kind, summary: summary, targets: targets, messageID: id, request: r})
}

// SetAppointment queues a new scheduled start (and access type, optional).
func (s *Store) SetAppointment(ctx context.Context, woID int64, start time.Time, pte string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.SetAppointment); err != nil {
		return nil, refused(err)
	}
	if start.IsZero() {
		return nil, invalid("choose a scheduled start")
	}
	id := uuid.NewString()
	r := &api.AppointmentRequest{WorkOrderId: woID, ScheduledStart: start.UTC(), Pte: pte}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindAppointment, summary: "Schedule the visit", // OutboxRow.Scheduled has the time
		targets: []int64{woID}, messageID: id, request: r})
}
