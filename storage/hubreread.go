package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/workorderdesk/workdesk/api"
)

// An office hub re-reads once what an event changed and sends it with the
// event, as "Reread" (hub.HubEvent documents the shape): the desktop takes
// that, and calls nobody. Nothing of a notification's body reaches the
// replica (its token does not cover it); the facts only a body carries
// come labelled as "Notification" and stay in the event log.
//
// This is the least that keeps desktops right against such a hub until
// the apply path of every documented event (Store.ApplyNotification, on
// its way) replaces it.

// hubReread is an event's "Reread" member.
type hubReread struct {
	WorkOrder          *api.WorkOrder    `json:"WorkOrder"`
	Gone               bool              `json:"Gone"`
	Invoice            *api.Invoice      `json:"Invoice"`
	Messages           *[]api.Message    `json:"Messages"`
	Attachments        *[]api.Attachment `json:"Attachments"`
	InvoiceAttachments *[]api.Attachment `json:"InvoiceAttachments"`
	// NoteHistory is the internal note's history, as the service answered
	// GET /api/workOrder/noteHistory (its list read by api's decoder).
	NoteHistory json.RawMessage `json:"NoteHistory"`
}

// hubEventShape is what tells a hub event that carries its re-read (or
// labels a notification's facts) from one that does not.
type hubEventShape struct {
	Reread       *hubReread      `json:"Reread"`
	Notification json.RawMessage `json:"Notification"`
}

// rereadOf is the event's re-read, and whether the event is of the shape
// that carries one (a notification's body then is never applied).
func rereadOf(raw []byte) (*hubReread, bool, error) {
	var d hubEventShape
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, false, err
	}
	return d.Reread, d.Reread != nil || d.Notification != nil, nil
}

// applyHubReread writes what the hub re-read about woID; changed reports
// whether the replica took any of it. A record older than the replica's
// is not taken.
func (s *Store) applyHubReread(ctx context.Context, woID int64, rr *hubReread) (changed bool, err error) {
	if rr == nil {
		return false, nil
	}
	at := s.now().UnixMilli()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if w := rr.WorkOrder; w != nil {
			if woID == 0 {
				woID = w.WorkOrderId
			}
			cur, err := getWorkOrder(ctx, tx, w.WorkOrderId)
			switch {
			case err == nil && !w.LastUpdate.IsZero() && cur.LastUpdate.After(w.LastUpdate):
			case err == nil || errors.Is(err, ErrNotFound):
				wo := *w
				wo.StampCurrency()
				if err := putWorkOrders(ctx, tx, []api.WorkOrder{wo}); err != nil {
					return err
				}
				changed = true
			default:
				return err
			}
		}
		if woID == 0 {
			return nil
		}
		if rr.Gone {
			// The service refused the re-read with 3005: no longer ours.
			err := updateWorkOrder(ctx, tx, woID, func(wo *api.WorkOrder) { wo.Status = api.StatusRecalled })
			if err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			changed = changed || err == nil
		}
		if rr.Invoice != nil {
			inv := *rr.Invoice
			if inv.WorkOrderId == 0 {
				inv.WorkOrderId = woID
			}
			if err := putInvoice(ctx, tx, woID, &inv, at); err != nil {
				return err
			}
			changed = true
		}
		if rr.Messages != nil {
			if err := putMessages(ctx, tx, woID, *rr.Messages, at); err != nil {
				return err
			}
			changed = true
		}
		if rr.Attachments != nil {
			if err := putAttachments(ctx, tx, woID, attachmentsWorkOrder, *rr.Attachments, at); err != nil {
				return err
			}
			changed = true
		}
		if rr.InvoiceAttachments != nil {
			if err := putAttachments(ctx, tx, woID, attachmentsInvoice, *rr.InvoiceAttachments, at); err != nil {
				return err
			}
			changed = true
		}
		if rr.NoteHistory != nil {
			h, err := api.DecodeNoteHistory(rr.NoteHistory)
			if err != nil {
				s.log.Warn("the hub's re-read of the internal note is unreadable; the next refresh reads it", "workOrder", woID, "err", err)
				return nil
			}
			if err := putNoteHistory(ctx, tx, woID, h, at); err != nil {
				return err
			}
			changed = true
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("storage: applying the hub's re-read of work order %d: %w", woID, err)
	}
	return changed, nil
}
