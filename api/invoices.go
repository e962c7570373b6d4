package api

import (
	"context"
	"net/http"
	"strconv"
)

// Invoice operations arrived in service version 4.1; work orders created
// before 13 September 2018 are invisible to them until Completed.

type invoiceResponse struct {
	Invoice   Invoice `json:"Invoice"`
	MessageId string  `json:"MessageId"`
}

// GetInvoice reads a work order's invoice (GET /api/invoice).
func (c *Client) GetInvoice(ctx context.Context, workOrderId int64) (*Invoice, error) {
	var out invoiceResponse
	if err := c.getJSON(ctx, "api/invoice", idQuery(workOrderId), &out); err != nil {
		return nil, err
	}
	return &out.Invoice, nil
}

// SaveInvoiceRequest replaces the invoice content (PUT /api/invoice). Lines
// not referenced by Id are deleted by the service; new lines have Id 0.
type SaveInvoiceRequest struct {
	WorkOrderId int64   `json:"WorkOrderId"`
	Invoice     Invoice `json:"Invoice"`
	Envelope
	Performer
}

// SaveInvoice stores the invoice and returns it as the service computed it.
func (c *Client) SaveInvoice(ctx context.Context, r *SaveInvoiceRequest) (*Invoice, error) {
	var out invoiceResponse
	if err := c.sendJSON(ctx, http.MethodPut, "api/invoice", r, &out); err != nil {
		return nil, err
	}
	return &out.Invoice, nil
}

// DeleteInvoice deletes the invoice content (DELETE /api/invoice).
func (c *Client) DeleteInvoice(ctx context.Context, workOrderId int64) error {
	return c.deleteQuery(ctx, "api/invoice", idQuery(workOrderId), nil)
}

type priceListResponse struct {
	PriceList PriceList `json:"PriceList"`
	MessageId string    `json:"MessageId"`
}

// GetPriceList reads the customer's price list for a work order (GET /api/invoice/pricelist).
func (c *Client) GetPriceList(ctx context.Context, workOrderId int64) (*PriceList, error) {
	var out priceListResponse
	if err := c.getJSON(ctx, "api/invoice/pricelist", idQuery(workOrderId), &out); err != nil {
		return nil, err
	}
	return &out.PriceList, nil
}

// SubmitInvoiceRequest submits the invoice (PUT /api/invoice/submit).
// SubmitAnyway overrides a tax disagreement (3056).
type SubmitInvoiceRequest struct {
	WorkOrderId  int64 `json:"WorkOrderId"`
	SubmitAnyway bool  `json:"SubmitAnyway,omitempty"`
	Envelope
	Performer
}

// SubmitInvoice submits and returns the invoice in its new status.
func (c *Client) SubmitInvoice(ctx context.Context, r *SubmitInvoiceRequest) (*Invoice, error) {
	var out invoiceResponse
	if err := c.sendJSON(ctx, http.MethodPut, "api/invoice/submit", r, &out); err != nil {
		return nil, err
	}
	return &out.Invoice, nil
}

// ListInvoiceAttachments lists the invoice's attachments (GET /api/invoice/attachments).
func (c *Client) ListInvoiceAttachments(ctx context.Context, workOrderId int64) ([]Attachment, error) {
	return getList[Attachment](ctx, c, "api/invoice/attachments", idQuery(workOrderId), "Attachments")
}

// UploadInvoiceAttachment adds an invoice attachment (POST /api/invoice/attachments).
func (c *Client) UploadInvoiceAttachment(ctx context.Context, workOrderId int64, up Upload) (*Attachment, error) {
	var out attachmentResponse
	err := c.upload(ctx, "api/invoice/attachments", map[string]string{"WorkOrderId": strconv.FormatInt(workOrderId, 10)}, up, &out)
	return &out.Attachment, err
}

// DeleteInvoiceAttachment removes an invoice attachment (DELETE /api/invoice/attachments).
func (c *Client) DeleteInvoiceAttachment(ctx context.Context, workOrderId int64, attachmentId string) error {
	q := idQuery(workOrderId)
	q.Set("attachmentId", attachmentId)
	return c.deleteQuery(ctx, "api/invoice/attachments", q, nil)
}

// InvoiceAttachmentDownloadURL asks for a temporary link (GET /api/invoice/attachments/GetDownloadUrl).
func (c *Client) InvoiceAttachmentDownloadURL(ctx context.Context, workOrderId int64, attachmentId string) (DownloadURL, error) {
	q := idQuery(workOrderId)
	q.Set("attachmentId", attachmentId)
	return c.downloadURL(ctx, "api/invoice/attachments/GetDownloadUrl", q)
}
