package storage

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Saving, submitting and emptying the invoice (its attachments are in
// outbox_attachment.go).

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
	return s.enqueue(ctx, newRow{kind: outbox.KindInvoiceSave, summary: "Save invoice", targets: []int64{woID}, messageID: id, request: r})
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
	return s.enqueue(ctx, newRow{kind: outbox.KindInvoiceSubmit, summary: "Submit invoice", targets: []int64{woID}, messageID: id, request: r})
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
		if r.Kind != outbox.KindInvoiceSave || (r.State != OutboxPending && r.State != OutboxSending) {
			continue
		}
		var req api.SaveInvoiceRequest
		if err := json.Unmarshal(r.Request, &req); err != nil {
			return nil, fmt.Errorf("storage: reading row %d: %w", r.Id, err)
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
	return s.enqueue(ctx, newRow{kind: outbox.KindInvoiceDelete, summary: "Delete invoice", targets: []int64{woID},
		messageID: uuid.NewString(), request: outbox.WorkOrderOnly{WorkOrderId: woID}})
}
