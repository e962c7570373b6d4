package api

import (
	"context"
	"net/url"
	"strconv"
)

// Step attachment key names are not published (service-facts §4.5); we use
// the natural workOrderId, procedureId, stepId and attachmentId.

func stepQuery(s StepRef) url.Values {
	q := idQuery(s.WorkOrderId)
	q.Set("procedureId", strconv.FormatInt(s.ProcedureId, 10))
	q.Set("stepId", strconv.FormatInt(s.StepId, 10))
	return q
}

type stepAttachmentResponse struct {
	Attachment StepAttachment `json:"Attachment"`
	MessageId  string         `json:"MessageId"`
}

// ListStepAttachments lists every attachment of a step; the service applies no count limit.
func (c *Client) ListStepAttachments(ctx context.Context, s StepRef) ([]StepAttachment, error) {
	return getList[StepAttachment](ctx, c, "api/procedure/step/attachments", stepQuery(s), "Attachments")
}

// StepAttachmentDownloadURL asks for a 15-minute link. Never store it.
func (c *Client) StepAttachmentDownloadURL(ctx context.Context, s StepRef, attachmentId string) (DownloadURL, error) {
	q := stepQuery(s)
	q.Set("attachmentId", attachmentId)
	return c.downloadURL(ctx, "api/procedure/step/attachments/GetDownloadUrl/", q)
}

// UploadStepAttachment attaches a file to a step; allowed only while the
// procedure is editable and not marked N/A.
func (c *Client) UploadStepAttachment(ctx context.Context, s StepRef, up Upload) (*StepAttachment, error) {
	fields := map[string]string{
		"WorkOrderId": strconv.FormatInt(s.WorkOrderId, 10),
		"ProcedureId": strconv.FormatInt(s.ProcedureId, 10),
		"StepId":      strconv.FormatInt(s.StepId, 10),
	}
	var out stepAttachmentResponse
	err := c.upload(ctx, "api/procedure/step/attachments", fields, up, &out)
	return &out.Attachment, err
}

// DeleteStepAttachment removes a file from a step (same rule as upload).
func (c *Client) DeleteStepAttachment(ctx context.Context, s StepRef, attachmentId string) error {
	q := stepQuery(s)
	q.Set("attachmentId", attachmentId)
	return c.deleteQuery(ctx, "api/procedure/step/attachments/", q, nil)
}
