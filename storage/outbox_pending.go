package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// What the window shows of the outbox on a work order: the status and
// effects its queued actions will have (the action table's status and
// effect, the same ones validation uses), the actions still waiting, and
// the ones the service refused.

// Pending is a work order as the person sees it while actions on it wait
// in the outbox.
type Pending struct {
	// Replica is the work order as the service last described it.
	Replica *api.WorkOrder
	// Expected is Replica with the effects of the queued actions that will
	// go out: those before a refusal (later ones wait behind it).
	Expected *api.WorkOrder
	// Queued are the actions waiting or being sent, oldest first.
	Queued []OutboxRow
	// Refused are the actions the service refused, oldest first: each
	// waits for the person to retry, correct or discard it.
	Refused []OutboxRow
}

// StatusQueued reports whether the status shown is one the queued actions
// will give, not yet the service's.
func (p *Pending) StatusQueued() bool { return p.Expected.Status != p.Replica.Status }

// Pending reads work order woID with its unfinished outbox rows.
func (s *Store) Pending(ctx context.Context, woID int64) (*Pending, error) {
	// Read once, decoded twice: effects change nested values (the quote)
	// in place, and a second read could see a sync's write that the first
	// did not, showing a change as queued with nothing queued.
	raw, err := workOrderJSON(ctx, s.r, woID)
	if err != nil {
		return nil, err
	}
	replica, err := decodeWorkOrder(woID, raw)
	if err != nil {
		return nil, err
	}
	expected, err := decodeWorkOrder(woID, raw)
	if err != nil {
		return nil, err
	}
	rows, err := s.unfinished(ctx, woID)
	if err != nil {
		return nil, err
	}
	p := &Pending{Replica: replica, Expected: expected}
	for _, r := range rows {
		if r.State == OutboxFailed {
			p.Refused = append(p.Refused, r)
			continue
		}
		p.Queued = append(p.Queued, r)
		if len(p.Refused) == 0 {
			s.applyExpected(ctx, expected, &r)
		}
	}
	return p, nil
}

// QueuedStatuses is, for each work order whose queued actions will give it
// another status, that status: what its header shows as queued (Pending),
// so the list says the same. Work orders with nothing queued are not read.
func (s *Store) QueuedStatuses(ctx context.Context) (map[int64]api.WorkOrderStatus, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT x.work_order_id FROM outbox o JOIN outbox_targets x ON x.outbox_id = o.id
 WHERE o.state IN ('pending','sending')`)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the queued actions: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("storage: reading the queued actions: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the queued actions: %w", err)
	}
	out := map[int64]api.WorkOrderStatus{}
	for _, id := range ids {
		p, err := s.Pending(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue // queued for a work order not synced yet
		}
		if err != nil {
			return nil, err
		}
		if p.StatusQueued() {
			out[id] = p.Expected.Status
		}
	}
	return out, nil
}

// unfinished lists the rows on a work order not yet done or discarded, oldest first.
func (s *Store) unfinished(ctx context.Context, woID int64) ([]OutboxRow, error) {
	return s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o JOIN outbox_targets x ON x.outbox_id = o.id
 WHERE x.work_order_id = ? AND o.state IN ('pending','sending','failed') ORDER BY o.id`, woID)
}

// applyExpected gives wo the status and effects row will have once sent.
func (s *Store) applyExpected(ctx context.Context, wo *api.WorkOrder, row *OutboxRow) {
	e, ok := outbox.Of(row.Kind)
	if !ok {
		return
	}
	req, err := e.Decode(row.Request)
	if err != nil {
		if e.Status != "" {
			wo.Status = e.Status
		}
		return
	}
	e.Effect(ctx, wo, req, s.envFor(row, ""))
}

// expected is the work order as the person sees it: the replica, with the
// status its queued actions will give it. Validation uses it so that, offline,
// "accept" then "check in" is allowed although the replica still says New.
func (s *Store) expected(ctx context.Context, woID int64) (*api.WorkOrder, error) {
	wo, err := s.WorkOrder(ctx, woID)
	if errors.Is(err, ErrNotFound) {
		return nil, invalid("work order %d is not in the local replica yet; sync and try again", woID)
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.unfinished(ctx, woID)
	if err != nil {
		return nil, fmt.Errorf("storage: reading queued actions: %w", err)
	}
	correcting := replacing(ctx)
	for i := range rows {
		r := &rows[i]
		// A refused action changed nothing at the service, and it holds back
		// every later action on the work order until the person retries,
		// corrects or discards it: say so now rather than queue something
		// that waits. The one being corrected is replaced by what is queued.
		if r.State == OutboxFailed {
			if r.Id == correcting {
				continue
			}
			return nil, invalid("%s was refused by the service (%s). Retry, edit or discard it at the top of the work order first: later actions on this work order wait behind it", r.Summary, r.Error)
		}
		s.applyExpected(ctx, wo, r)
	}
	return wo, nil
}

type replacingKey struct{}

// Replacing is ctx for queueing the correction of refused row rowID: that
// row does not hold the new action back, and it is discarded in the same
// transaction that queues an action of its own kind on its work order.
// Until then it stays refused, so a correction the person gives up on
// loses nothing. Actions of other kinds queued meanwhile (an invoice saved
// before it is submitted again) wait behind it as usual.
func Replacing(ctx context.Context, rowID int64) context.Context {
	return context.WithValue(ctx, replacingKey{}, rowID)
}

func replacing(ctx context.Context) int64 {
	id, _ := ctx.Value(replacingKey{}).(int64)
	return id
}
