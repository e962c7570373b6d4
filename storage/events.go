package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// EventRecord is one notification as the event log keeps it.
type EventRecord struct {
	api.Event
	ReceivedAt time.Time
	// PerformedBy names who acted, when the event says (EventPerformer).
	PerformedBy string
	// Whom names whom a colleague's action was done to, when the hub's
	// event says ("Kenji Sato" of an assignment); "" otherwise.
	Whom string
}

// HandleEvent stores a verified notification in the event log and applies it
// to the replica, in one transaction. The service redelivers notifications
// (up to 200 attempts), so a MessageId already logged is ignored without
// error. Unknown actions, and events about work orders the replica does not
// hold yet, are logged only: the next sync brings the full record. It has
// the signature the api Receiver calls.
func (s *Store) HandleEvent(ctx context.Context, ev api.Event) error {
	_, err := s.StoreEvent(ctx, ev)
	return err
}

// EventOutcome says what StoreEvent did with a notification.
type EventOutcome struct {
	// Fresh: logged now; false for a redelivery of one already logged,
	// which changed nothing.
	Fresh bool
	// Applied: the replica changed as the event says (false for one logged
	// only: stale, an action the app does not handle, a work order not
	// synced yet).
	Applied bool
}

// StoreEvent is HandleEvent that also says what it did. An event whose
// amount does not fit the work order's currency is neither logged nor
// applied: its error wraps api.ErrUnacceptableEvent.
func (s *Store) StoreEvent(ctx context.Context, ev api.Event) (out EventOutcome, err error) {
	h := ev.Header
	raw := []byte(ev.Raw)
	if len(raw) == 0 {
		b, err := api.MarshalEvent(h, ev.Body)
		if err != nil {
			return out, fmt.Errorf("storage: encoding event %s: %w", h.Action, err)
		}
		raw = b
	}
	msgID := h.MessageId
	if msgID == "" {
		// Without an id, identical redeliveries still collapse into one.
		sum := sha256.Sum256(raw)
		msgID = "sha256:" + hex.EncodeToString(sum[:])
	}
	woID := h.WorkOrderId
	if nw, ok := eventBody[api.NewWorkOrderEvent](ev.Body); ok && woID == 0 {
		woID = nw.Details.WorkOrderId
	}
	now := s.now()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO events(message_id, work_order_id, action, action_date, received_at, json)
VALUES (?,?,?,?,?,?) ON CONFLICT(message_id) DO NOTHING`, msgID, woID, h.Action, ms(h.ActionDate), now.UnixMilli(), string(raw))
		if err != nil {
			return fmt.Errorf("storage: logging event %s: %w", h.Action, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			s.log.Debug("duplicate notification ignored", "action", h.Action, "workOrder", woID)
			return nil
		}
		out.Fresh = true
		out.Applied, err = s.applyEvent(ctx, tx, woID, ev, now)
		return err
	})
	if err != nil {
		return EventOutcome{}, err
	}
	if out.Applied {
		s.notify([]int64{woID})
	}
	return out, nil
}

// eventBody returns the body as T whether the parser handed a *T or a T.
func eventBody[T any](body any) (T, bool) {
	switch b := body.(type) {
	case *T:
		if b != nil {
			return *b, true
		}
	case T:
		return b, true
	}
	var zero T
	return zero, false
}

// applyEvent changes the replica as the notification says; applied reports
// whether anything changed.
func (s *Store) applyEvent(ctx context.Context, tx *sql.Tx, woID int64, ev api.Event, now time.Time) (bool, error) {
	log := s.log.With("action", ev.Header.Action, "workOrder", woID)
	if nw, ok := eventBody[api.NewWorkOrderEvent](ev.Body); ok {
		wo := nw.Details
		if wo.WorkOrderId == 0 {
			wo.WorkOrderId = woID
		}
		wo.StampCurrency()
		if cur, err := getWorkOrder(ctx, tx, wo.WorkOrderId); err == nil && cur.LastUpdate.After(wo.LastUpdate) {
			log.Info("new work order notification older than the stored record; logged only")
			return false, nil
		}
		if err := putWorkOrders(ctx, tx, []api.WorkOrder{wo}); err != nil {
			return false, err
		}
		if len(nw.Attachments) > 0 {
			if err := putAttachments(ctx, tx, wo.WorkOrderId, attachmentsWorkOrder, nw.Attachments, now.UnixMilli()); err != nil {
				return false, err
			}
		}
		return true, nil
	}
	if inv, ok := eventBody[api.InvoiceStatusChangedEvent](ev.Body); ok {
		return true, s.applyInvoiceStatus(ctx, tx, woID, inv, now)
	}
	if ev.Body == nil {
		log.Info("notification of an action the app does not handle; logged only")
		return false, nil
	}
	var change func(*api.WorkOrder)
	// refused: the amount does not fit the work order's currency (more
	// decimals than it has), which only the replica knows; such an event is
	// refused like any malformed notification (400), and nothing is kept.
	var refused error
	fits := func(m api.Money, wo *api.WorkOrder) bool {
		if refused == nil {
			refused = m.In(wo.Currency).Check()
		}
		return refused == nil
	}
	if b, ok := eventBody[api.QuoteChangedEvent](ev.Body); ok {
		change = func(wo *api.WorkOrder) {
			if !fits(b.Quote.Amount, wo) {
				return
			}
			q := b.Quote
			if len(q.LineItems) == 0 && wo.Nte.Quote != nil && wo.Nte.Quote.Amount.Amount.Equal(q.Amount.Amount) {
				q.LineItems = wo.Nte.Quote.LineItems // the event does not repeat them
			}
			wo.Nte.Quote = &q
			if q.QuoteStatus == api.QuoteApproved {
				wo.Nte.Amount = q.Amount // spec §3: approval raises the NTE
			}
		}
	} else if b, ok := eventBody[api.NteChangedEvent](ev.Body); ok {
		change = func(wo *api.WorkOrder) {
			if fits(b.Amount, wo) {
				wo.Nte.Amount = b.Amount
			}
		}
	} else if b, ok := eventBody[api.RejectedEvent](ev.Body); ok {
		change = func(wo *api.WorkOrder) {
			wo.Status = api.StatusRejected
			if b.Status != "" {
				wo.Status = b.Status
			}
		}
	} else if b, ok := eventBody[api.AppointmentInfoChangedEvent](ev.Body); ok {
		change = func(wo *api.WorkOrder) {
			sched := b.Appointment
			if sched.Pte == "" && wo.Schedule != nil {
				sched.Pte = wo.Schedule.Pte
			}
			wo.Schedule = &sched
		}
	} else if b, ok := eventBody[api.ProcedureMarkedEvent](ev.Body); ok {
		change = func(wo *api.WorkOrder) {
			if wo.WorkDetails == nil {
				return
			}
			for i := range wo.WorkDetails.Procedures {
				if wo.WorkDetails.Procedures[i].Id == b.ProcedureId {
					wo.WorkDetails.Procedures[i].IsMarkedNa = b.IsMarkedNa
				}
			}
		}
	} else {
		log.Info("notification body of an unexpected type; logged only")
		return false, nil
	}
	stale := false
	err := updateWorkOrder(ctx, tx, woID, func(wo *api.WorkOrder) {
		// A redelivery hours late must not undo what a later sync brought.
		if !ev.Header.ActionDate.IsZero() && ev.Header.ActionDate.Before(wo.LastUpdate) {
			stale = true
			return
		}
		change(wo)
	})
	if errors.Is(err, ErrNotFound) {
		log.Info("notification for a work order not synced yet; logged, the next sync brings it")
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if stale {
		log.Info("notification older than the stored work order; logged only")
		return false, nil
	}
	if refused != nil {
		return false, fmt.Errorf("%w: its amount does not fit work order %d's currency: %w", api.ErrUnacceptableEvent, woID, refused)
	}
	return true, nil
}

func (s *Store) applyInvoiceStatus(ctx context.Context, tx *sql.Tx, woID int64, b api.InvoiceStatusChangedEvent, now time.Time) error {
	var inv api.Invoice
	var raw string
	err := tx.QueryRowContext(ctx, `SELECT json FROM invoices WHERE work_order_id = ?`, woID).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		inv = api.Invoice{WorkOrderId: woID}
		if wo, err := getWorkOrder(ctx, tx, woID); err == nil {
			inv.Currency = wo.Currency
		}
	case err != nil:
		return fmt.Errorf("storage: reading the invoice of work order %d: %w", woID, err)
	default:
		if err := json.Unmarshal([]byte(raw), &inv); err != nil {
			return fmt.Errorf("storage: decoding the invoice of work order %d: %w", woID, err)
		}
	}
	inv.Status = b.Status
	if b.Comment != "" {
		inv.Comment = b.Comment
	}
	if b.AuthNumber != "" {
		inv.AuthNumber = b.AuthNumber
	}
	if b.CheckNumber != "" {
		inv.CheckNumber = b.CheckNumber
	}
	if b.PaidDate != nil {
		inv.PaidDate = b.PaidDate
	}
	return putInvoice(ctx, tx, woID, &inv, now.UnixMilli())
}

// Events returns the event log of one work order, oldest first.
func (s *Store) Events(ctx context.Context, woID int64) ([]EventRecord, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT json, received_at FROM events WHERE work_order_id = ? ORDER BY id`, woID)
	if err != nil {
		return nil, fmt.Errorf("storage: reading events: %w", err)
	}
	defer rows.Close()
	var out []EventRecord
	var names *whomNames
	for rows.Next() {
		var raw string
		var at int64
		if err := rows.Scan(&raw, &at); err != nil {
			return nil, fmt.Errorf("storage: reading events: %w", err)
		}
		ev, err := api.ParseEvent([]byte(raw))
		if err != nil {
			return nil, fmt.Errorf("storage: decoding a stored event: %w", err)
		}
		r := EventRecord{Event: ev, ReceivedAt: time.UnixMilli(at).UTC(), PerformedBy: EventPerformer(ev)}
		if ids := eventWhom(ev); len(ids) > 0 {
			if names == nil {
				names = s.whomNames(ctx, woID)
			}
			r.Whom = names.name(ids)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
