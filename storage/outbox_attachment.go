package storage

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Files: work order attachments (never removable), invoice attachments and
// procedure step attachments.

// uploadPayload is the stored request of an upload; the file itself waits
// in the spool folder.
type uploadPayload struct {
	WorkOrderId       int64                 `json:"WorkOrderId"`
	Step              *api.StepRef          `json:"Step,omitempty"`
	Name              string                `json:"Name"`
	MimeType          string                `json:"MimeType"`
	Size              int64                 `json:"Size"`
	MessageVisibility api.MessageVisibility `json:"MessageVisibility,omitempty"`
	DocumentType      string                `json:"DocumentType,omitempty"`
}

type removePayload struct {
	WorkOrderId  int64        `json:"WorkOrderId"`
	Step         *api.StepRef `json:"Step,omitempty"`
	AttachmentId string       `json:"AttachmentId"`
}

// The list each kind of file lives in at the service, for landed checks.
func listWorkOrderFiles(ctx context.Context, sc *sendCtx, p uploadPayload) ([]api.Attachment, error) {
	return sc.c.ListAttachments(ctx, p.WorkOrderId)
}

func listInvoiceFiles(ctx context.Context, sc *sendCtx, p uploadPayload) ([]api.Attachment, error) {
	return sc.c.ListInvoiceAttachments(ctx, p.WorkOrderId)
}

func listStepFiles(ctx context.Context, sc *sendCtx, p uploadPayload) ([]api.Attachment, error) {
	if p.Step == nil {
		return nil, errLocal{fmt.Errorf("the stored step upload names no step")}
	}
	sas, err := sc.c.ListStepAttachments(ctx, *p.Step)
	out := make([]api.Attachment, len(sas))
	for i, a := range sas {
		out[i] = a.Attachment
	}
	return out, err
}

type fileLister func(context.Context, *sendCtx, uploadPayload) ([]api.Attachment, error)

const (
	KindAttachment              OutboxKind = "attachment"
	KindInvoiceAttachmentAdd    OutboxKind = "invoiceAttachmentAdd"
	KindInvoiceAttachmentRemove OutboxKind = "invoiceAttachmentRemove"
	KindStepAttachmentAdd       OutboxKind = "stepAttachmentAdd"
	KindStepAttachmentRemove    OutboxKind = "stepAttachmentRemove"
)

var _ = register(GroupFile, map[OutboxKind]*action{
	KindAttachment: {
		rule:      api.AttachFile,
		noun:      "File",
		route:     Route{http.MethodPost, "/api/attachments"},
		colleague: Colleague{Event: "AttachmentAddedByContractor", Verb: "added an attachment", Of: "to"},
		send: sendUpload(func(ctx context.Context, c *api.Client, p uploadPayload, up api.Upload) (any, error) {
			return c.UploadAttachment(ctx, p.WorkOrderId, up)
		}),
		refresh: func(ctx context.Context, sc *sendCtx, woID int64) error {
			atts, err := sc.c.ListAttachments(ctx, woID)
			if err != nil {
				return err
			}
			return putAttachments(ctx, sc.s.w, woID, attachmentsWorkOrder, atts, sc.s.now().UnixMilli())
		},
		landed: uploadLanded(listWorkOrderFiles),
	},
})

var _ = register(GroupInvoice, map[OutboxKind]*action{
	KindInvoiceAttachmentAdd: {
		rule:      api.SaveInvoice, // judged as any change of the invoice (CanEditInvoice)
		noun:      "Invoice file",
		route:     Route{http.MethodPost, "/api/invoice/attachments"},
		colleague: Colleague{Event: "InvoiceAttachmentAdded", Verb: "added an invoice attachment", Of: "to"},
		send: sendUpload(func(ctx context.Context, c *api.Client, p uploadPayload, up api.Upload) (any, error) {
			return c.UploadInvoiceAttachment(ctx, p.WorkOrderId, up)
		}),
		refresh: refreshInvoiceFiles,
		landed:  uploadLanded(listInvoiceFiles),
	},
	KindInvoiceAttachmentRemove: {
		rule:      api.SaveInvoice,
		noun:      "Invoice file removal",
		route:     Route{http.MethodDelete, "/api/invoice/attachments"},
		colleague: Colleague{Event: "InvoiceAttachmentDeleted", Verb: "deleted an invoice attachment", Of: "of"},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r removePayload
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			return nil, sc.c.DeleteInvoiceAttachment(ctx, r.WorkOrderId, r.AttachmentId)
		},
		refresh: refreshInvoiceFiles,
		landed:  removeLanded(listInvoiceFiles),
	},
})

var _ = register(GroupStep, map[OutboxKind]*action{
	KindStepAttachmentAdd: {
		rule:      api.AddStepAttachment,
		noun:      "Step file",
		route:     Route{http.MethodPost, "/api/procedure/step/attachments"},
		colleague: Colleague{Event: "StepAttachmentAdded", Verb: "added a step photo", Of: "to"},
		send: sendUpload(func(ctx context.Context, c *api.Client, p uploadPayload, up api.Upload) (any, error) {
			if p.Step == nil {
				return nil, errLocal{fmt.Errorf("the stored step upload names no step")}
			}
			return c.UploadStepAttachment(ctx, *p.Step, up)
		}),
		landed: uploadLanded(listStepFiles),
	},
	KindStepAttachmentRemove: {
		rule:      api.RemoveStepAttachment,
		noun:      "Step file removal",
		route:     Route{http.MethodDelete, "/api/procedure/step/attachments/"},
		colleague: Colleague{Event: "StepAttachmentDeleted", Verb: "deleted a step photo", Of: "of"},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r removePayload
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			if r.Step == nil {
				return nil, errLocal{fmt.Errorf("the stored step removal names no step")}
			}
			return nil, sc.c.DeleteStepAttachment(ctx, *r.Step, r.AttachmentId)
		},
		landed: removeLanded(listStepFiles),
	},
})

func refreshInvoiceFiles(ctx context.Context, sc *sendCtx, woID int64) error {
	atts, err := sc.c.ListInvoiceAttachments(ctx, woID)
	if err != nil {
		return err
	}
	return putAttachments(ctx, sc.s.w, woID, attachmentsInvoice, atts, sc.s.now().UnixMilli())
}

func sendUpload(call func(context.Context, *api.Client, uploadPayload, api.Upload) (any, error)) func(context.Context, *sendCtx) (any, error) {
	return func(ctx context.Context, sc *sendCtx) (any, error) {
		var r uploadPayload
		if err := sc.decode(&r); err != nil {
			return nil, err
		}
		f, err := os.Open(filepath.Join(sc.s.spool, sc.spool))
		if err != nil {
			return nil, errLocal{fmt.Errorf("the copy of %s queued for upload is gone: %w", r.Name, err)}
		}
		defer f.Close()
		up := api.Upload{Name: r.Name, MimeType: r.MimeType, Size: r.Size, Content: f,
			DocumentType: r.DocumentType, MessageVisibility: r.MessageVisibility}
		res, err := call(ctx, sc.c, r, up)
		if fe, ok := errors.AsType[*api.FileError](err); ok {
			// Ours, not the network's: sending again at once would fail alike.
			return nil, errLocal{fmt.Errorf("the copy of %s queued for upload could not be read (%s)", r.Name, fe.Reason())}
		}
		return res, err
	}
}

// uploadLanded: a file cannot be taken back, so it is uploaded again only
// when the service holds fewer files of its name and size than our rows
// that were done with them. The attachment found is the row's result.
func uploadLanded(list fileLister) func(context.Context, *sendCtx) (bool, any, error) {
	return func(ctx context.Context, sc *sendCtx) (bool, any, error) {
		var r uploadPayload
		if err := sc.decode(&r); err != nil {
			return false, nil, err
		}
		atts, err := list(ctx, sc, r)
		if err != nil {
			return false, nil, err
		}
		// A size of 0 is not known (the hub streams files): the name decides.
		sized := func(n int64) bool { return r.Size == 0 || n == 0 || n == r.Size }
		var found []api.Attachment
		for _, a := range atts {
			if a.Name == r.Name && sized(a.Size) {
				found = append(found, a)
			}
		}
		sent, err := sc.doneTwins(ctx, func(o *sendCtx) bool {
			var p uploadPayload
			return o.decode(&p) == nil && p.Name == r.Name && sized(p.Size) && (p.Step == nil) == (r.Step == nil) &&
				(p.Step == nil || *p.Step == *r.Step)
		})
		if err != nil || len(found) <= sent {
			return false, nil, err
		}
		return true, &found[len(found)-1], nil
	}
}

// removeLanded: the removal took effect when the file is no longer listed.
func removeLanded(list fileLister) func(context.Context, *sendCtx) (bool, any, error) {
	return func(ctx context.Context, sc *sendCtx) (bool, any, error) {
		var r removePayload
		if err := sc.decode(&r); err != nil {
			return false, nil, err
		}
		atts, err := list(ctx, sc, uploadPayload{WorkOrderId: r.WorkOrderId, Step: r.Step})
		if err != nil {
			return false, nil, err
		}
		for _, a := range atts {
			if a.AttachmentId == r.AttachmentId {
				return false, nil, nil
			}
		}
		return true, nil, nil
	}
}

// upload validates and spools a file, then queues it.
func (s *Store) upload(ctx context.Context, kind OutboxKind, woID int64, step *api.StepRef, path string, vis api.MessageVisibility, summary string) (*OutboxRow, error) {
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
	p := uploadPayload{WorkOrderId: woID, Step: step, Name: name, MimeType: mt, Size: size, MessageVisibility: vis}
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
	return s.upload(ctx, KindAttachment, woID, nil, path, vis, "Attach")
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
	return s.upload(ctx, KindInvoiceAttachmentAdd, woID, nil, path, "", "Attach to invoice")
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
	return s.enqueue(ctx, newRow{kind: KindInvoiceAttachmentRemove, summary: "Remove invoice attachment", targets: []int64{woID},
		messageID: uuid.NewString(), request: removePayload{WorkOrderId: woID, AttachmentId: attachmentID}})
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
	return s.upload(ctx, KindStepAttachmentAdd, step.WorkOrderId, &step, path, "", "Attach to step")
}

// RemoveStepAttachment queues removing a file from a procedure step.
func (s *Store) RemoveStepAttachment(ctx context.Context, step api.StepRef, attachmentID string) (*OutboxRow, error) {
	if err := s.stepEditable(ctx, api.RemoveStepAttachment, step); err != nil {
		return nil, err
	}
	if attachmentID == "" {
		return nil, invalid("no attachment chosen")
	}
	return s.enqueue(ctx, newRow{kind: KindStepAttachmentRemove, summary: "Remove step attachment", targets: []int64{step.WorkOrderId},
		messageID: uuid.NewString(), request: removePayload{WorkOrderId: step.WorkOrderId, Step: &step, AttachmentId: attachmentID}})
}
