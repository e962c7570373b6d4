package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// Files: work order attachments (never removable), invoice attachments and
// procedure step attachments.

const (
	KindAttachment              Kind = "attachment"
	KindInvoiceAttachmentAdd    Kind = "invoiceAttachmentAdd"
	KindInvoiceAttachmentRemove Kind = "invoiceAttachmentRemove"
	KindStepAttachmentAdd       Kind = "stepAttachmentAdd"
	KindStepAttachmentRemove    Kind = "stepAttachmentRemove"
)

// Upload is the stored request of an upload; the file itself waits in the
// desktop's spool folder (Env.File), or streams through the hub.
type Upload struct {
	WorkOrderId       int64                 `json:"WorkOrderId"`
	Step              *api.StepRef          `json:"Step,omitempty"`
	Name              string                `json:"Name"`
	MimeType          string                `json:"MimeType"`
	Size              int64                 `json:"Size"`
	MessageVisibility api.MessageVisibility `json:"MessageVisibility,omitempty"`
	DocumentType      string                `json:"DocumentType,omitempty"`
}

// Removal is the stored request of a file's removal.
type Removal struct {
	WorkOrderId  int64        `json:"WorkOrderId"`
	Step         *api.StepRef `json:"Step,omitempty"`
	AttachmentId string       `json:"AttachmentId"`
}

// UploadRequest is the stored request of a file upload, for Landed: its
// work order (and step), the file's name and its size in bytes (0 when not
// known: the check then goes by the name).
func UploadRequest(workOrderId int64, step *api.StepRef, name string, size int64) json.RawMessage {
	b, _ := json.Marshal(Upload{WorkOrderId: workOrderId, Step: step, Name: name, Size: size})
	return b
}

// RemoveRequest is the stored request of a file's removal, for Landed.
func RemoveRequest(workOrderId int64, step *api.StepRef, attachmentId string) json.RawMessage {
	b, _ := json.Marshal(Removal{WorkOrderId: workOrderId, Step: step, AttachmentId: attachmentId})
	return b
}

// fileLister is the list a kind of file lives in at the service.
type fileLister func(ctx context.Context, c *api.Client, woID int64, step *api.StepRef) ([]api.Attachment, error)

func listWorkOrderFiles(ctx context.Context, c *api.Client, woID int64, _ *api.StepRef) ([]api.Attachment, error) {
	return c.ListAttachments(ctx, woID)
}

func listInvoiceFiles(ctx context.Context, c *api.Client, woID int64, _ *api.StepRef) ([]api.Attachment, error) {
	return c.ListInvoiceAttachments(ctx, woID)
}

func listStepFiles(ctx context.Context, c *api.Client, _ int64, step *api.StepRef) ([]api.Attachment, error) {
	if step == nil {
		return nil, LocalError{errors.New("the stored step upload names no step")}
	}
	sas, err := c.ListStepAttachments(ctx, *step)
	out := make([]api.Attachment, len(sas))
	for i, a := range sas {
		out[i] = a.Attachment
	}
	return out, err
}

const uploadJudged = "the file's list, re-read: it holds more files of this name (and size, when known) than it held " +
	"just before ours was first sent (Before), so a file of the same name someone else added earlier is never taken " +
	"for ours. A file cannot be taken back: when nothing was kept before the first send, nothing can tell, and the " +
	"person decides."

const removeJudged = "the file's list, re-read: the attachment is no longer listed. Whoever removed it, it is gone as " +
	"ours would leave it."

var _ = register(GroupFile,
	def(&Entry{
		Kind: KindAttachment, Rule: api.AttachFile, Noun: "File",
		Route:     Route{http.MethodPost, "/api/attachments"},
		Colleague: Colleague{Event: "AttachmentAddedByContractor", Verb: "added an attachment", Of: "to"},
		Rereads:   Attachments, Judged: uploadJudged,
	}, spec[Upload]{
		call: sendUpload(func(ctx context.Context, c *api.Client, p *Upload, up api.Upload) (any, error) {
			return c.UploadAttachment(ctx, p.WorkOrderId, up)
		}),
		before: uploadBefore(listWorkOrderFiles),
		landed: uploadLanded(listWorkOrderFiles),
	}),
)

var _ = register(GroupInvoice,
	def(&Entry{
		Kind: KindInvoiceAttachmentAdd, Rule: api.SaveInvoice, // judged as any change of the invoice (CanEditInvoice)
		Noun:      "Invoice file",
		Route:     Route{http.MethodPost, "/api/invoice/attachments"},
		Colleague: Colleague{Event: "InvoiceAttachmentAdded", Verb: "added an invoice attachment", Of: "to"},
		Rereads:   InvoiceAttachments, Judged: uploadJudged,
	}, spec[Upload]{
		call: sendUpload(func(ctx context.Context, c *api.Client, p *Upload, up api.Upload) (any, error) {
			return c.UploadInvoiceAttachment(ctx, p.WorkOrderId, up)
		}),
		before: uploadBefore(listInvoiceFiles),
		landed: uploadLanded(listInvoiceFiles),
	}),
	def(&Entry{
		Kind: KindInvoiceAttachmentRemove, Rule: api.SaveInvoice, Noun: "Invoice file removal",
		Route:     Route{http.MethodDelete, "/api/invoice/attachments"},
		Colleague: Colleague{Event: "InvoiceAttachmentDeleted", Verb: "deleted an invoice attachment", Of: "of"},
		Rereads:   InvoiceAttachments, Judged: removeJudged,
	}, spec[Removal]{
		call: func(ctx context.Context, c *api.Client, r *Removal, _ Env) (any, error) {
			return nil, c.DeleteInvoiceAttachment(ctx, r.WorkOrderId, r.AttachmentId)
		},
		landed: removeLanded(listInvoiceFiles),
	}),
)

var _ = register(GroupStep,
	def(&Entry{
		Kind: KindStepAttachmentAdd, Rule: api.AddStepAttachment, Noun: "Step file",
		Route:     Route{http.MethodPost, "/api/procedure/step/attachments"},
		Colleague: Colleague{Event: "StepAttachmentAdded", Verb: "added a step photo", Of: "to"},
		Judged:    uploadJudged,
	}, spec[Upload]{
		call: sendUpload(func(ctx context.Context, c *api.Client, p *Upload, up api.Upload) (any, error) {
			if p.Step == nil {
				return nil, LocalError{errors.New("the stored step upload names no step")}
			}
			return c.UploadStepAttachment(ctx, *p.Step, up)
		}),
		before: uploadBefore(listStepFiles),
		landed: uploadLanded(listStepFiles),
	}),
	def(&Entry{
		Kind: KindStepAttachmentRemove, Rule: api.RemoveStepAttachment, Noun: "Step file removal",
		Route:     Route{http.MethodDelete, "/api/procedure/step/attachments/"},
		Colleague: Colleague{Event: "StepAttachmentDeleted", Verb: "deleted a step photo", Of: "of"},
		Judged:    removeJudged,
	}, spec[Removal]{
		call: func(ctx context.Context, c *api.Client, r *Removal, _ Env) (any, error) {
			if r.Step == nil {
				return nil, LocalError{errors.New("the stored step removal names no step")}
			}
			return nil, c.DeleteStepAttachment(ctx, *r.Step, r.AttachmentId)
		},
		landed: removeLanded(listStepFiles),
	}),
)

// sendUpload sends the file queued with the row (Env.File) through call.
func sendUpload(call func(context.Context, *api.Client, *Upload, api.Upload) (any, error)) func(context.Context, *api.Client, *Upload, Env) (any, error) {
	return func(ctx context.Context, c *api.Client, r *Upload, env Env) (any, error) {
		f, err := env.File()
		if err != nil {
			return nil, LocalError{fmt.Errorf("the copy of %s queued for upload is gone: %w", r.Name, err)}
		}
		defer f.Close()
		up := api.Upload{Name: r.Name, MimeType: r.MimeType, Size: r.Size, Content: f,
			DocumentType: r.DocumentType, MessageVisibility: r.MessageVisibility}
		res, err := call(ctx, c, r, up)
		if fe, ok := errors.AsType[*api.FileError](err); ok {
			// Ours, not the network's: sending again at once would fail alike.
			return nil, LocalError{fmt.Errorf("the copy of %s queued for upload could not be read (%s)", r.Name, fe.Reason())}
		}
		return res, err
	}
}

// sameFile is the files of list an upload of r would be taken for: of its
// name and, when both are known, its size (0 is not known: the hub
// streams files, and the name decides).
func sameFile(list []api.Attachment, r *Upload) []api.Attachment {
	var out []api.Attachment
	for _, a := range list {
		if a.Name == r.Name && (r.Size == 0 || a.Size == 0 || a.Size == r.Size) {
			out = append(out, a)
		}
	}
	return out
}

// uploadBefore counts the files like r the service holds before r is
// first sent.
func uploadBefore(list fileLister) func(context.Context, *api.Client, *Upload) (json.RawMessage, error) {
	return func(ctx context.Context, c *api.Client, r *Upload) (json.RawMessage, error) {
		atts, err := list(ctx, c, r.WorkOrderId, r.Step)
		if err != nil {
			return nil, err
		}
		return countBefore(len(sameFile(atts, r)))
	}
}

// uploadLanded: a file cannot be taken back, so it is uploaded again only
// when the service holds no more files like it than before it was first
// sent. The newest such file is the write's result.
func uploadLanded(list fileLister) func(context.Context, *api.Client, *Upload, *LandedQuery) (bool, any, error) {
	return func(ctx context.Context, c *api.Client, r *Upload, q *LandedQuery) (bool, any, error) {
		atts, err := list(ctx, c, r.WorkOrderId, r.Step)
		if err != nil {
			return false, nil, err
		}
		found := sameFile(atts, r)
		landed, err := newSince(q, len(found), "nothing recorded how many files of its name the list held before it was sent")
		if err != nil || !landed {
			return false, nil, err
		}
		return true, &found[len(found)-1], nil
	}
}

// removeLanded: the removal took effect when the file is no longer listed.
func removeLanded(list fileLister) func(context.Context, *api.Client, *Removal, *LandedQuery) (bool, any, error) {
	return func(ctx context.Context, c *api.Client, r *Removal, _ *LandedQuery) (bool, any, error) {
		atts, err := list(ctx, c, r.WorkOrderId, r.Step)
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
