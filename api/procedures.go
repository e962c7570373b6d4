package api

import (
	"context"
	"fmt"
	"net/http"
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

// GetProcedures reads a work order's procedures with their steps (GET
// /api/procedure), the source the docs name for the actual procedures and
// for AllowMarkNotApplicable (/docs/completing-procedures, service-facts
// §16). The list's key, Procedures, and the query key workOrderId are our
// guess: a list under another key is an error naming the keys, never an
// empty list, which would read as "no procedures" and wipe the replica's.
func (c *Client) GetProcedures(ctx context.Context, workOrderId int64) ([]Procedure, error) {
	return getList[Procedure](ctx, c, "api/procedure", idQuery(workOrderId), "Procedures")
}

// GetStep reads one step as the service holds it (GET /api/procedure/step;
// the record's key, Step, is our guess). An answer without it is an error,
// never an empty step: a landed check reads "not there" as "send again".
func (c *Client) GetStep(ctx context.Context, s StepRef) (*Step, error) {
	var out struct {
		Step *Step `json:"Step"`
	}
	if err := c.getJSON(ctx, "api/procedure/step", stepQuery(s), &out); err != nil {
		return nil, err
	}
	if out.Step == nil {
		return nil, fmt.Errorf("GET /api/procedure/step: the service's answer had no Step")
	}
	return out.Step, nil
}

// UpdateStep completes a step (PUT /api/procedure/step): its status, value,
// comment and, for a Money step, currency. Only while the work order is
// accepted, checked in, paused or on hold.
func (c *Client) UpdateStep(ctx context.Context, r *StepRequest) error {
	return c.sendJSON(ctx, http.MethodPut, "api/procedure/step", r, nil)
}

// MarkProcedureNotApplicable marks a procedure N/A (PUT
// /api/procedure/markAsNA); a procedure that does not allow it is refused
// with 3030.
func (c *Client) MarkProcedureNotApplicable(ctx context.Context, r *MarkNARequest) error {
	return c.sendJSON(ctx, http.MethodPut, "api/procedure/markAsNA", r, nil)
}
