package storage

import (
	"context"
	"mime"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Files: work order attachments (never removable), invoice attachments and
// procedure step attachments.

// upload validates and spools a file, then queues it.
func (s *Store) upload(ctx context.Context, kind outbox.Kind, woID int64, step *api.StepRef, path string, vis api.MessageVisibility, summary string) (*OutboxRow, error) {
	if err := checkVisibility(vis); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	dst, name, size, err := s.spoolFile(path, id)
	if err != nil {
		return nil, err
	}
	mt := mime.TypeByExtension(strings.ToLower(filepath.Ext(name)))
	if mt == "" {
		mt = "application/octet-stream"
	}
	p := outbox.Upload{WorkOrderId: woID, Step: step, Name: name, MimeType: mt, Size: size, MessageVisibility: vis}
	return s.enqueue(ctx, newRow{kind: kind, summary: summary + " " + name, targets: []int64{woID}, messageID: id,
		request: p, spool: filepath.Base(dst)})
}

// AttachFile queues uploading a file to the work order. The file is copied
// now, so it may be moved or deleted as soon as this returns. Work order
// attachments cannot be removed later.
func (s *Store) AttachFile(ctx context.Context, woID int64, path string, vis api.MessageVisibility) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.AttachFile); err != nil {
		return nil, refused(err)
	}
	return s.upload(ctx, outbox.KindAttachment, woID, nil, path, vis, "Attach")
}

// AddInvoiceAttachment queues uploading a file to the invoice (copied now).
func (s *Store) AddInvoiceAttachment(ctx context.Context, woID int64, path string) (*OutboxRow, error) {
	wo, stored, err := s.invoiceWorkOrder(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CanEditInvoice(stored); err != nil {
		return nil, refused(err)
	}
	return s.upload(ctx, outbox.KindInvoiceAttachmentAdd, woID, nil, path, "", "Attach to invoice")
}

// RemoveInvoiceAttachment queues removing an invoice attachment.
func (s *Store) RemoveInvoiceAttachment(ctx context.Context, woID int64, attachmentID string) (*OutboxRow, error) {
	wo, stored, err := s.invoiceWorkOrder(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CanEditInvoice(stored); err != nil {
		return nil, refused(err)
	}
	if attachmentID == "" {
		return nil, invalid("no attachment chosen")
	}
	return s.enqueue(ctx, newRow{kind: outbox.KindInvoiceAttachmentRemove, summary: "Remove invoice attachment", targets: []int64{woID},
		messageID: uuid.NewString(), request: outbox.Removal{WorkOrderId: woID, AttachmentId: attachmentID}})
}

// stepEditable applies the step rules to the work order as the person sees it.
func (s *Store) stepEditable(ctx context.Context, a api.Action, step api.StepRef) error {
	wo, err := s.expected(ctx, step.WorkOrderId)
	if err != nil {
		return err
	}
	return refused(wo.CanChangeStep(a, step))
}

// AddStepAttachment queues uploading a file to a procedure step (copied now).
func (s *Store) AddStepAttachment(ctx context.Context, step api.StepRef, path string) (*OutboxRow, error) {
	if err := s.stepEditable(ctx, api.AddStepAttachment, step); err != nil {
		return nil, err
	}
	return s.upload(ctx, outbox.KindStepAttachmentAdd, step.WorkOrderId, &step, path, "", "Attach to step")
}

// RemoveStepAttachment queues removing a file from a procedure step.
func (s *Store) RemoveStepAttachment(ctx context.Context, step api.StepRef, attachmentID string) (*OutboxRow, error) {
	if err := s.stepEditable(ctx, api.RemoveStepAttachment, step); err != nil {
		return nil, err
	}
	if attachmentID == "" {
		return nil, invalid("no attachment chosen")
	}
	return s.enqueue(ctx, newRow{kind: outbox.KindStepAttachmentRemove, summary: "Remove step attachment", targets: []int64{step.WorkOrderId},
		messageID: uuid.NewString(), request: outbox.Removal{WorkOrderId: step.WorkOrderId, Step: &step, AttachmentId: attachmentID}})
}
