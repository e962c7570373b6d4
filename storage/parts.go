package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// The parts of a work order the action table says a write changes besides
// its record (outbox.Parts), as the replica keeps them.

// refreshParts re-reads parts of work order woID from the service into the
// replica.
func (s *Store) refreshParts(ctx context.Context, c *api.Client, woID int64, parts outbox.Parts) error {
	var errs []error
	if parts.Has(outbox.Messages) {
		msgs, err := c.ListMessages(ctx, woID)
		if err == nil {
			err = putMessages(ctx, s.w, woID, msgs, s.now().UnixMilli())
		}
		errs = append(errs, err)
	}
	if parts.Has(outbox.Attachments) {
		atts, err := c.ListAttachments(ctx, woID)
		if err == nil {
			err = putAttachments(ctx, s.w, woID, attachmentsWorkOrder, atts, s.now().UnixMilli())
		}
		errs = append(errs, err)
	}
	if parts.Has(outbox.Invoice) {
		errs = append(errs, s.refreshInvoice(ctx, c, woID))
	}
	if parts.Has(outbox.InvoiceAttachments) {
		atts, err := c.ListInvoiceAttachments(ctx, woID)
		if err == nil {
			err = putAttachments(ctx, s.w, woID, attachmentsInvoice, atts, s.now().UnixMilli())
		}
		errs = append(errs, err)
	}
	if parts.Has(outbox.Note) {
		_, err := s.rereadNote(ctx, c, woID)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// forget drops parts of work order woID from the replica in tx: they are
// read afresh when next shown (a deleted invoice).
func forget(ctx context.Context, tx *sql.Tx, woID int64, parts outbox.Parts) error {
	if parts.Has(outbox.Invoice) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM invoices WHERE work_order_id = ?`, woID); err != nil {
			return err
		}
	}
	return nil
}
