package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/workorderdesk/workdesk/api"
)

// Reread is what was read again from the service after a notification:
// the truth the replica takes, where the notification's body was a hint.
// Each part is nil when it was not read (not touched, or its read failed:
// the replica keeps what it had and the next sync catches up).
//
// The office hub re-reads once per notification and streams the result to
// desktops as the event's "Reread" member (hub.HubEvent documents the
// whole event), each part exactly as the service answered it:
//
//	{"Header": {...},
//	 "Notification": {...},  // the facts only the body carried (parseEvent)
//	 "Reread": {
//	   "WorkOrder":          {...},  // GET /api/workOrder's record
//	   "Gone":               true,   // the re-read was refused with 3005 (recalled, no longer ours)
//	   "Invoice":            {...},  // GET /api/invoice's Invoice
//	   "Messages":           [...],  // GET /api/messages' list ([] = read, none)
//	   "Attachments":        [...],  // GET /api/attachments' list
//	   "InvoiceAttachments": [...],  // GET /api/invoice/attachments' list
//	   "NoteHistory":        {...},  // GET /api/workOrder/noteHistory's whole answer
//	   "Procedures":         [...]}} // GET /api/procedure's list (procedure events)
//
// A desktop applies it with Store.ApplyNotification and calls nobody;
// an event without "Reread" (a company-level one: customer settings,
// which only a desktop's own re-read fills in) is re-read by the desktop
// through the hub.
type Reread struct {
	WorkOrder          *api.WorkOrder         `json:"WorkOrder,omitempty"`
	Gone               bool                   `json:"Gone,omitempty"`
	Invoice            *api.Invoice           `json:"Invoice,omitempty"`
	Messages           *[]api.Message         `json:"Messages,omitempty"`
	Attachments        *[]api.Attachment      `json:"Attachments,omitempty"`
	InvoiceAttachments *[]api.Attachment      `json:"InvoiceAttachments,omitempty"`
	Settings           []api.CustomerSettings `json:"Settings,omitempty"`
	// NoteHistory is the internal note's history as the service answered
	// it, whole: its list's key is not published, so api.DecodeNoteHistory
	// reads it where it is applied (an unreadable one is skipped there,
	// never the rest).
	NoteHistory json.RawMessage `json:"NoteHistory,omitempty"`
	// Procedures are GET /api/procedure's list, the source the docs name
	// for a work order's procedures and their AllowMarkNotApplicable; they
	// replace the record's WorkDetails.Procedures.
	Procedures *[]api.Procedure `json:"Procedures,omitempty"`
}

// RereadOf is the "Reread" member of an event's JSON (see Reread); nil
// when the event carries none.
func RereadOf(raw []byte) (*Reread, error) {
	var d struct {
		Reread *Reread `json:"Reread"`
	}
	if len(raw) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("storage: the event's re-read record: %w", err)
	}
	return d.Reread, nil
}

// Reread reads again what a notification of action about woID touched
// (api.Touches): always the work order itself, which every change moves
// (and which brings a work order the replica does not hold yet), then the
// parts the action changed. A refusal with 3005 is Gone. Parts that fail
// are left out; their errors are returned joined beside what was read.
func (y *Syncer) Reread(ctx context.Context, woID int64, touches api.Touch) (*Reread, error) {
	rr := &Reread{}
	var errs []error
	var wo *api.WorkOrder
	if woID > 0 {
		got, err := y.c.GetWorkOrder(ctx, woID)
		switch {
		case err == nil:
			wo, rr.WorkOrder = got, got
		case api.HasCode(err, api.CodeNotFoundOrRecalled):
			// The service's own 3005, not any 404 (a proxy's, a missing
			// route): only it says the work order is no longer ours.
			rr.Gone = true
			return rr, nil
		default:
			errs = append(errs, fmt.Errorf("work order: %w", err))
			if wo, err = y.s.WorkOrder(ctx, woID); err != nil {
				wo = nil
			}
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	part := func(name string, read func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := read(); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				mu.Unlock()
			}
		}()
	}
	if woID > 0 && touches.Has(api.TouchMessages) {
		part("messages", func() error {
			msgs, err := y.c.ListMessages(ctx, woID)
			if err == nil {
				rr.Messages = &msgs
			}
			return err
		})
	}
	if woID > 0 && touches.Has(api.TouchAttachments) {
		part("attachments", func() error {
			atts, err := y.c.ListAttachments(ctx, woID)
			if err == nil {
				rr.Attachments = &atts
			}
			return err
		})
	}
	if woID > 0 && touches.Has(api.TouchInvoice) && wo != nil && wo.InvoiceVisible() {
		part("invoice", func() error {
			inv, err := y.c.GetInvoice(ctx, woID)
			if err == nil {
				rr.Invoice = inv
			}
			return err
		})
	}
	if woID > 0 && touches.Has(api.TouchNote) {
		part("internal note", func() error {
			h, err := y.c.NoteHistory(ctx, woID)
			if err != nil {
				return err
			}
			raw, err := json.Marshal(h)
			if err == nil {
				rr.NoteHistory = raw
			}
			return err
		})
	}
	if woID > 0 && touches.Has(api.TouchProcedures) {
		part("procedures", func() error {
			procs, err := y.c.GetProcedures(ctx, woID)
			if err == nil {
				rr.Procedures = &procs
			}
			return err
		})
	}
	if touches.Has(api.TouchSettings) {
		part("customer settings", func() error {
			customers, err := y.s.knownCustomers(ctx)
			if err != nil {
				return err
			}
			for _, id := range customers {
				cs, err := y.c.GetCustomerSettings(ctx, id)
				if err != nil {
					return err
				}
				mu.Lock()
				rr.Settings = append(rr.Settings, *cs)
				mu.Unlock()
			}
			return nil
		})
	}
	wg.Wait()
	return rr, errors.Join(errs...)
}
