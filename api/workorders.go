package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// MaxReadBatch is how many ids one GET /api/workOrder accepts (service-facts §4.1).
const MaxReadBatch = 50

// DateRange filters a search on one date field; either end may be nil.
type DateRange struct {
	From *time.Time `json:"From,omitempty"`
	To   *time.Time `json:"To,omitempty"`
}

// SearchParameters is the service's SearchModel.
type SearchParameters struct {
	WorkOrderNumber string            `json:"WorkOrderNumber,omitempty"`
	Created         *DateRange        `json:"Created,omitempty"`
	AcknowledgeBy   *DateRange        `json:"AcknowledgeBy,omitempty"`
	OnSiteBy        *DateRange        `json:"OnSiteBy,omitempty"`
	DueDate         *DateRange        `json:"DueDate,omitempty"`
	LastUpdate      *DateRange        `json:"LastUpdate,omitempty"`
	Statuses        []WorkOrderStatus `json:"Statuses,omitempty"`
	CustomerId      int64             `json:"CustomerId,omitempty"`
}

type searchRequest struct {
	Parameters SearchParameters `json:"Parameters"`
	Envelope
}

type workOrdersResponse[T any] struct {
	WorkOrders []T    `json:"WorkOrders"`
	MessageId  string `json:"MessageId"`
}

// decodeWorkOrders reads {"WorkOrders": [...]} in one pass; only an answer
// with none is looked at again, for work orders under another key (which
// must not read as "nothing changed").
func decodeWorkOrders(raw []byte, op string) ([]WorkOrder, error) {
	return decodeWorkOrdersAs[WorkOrder](raw, op)
}

// decodeWorkOrdersAs is decodeWorkOrders into T, which holds the fields
// of a work order its caller reads.
func decodeWorkOrdersAs[T any](raw []byte, op string) ([]T, error) {
	var out workOrdersResponse[T]
	if err := json.Unmarshal(raw, &out); err != nil {
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
			return decodeList[T](raw, op, "WorkOrders")
		}
		return nil, fmt.Errorf("%s: %w", op, plainJSONError(err))
	}
	if len(out.WorkOrders) == 0 {
		if _, err := listItems(raw, op, "WorkOrders"); err != nil {
			return nil, err
		}
	}
	return out.WorkOrders, nil
}

// SearchWorkOrders returns basic data of the work orders matching p
// (POST /api/workOrder/search); read full records with GetWorkOrders.
func (c *Client) SearchWorkOrders(ctx context.Context, p SearchParameters) ([]WorkOrder, error) {
	var raw json.RawMessage
	if err := c.sendJSON(ctx, http.MethodPost, "api/workOrder/search", &searchRequest{Parameters: p}, &raw); err != nil {
		return nil, err
	}
	return decodeWorkOrders(raw, "POST /api/workOrder/search")
}

// Found is what a sync reads of each work order a search names: which
// it is, its version, and its customer (whose settings it reads). The
// rest of the answer is read when the work order is, in full
// (GetWorkOrders): at 100,000 work orders the whole answer decoded, each
// record with its JSON kept, was 72 MB.
type Found struct {
	WorkOrderId int64         `json:"WorkOrderId"`
	LastUpdate  time.Time     `json:"LastUpdate"`
	Customer    FoundCustomer `json:"Customer"`
}

// FoundCustomer is the customer a search names.
type FoundCustomer struct {
	Id int64 `json:"Id"`
}

// SearchWorkOrderVersions is SearchWorkOrders keeping only what a sync
// reads of each work order (Found).
func (c *Client) SearchWorkOrderVersions(ctx context.Context, p SearchParameters) ([]Found, error) {
	var raw json.RawMessage
	if err := c.sendJSON(ctx, http.MethodPost, "api/workOrder/search", &searchRequest{Parameters: p}, &raw); err != nil {
		return nil, err
	}
	return decodeWorkOrdersAs[Found](raw, "POST /api/workOrder/search")
}

// GetWorkOrders reads full work orders (GET /api/workOrder), MaxReadBatch ids
// per call; larger requests are split into consecutive calls.
func (c *Client) GetWorkOrders(ctx context.Context, ids []int64) ([]WorkOrder, error) {
	all := make([]WorkOrder, 0, len(ids))
	for start := 0; start < len(ids); start += MaxReadBatch {
		end := min(start+MaxReadBatch, len(ids))
		q := url.Values{}
		for _, id := range ids[start:end] {
			q.Add("ids", strconv.FormatInt(id, 10))
		}
		var raw json.RawMessage
		if err := c.getJSON(ctx, "api/workOrder", q, &raw); err != nil {
			return all, err
		}
		wos, err := decodeWorkOrders(raw, "GET /api/workOrder")
		if err != nil {
			return all, err
		}
		all = append(all, wos...)
	}
	return all, nil
}

// GetWorkOrder reads one work order in full.
func (c *Client) GetWorkOrder(ctx context.Context, id int64) (*WorkOrder, error) {
	wos, err := c.GetWorkOrders(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(wos) == 0 {
		return nil, &Error{StatusCode: http.StatusNotFound, Code: CodeNotFoundOrRecalled, Op: "GET /api/workOrder",
			Message: "work order " + strconv.FormatInt(id, 10) + " was not found"}
	}
	return &wos[0], nil
}

// MaxCommentLength caps comments, reasons and message texts (service-facts §11).
const MaxCommentLength = 3000

// AcceptRequest accepts a New work order (PUT /api/workOrder/accept).
type AcceptRequest struct {
	WorkOrderId int64  `json:"WorkOrderId"`
	Comment     string `json:"Comment,omitempty"`
	Envelope
	Performer
}

func (c *Client) Accept(ctx context.Context, r *AcceptRequest) error {
	if err := checkComment("comment", r.Comment, false); err != nil {
		return err
	}
	return c.sendJSON(ctx, http.MethodPut, "api/workOrder/accept", r, nil)
}

// RejectRequest rejects a New work order; Comment (the reason) is required.
type RejectRequest struct {
	WorkOrderId int64  `json:"WorkOrderId"`
	Comment     string `json:"Comment"`
	Envelope
	Performer
}

func (c *Client) Reject(ctx context.Context, r *RejectRequest) error {
	if err := checkComment("reason", r.Comment, true); err != nil {
		return err
	}
	return c.sendJSON(ctx, http.MethodPut, "api/workOrder/reject", r, nil)
}

// BulkRequest names several work orders for PUT /api/bulk/accept or /api/bulk/reject.
// Shape assumed (service-facts §4.1 says [UNK]): ids plus one shared comment.
type BulkRequest struct {
	WorkOrderIds []int64 `json:"WorkOrderIds"`
	Comment      string  `json:"Comment,omitempty"`
	Envelope
	Performer
}

func (c *Client) BulkAccept(ctx context.Context, r *BulkRequest) ([]BulkResult, error) {
	var out []BulkResult
	err := c.sendJSON(ctx, http.MethodPut, "api/bulk/accept", r, &out)
	return AccountFor(r.WorkOrderIds, out), err
}

func (c *Client) BulkReject(ctx context.Context, r *BulkRequest) ([]BulkResult, error) {
	if err := checkComment("reason", r.Comment, true); err != nil {
		return nil, err
	}
	var out []BulkResult
	err := c.sendJSON(ctx, http.MethodPut, "api/bulk/reject", r, &out)
	return AccountFor(r.WorkOrderIds, out), err
}

// AppointmentRequest sets the scheduled start (PUT /api/workOrder/appointmentInfo).
type AppointmentRequest struct {
	WorkOrderId    int64     `json:"WorkOrderId"`
	ScheduledStart time.Time `json:"ScheduledStart"`
	Pte            string    `json:"Pte,omitempty"`
	Envelope
	Performer
}

func (c *Client) UpdateAppointment(ctx context.Context, r *AppointmentRequest) error {
	return c.sendJSON(ctx, http.MethodPut, "api/workOrder/appointmentInfo", r, nil)
}

// VisitRequest is the body of check-in and pause, and the start of
// check-out's. ActualActionDate back-dates the action; nil (omitted) means
// "now": the service records the time the request arrives. Where the
// customer does not allow back-dating it must be omitted (service-facts
// §4.1); ActualActionDateFor decides it.
type VisitRequest struct {
	WorkOrderId      int64        `json:"WorkOrderId"`
	ActualActionDate *time.Time   `json:"ActualActionDate,omitempty"`
	Comment          string       `json:"Comment,omitempty"`
	Location         *GeoLocation `json:"Location,omitempty"`
	Envelope
	Performer
}

// CheckOutRequest is a check-out with the completion information the
// customer's settings require (service-facts §4.1: RepairInfo, CustomFields).
type CheckOutRequest struct {
	VisitRequest
	RepairInfo   *RepairInfo   `json:"RepairInfo,omitempty"`
	CustomFields []CustomField `json:"CustomFields,omitempty"`
}

func (c *Client) visit(ctx context.Context, path string, r *VisitRequest, payload any) error {
	if err := checkComment("comment", r.Comment, false); err != nil {
		return err
	}
	return c.sendJSON(ctx, http.MethodPut, path, payload, nil)
}

func (c *Client) CheckIn(ctx context.Context, r *VisitRequest) error {
	return c.visit(ctx, "api/workOrder/checkIn", r, r)
}

func (c *Client) Pause(ctx context.Context, r *VisitRequest) error {
	return c.visit(ctx, "api/workOrder/pause", r, r)
}

func (c *Client) CheckOut(ctx context.Context, r *CheckOutRequest) error {
	return c.visit(ctx, "api/workOrder/checkOut", &r.VisitRequest, r)
}

// WorkDoneDetailsRequest completes a work order left in
// NeedsCompletionDetails (PUT /api/workOrder/workDoneDetails). The body
// beyond WorkOrderId is not published: Comment (the work-done description,
// named as in the CompletionInfoChanged notification), RepairInfo and
// CustomFields are our assumption.
type WorkDoneDetailsRequest struct {
	WorkOrderId  int64         `json:"WorkOrderId"`
	Comment      string        `json:"Comment,omitempty"`
	RepairInfo   *RepairInfo   `json:"RepairInfo,omitempty"`
	CustomFields []CustomField `json:"CustomFields,omitempty"`
	Envelope
	Performer
}

func (c *Client) WorkDoneDetails(ctx context.Context, r *WorkDoneDetailsRequest) error {
	if err := checkComment("work-done description", r.Comment, false); err != nil {
		return err
	}
	return c.sendJSON(ctx, http.MethodPut, "api/workOrder/workDoneDetails", r, nil)
}

// QuoteRequest asks to raise the NTE (PUT /api/workOrder/quoteSubmit).
type QuoteRequest struct {
	WorkOrderId int64      `json:"WorkOrderId"`
	Amount      Money      `json:"Amount"`
	Comment     string     `json:"Comment"`
	LineItems   []LineItem `json:"LineItems,omitempty"`
	Envelope
	Performer
}

func (c *Client) SubmitQuote(ctx context.Context, r *QuoteRequest) error {
	if err := checkComment("reason", r.Comment, true); err != nil {
		return err
	}
	if !r.Amount.Amount.IsPositive() {
		return &Error{Op: "PUT /api/workOrder/quoteSubmit", StatusCode: http.StatusBadRequest, Code: CodeInvalidModel,
			Message: "the quote amount must be greater than zero"}
	}
	return c.sendJSON(ctx, http.MethodPut, "api/workOrder/quoteSubmit", r, nil)
}

func checkComment(what, text string, required bool) error {
	if err := CheckText(what, text, required); err != nil {
		return &Error{StatusCode: http.StatusBadRequest, Code: CodeInvalidModel, Op: "checking the request", Message: err.Error()}
	}
	return nil
}

func idQuery(workOrderId int64) url.Values {
	return url.Values{"workOrderId": {strconv.FormatInt(workOrderId, 10)}}
}
