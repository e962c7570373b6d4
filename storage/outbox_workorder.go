package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Accepting, rejecting (one or many) and scheduling a work order.

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
	return s.enqueue(ctx, newRow{kind: outbox.KindAccept, summary: "Accept", targets: []int64{woID}, messageID: id, request: r})
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
	return s.enqueue(ctx, newRow{kind: outbox.KindReject, summary: "Reject: " + reason, targets: []int64{woID}, messageID: id, request: r})
}

// BulkAccept queues accepting several New work orders in one call; the row
// keeps each work order's outcome.
func (s *Store) BulkAccept(ctx context.Context, ids []int64) (*OutboxRow, error) {
	return s.bulk(ctx, outbox.KindBulkAccept, ids, "")
}

// BulkReject queues rejecting several New work orders with one reason.
func (s *Store) BulkReject(ctx context.Context, ids []int64, reason string) (*OutboxRow, error) {
	if err := api.CheckText("reason", reason, true); err != nil {
		return nil, refused(err)
	}
	return s.bulk(ctx, outbox.KindBulkReject, ids, reason)
}

func (s *Store) bulk(ctx context.Context, kind outbox.Kind, ids []int64, reason string) (*OutboxRow, error) {
	if len(ids) == 0 {
		return nil, invalid("no work orders selected")
	}
	act := ruleOf(kind)
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
	if kind == outbox.KindBulkReject {
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
	return s.enqueue(ctx, newRow{kind: outbox.KindAppointment, summary: "Schedule the visit", // OutboxRow.Scheduled has the time
		targets: []int64{woID}, messageID: id, request: r})
}
