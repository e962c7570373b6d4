package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Saving, submitting and emptying the invoice (its attachments are in
// outbox_attachment.go).

const (
	KindInvoiceSave   OutboxKind = "invoiceSave"
	KindInvoiceSubmit OutboxKind = "invoiceSubmit"
	KindInvoiceDelete OutboxKind = "invoiceDelete"
)

// FormInvoice is the invoice's content.
const FormInvoice Form = "invoice"

// What a colleague's invoice actions are called; each conflicts with
// another's submitting or deleting the invoice first.
var (
	invoiceSaved     = Colleague{Event: "InvoiceSaved", Verb: "saved the invoice", Of: "of"}
	invoiceSubmitted = Colleague{Event: "InvoiceSubmitted", Verb: "submitted the invoice", Of: "of", Past: "invoiced"}
	invoiceDeleted   = Colleague{Event: "InvoiceDeleted", Verb: "deleted the invoice", Of: "of"}
	invoiceConflicts = []OutboxKind{KindInvoiceSubmit, KindInvoiceDelete}
)

var _ = register(GroupInvoice, map[OutboxKind]*action{
	// Saving replaces the whole content: sending it twice leaves the same
	// invoice, so it has no landed check.
	KindInvoiceSave: {
		rule:      api.SaveInvoice,
		noun:      "Invoice",
		route:     Route{http.MethodPut, "/api/invoice"},
		colleague: invoiceSaved,
		conflicts: invoiceConflicts,
		fix:       &fix{form: FormInvoice, again: "save it", draft: draftInvoice},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.SaveInvoiceRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			r.Invoice.StampCurrency()
			return sc.c.SaveInvoice(ctx, &r)
		},
	},
	KindInvoiceSubmit: {
		rule:      api.SubmitInvoice,
		noun:      "Invoice submission",
		route:     Route{http.MethodPut, "/api/invoice/submit"},
		colleague: invoiceSubmitted,
		conflicts: invoiceConflicts,
		// A submission carries no content: it submits the invoice as saved.
		fix: &fix{form: FormInvoice, again: "submit it", draft: func(json.RawMessage, string) (*Draft, error) { return &Draft{}, nil }},
		// Submitting a new pre-billed order's invoice accepts the order.
		effect: func(_ context.Context, _ *Store, wo *api.WorkOrder, _ *OutboxRow) {
			if wo.IsPreBilled && wo.Status == api.StatusNew {
				wo.Status = api.StatusAccepted
			}
		},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.SubmitInvoiceRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return sc.c.SubmitInvoice(ctx, &r)
		},
		// Submitted (or further along): a second submission would be refused.
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			inv, err := sc.c.GetInvoice(ctx, sc.row.WorkOrderIds[0])
			if err != nil {
				return false, nil, err
			}
			if inv.Status.Editable() {
				return false, nil, nil
			}
			return true, inv, nil
		},
	},
	KindInvoiceDelete: {
		rule:      api.SaveInvoice, // judged as any change of the invoice (CanEditInvoice)
		noun:      "Invoice deletion",
		route:     Route{http.MethodDelete, "/api/invoice"},
		colleague: invoiceDeleted,
		conflicts: invoiceConflicts,
		record:    forgetInvoice,
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r workOrderPayload
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			return nil, sc.c.DeleteInvoice(ctx, r.WorkOrderId)
		},
	},
})

// draftInvoice reads back a saved invoice's content, in currency.
func draftInvoice(raw json.RawMessage, currency string) (*Draft, error) {
	var q api.SaveInvoiceRequest
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, err
	}
	q.Invoice.Currency = currency
	q.Invoice.StampCurrency()
	return &Draft{Invoice: &q.Invoice}, nil
}

// forgetInvoice is what a done delete does to the replica: the invoice is
// read afresh when next shown.
func forgetInvoice(ctx context.Context, tx *sql.Tx, woID int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM invoices WHERE work_order_id = ?`, woID)
	return err
}

// invoiceWorkOrder is the work order as the person sees it, with its
// stored invoice (nil when never read), for the invoice rules.
func (s *Store) invoiceWorkOrder(ctx context.Context, woID int64) (*api.WorkOrder, *api.Invoice, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, nil, err
	}
	inv, err := s.Invoice(ctx, woID)
	if err != nil {
		inv = nil
	}
	return wo, inv, nil
}

// SaveInvoice queues replacing the invoice content. Lines keep their Id;
// new lines have Id 0.
func (s *Store) SaveInvoice(ctx context.Context, woID int64, inv api.Invoice) (*OutboxRow, error) {
	wo, stored, err := s.invoiceWorkOrder(ctx, woID)
	if err != nil {
		return nil, err
	}
	pl, err := s.PriceList(ctx, woID)
	if err != nil {
		pl = nil // not read yet: the service judges the item modes
	}
	if err := wo.CheckInvoice(inv, stored, pl); err != nil {
		return nil, refused(err)
	}
	inv.Currency = wo.Currency
	inv.WorkOrderId = woID
	inv.StampCurrency()
	id := uuid.NewString()
	r := &api.SaveInvoiceRequest{WorkOrderId: woID, Invoice: inv}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindInvoiceSave, summary: "Save invoice", targets: []int64{woID}, messageID: id, request: r})
}

// SubmitInvoice queues submitting the invoice as it will stand when the
// submission is sent: the stored invoice, or the content of a save still
// queued before it. It must pass the service's submit checks (service-facts
// §4.6). submitAnyway overrides a tax disagreement the service reported (3056).
func (s *Store) SubmitInvoice(ctx context.Context, woID int64, submitAnyway bool) (*OutboxRow, error) {
	wo, stored, err := s.invoiceWorkOrder(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CanEditInvoice(stored); err != nil {
		return nil, refused(err)
	}
	inv, err := s.invoiceToSubmit(ctx, woID, stored)
	if err != nil {
		return nil, err
	}
	pl, err := s.PriceList(ctx, woID)
	if err != nil {
		pl = nil
	}
	if err := wo.CheckSubmit(inv, pl); err != nil {
		return nil, refused(err)
	}
	id := uuid.NewString()
	r := &api.SubmitInvoiceRequest{WorkOrderId: woID, SubmitAnyway: submitAnyway}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindInvoiceSubmit, summary: "Submit invoice", targets: []int64{woID}, messageID: id, request: r})
}

// invoiceToSubmit is the newest queued save's content, else the stored
// invoice, else an empty draft.
func (s *Store) invoiceToSubmit(ctx context.Context, woID int64, stored *api.Invoice) (*api.Invoice, error) {
	rows, err := s.OutboxRows(ctx, woID)
	if err != nil {
		return nil, err
	}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.Kind != KindInvoiceSave || (r.State != OutboxPending && r.State != OutboxSending) {
			continue
		}
		sc := &sendCtx{row: &r}
		var req api.SaveInvoiceRequest
		if err := sc.decode(&req); err != nil {
			return nil, err
		}
		if stored != nil {
			req.Invoice.Status = stored.Status
		}
		return &req.Invoice, nil
	}
	if stored != nil {
		return stored, nil
	}
	return &api.Invoice{Status: api.InvoiceDraft}, nil
}

// DeleteInvoice queues deleting the invoice content.
func (s *Store) DeleteInvoice(ctx context.Context, woID int64) (*OutboxRow, error) {
	wo, stored, err := s.invoiceWorkOrder(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CanEditInvoice(stored); err != nil {
		return nil, refused(err)
	}
	return s.enqueue(ctx, newRow{kind: KindInvoiceDelete, summary: "Delete invoice", targets: []int64{woID},
		messageID: uuid.NewString(), request: workOrderPayload{WorkOrderId: woID}})
}
