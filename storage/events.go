package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// A notification is a hint: its token does not cover its body. The replica
// takes from it the work order it names and the action, keeps it in the
// event log (Activity says it in plain words, from the body), and changes
// only as a re-read of what it touched says (Reread). Nothing the replica
// holds as the service's (a status, an amount a check relies on, a
// person's name) is ever set from a notification's body. The facts only a
// body carries (an invoice's AuthNumber, CheckNumber, PaidDate and Amount,
// a dispute's reason) stay in the event log, where the window reads them as
// the customer's notification said them (InvoiceNotice).

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

// EventOutcome says what ApplyNotification did with a notification.
type EventOutcome struct {
	// Fresh: logged now; false for a redelivery of one already logged,
	// which changed nothing.
	Fresh bool
	// Applied: the replica changed as the re-read said (false when it was
	// logged only: no re-read, or one older than what the replica holds).
	Applied bool
}

// HandleEvent logs a verified notification without re-reading anything:
// the replica changes at the next sync. Engine.HandleEvent re-reads first.
// It has the signature the api Receiver calls.
func (s *Store) HandleEvent(ctx context.Context, ev api.Event) error {
	_, err := s.ApplyNotification(ctx, ev, nil)
	return err
}

// eventKey is the notification's MessageId, or for one without, a hash of
// its bytes so that identical redeliveries still collapse into one.
func eventKey(ev api.Event) (key string, raw []byte, err error) {
	raw = []byte(ev.Raw)
	if len(raw) == 0 {
		if raw, err = api.MarshalEvent(ev.Header, ev.Body); err != nil {
			return "", nil, fmt.Errorf("storage: encoding event %s: %w", ev.Header.Action, err)
		}
	}
	if ev.Header.MessageId != "" {
		return ev.Header.MessageId, raw, nil
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:]), raw, nil
}

// EventLogged reports whether the notification is in the event log already
// (a redelivery: the service retries up to 200 times), so a receiver need
// not re-read for it again.
func (s *Store) EventLogged(ctx context.Context, ev api.Event) (bool, error) {
	key, _, err := eventKey(ev)
	if err != nil {
		return false, err
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE message_id = ?`, key).Scan(&n); err != nil {
		return false, fmt.Errorf("storage: reading the event log: %w", err)
	}
	return n > 0, nil
}

// ApplyNotification is the one way a notification reaches the replica: it
// logs ev (once per MessageId: a redelivery changes nothing) and applies
// rr, what was read again about what ev touched, in one transaction. rr
// nil logs only. The desktop's engine re-reads itself (Engine.HandleEvent);
// in an office the hub re-reads once and streams rr beside the event, and
// the desktop applies it without calling anyone (see Reread for its shape).
func (s *Store) ApplyNotification(ctx context.Context, ev api.Event, rr *Reread) (out EventOutcome, err error) {
	h := ev.Header
	key, raw, err := eventKey(ev)
	if err != nil {
		return out, err
	}
	woID := h.WorkOrderId
	if nw, ok := ev.Body.(*api.NewWorkOrderEvent); ok && woID == 0 {
		woID = nw.Details.WorkOrderId
	}
	if woID == 0 && rr != nil && rr.WorkOrder != nil {
		woID = rr.WorkOrder.WorkOrderId
	}
	now := s.now()
	var changed []int64
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO events(message_id, work_order_id, action, action_date, received_at, json)
VALUES (?,?,?,?,?,?) ON CONFLICT(message_id) DO NOTHING`, key, woID, h.Action, ms(h.ActionDate), now.UnixMilli(), string(raw))
		if err != nil {
			return fmt.Errorf("storage: logging event %s: %w", h.Action, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			s.log.Debug("duplicate notification ignored", "action", h.Action, "workOrder", woID)
			return nil
		}
		out.Fresh = true
		if !api.KnownAction(h.Action) && !hubWrite(ev) {
			s.log.Info("notification of an action the app does not know; logged only", "action", h.Action, "workOrder", woID)
		}
		if rr == nil {
			return nil
		}
		changed, err = s.applyReread(ctx, tx, woID, rr, now)
		out.Applied = len(changed) > 0
		return err
	})
	if err != nil {
		return EventOutcome{}, err
	}
	switch {
	case out.Applied:
		s.notify(changed)
	case out.Fresh && woID != 0:
		// Logged, though a sync had already brought the record: the
		// window still has to show what the customer said (the header's
		// "put this work order on hold: why", the Activity tab).
		s.notify([]int64{woID})
	}
	return out, nil
}

// applyReread writes what a re-read found, and returns the work orders it
// changed. A record older than the replica's (a sync or an action's own
// re-read got there first) is not taken.
func (s *Store) applyReread(ctx context.Context, tx *sql.Tx, woID int64, rr *Reread, now time.Time) ([]int64, error) {
	at := now.UnixMilli()
	touched := false
	if w := rr.WorkOrder; w != nil {
		if woID == 0 {
			woID = w.WorkOrderId
		}
		cur, err := getWorkOrder(ctx, tx, w.WorkOrderId)
		switch {
		case err == nil && !w.LastUpdate.IsZero() && cur.LastUpdate.After(w.LastUpdate):
			s.log.Info("a re-read older than the stored work order; not taken", "workOrder", w.WorkOrderId)
		case err == nil || errors.Is(err, ErrNotFound):
			wo := *w
			wo.StampCurrency()
			if err := putWorkOrders(ctx, tx, []api.WorkOrder{wo}); err != nil {
				return nil, err
			}
			touched = true
		default:
			return nil, err
		}
	}
	if rr.Procedures != nil && woID != 0 && !rr.Gone {
		switch changed, err := putProcedures(ctx, tx, woID, *rr.Procedures); {
		case err == nil:
			touched = touched || changed
		case !errors.Is(err, ErrNotFound):
			return nil, err
		}
	}
	if rr.Gone && woID != 0 {
		// The service refused the re-read with 3005: no longer ours. That
		// is its word, not the body's: the work order shows as recalled.
		err := updateWorkOrder(ctx, tx, woID, func(wo *api.WorkOrder) { wo.Status = api.StatusRecalled })
		switch {
		case err == nil:
			touched = true
		case !errors.Is(err, ErrNotFound):
			return nil, err
		}
	}
	if rr.Invoice != nil {
		inv := *rr.Invoice
		if inv.WorkOrderId == 0 {
			inv.WorkOrderId = woID
		}
		if err := putInvoice(ctx, tx, woID, &inv, at); err != nil {
			return nil, err
		}
		touched = true
	}
	if rr.Messages != nil {
		if err := putMessages(ctx, tx, woID, *rr.Messages, at); err != nil {
			return nil, err
		}
		touched = true
	}
	if rr.Attachments != nil {
		if err := putAttachments(ctx, tx, woID, attachmentsWorkOrder, *rr.Attachments, at); err != nil {
			return nil, err
		}
		touched = true
	}
	if rr.InvoiceAttachments != nil {
		if err := putAttachments(ctx, tx, woID, attachmentsInvoice, *rr.InvoiceAttachments, at); err != nil {
			return nil, err
		}
		touched = true
	}
	if rr.NoteHistory != nil && woID != 0 {
		h, err := api.DecodeNoteHistory(rr.NoteHistory)
		switch {
		case err != nil:
			s.log.Warn("the re-read internal note is unreadable; the next refresh reads it", "workOrder", woID, "err", err)
		default:
			if err := putNoteHistory(ctx, tx, woID, h, at); err != nil {
				return nil, err
			}
			touched = true
		}
	}
	for i := range rr.Settings {
		if err := putCustomerSettings(ctx, tx, &rr.Settings[i], at); err != nil {
			return nil, err
		}
		touched = true
	}
	if !touched || woID == 0 {
		return nil, nil
	}
	return []int64{woID}, nil
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
		ev, err := parseEvent([]byte(raw))
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

// InvoiceNotice is what the customer's latest InvoiceStatusChanged said:
// the facts only a notification carries (AuthNumber, CheckNumber, PaidDate,
// Amount, a dispute's reason), kept as it said them. They are shown as the
// customer's notification, never used by a check.
type InvoiceNotice struct {
	api.InvoiceStatusChangedEvent
	At time.Time // when the customer acted (or when it arrived)
}

// InvoiceNotice is the latest invoice notification of a work order; nil
// when none arrived.
func (s *Store) InvoiceNotice(ctx context.Context, woID int64) (*InvoiceNotice, error) {
	var raw string
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT json, COALESCE(action_date, received_at) FROM events
 WHERE work_order_id = ? AND action = ? ORDER BY COALESCE(action_date, received_at) DESC, id DESC LIMIT 1`,
		woID, api.ActionInvoiceStatusChanged).Scan(&raw, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading the invoice notifications of work order %d: %w", woID, err)
	}
	ev, err := parseEvent([]byte(raw))
	if err != nil {
		return nil, fmt.Errorf("storage: decoding an invoice notification: %w", err)
	}
	b, ok := ev.Body.(*api.InvoiceStatusChangedEvent)
	if !ok {
		return nil, nil
	}
	return &InvoiceNotice{InvoiceStatusChangedEvent: *b, At: time.UnixMilli(at).UTC()}, nil
}
