package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

func isUUID(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}

// TestOperations pins every operation's method, path and identifying keys:
// WorkOrderId in the JSON body for PUT/POST, workOrderId and messageId in
// the query for GET/DELETE.
func TestOperations(t *testing.T) {
	t.Parallel()
	when := time.Date(2024, 3, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	step := StepRef{WorkOrderId: 42, ProcedureId: 7, StepId: 9}
	tests := []struct {
		name   string
		call   func(ctx context.Context, c *Client) error
		answer string // 200 body; "" = {"Url":...}
		method string
		path   string
		query  map[string]string // expected query values besides messageId
		body   map[string]any    // expected JSON body values besides MessageId
	}{
		{name: "search", method: "POST", path: "/Direct/api/workOrder/search",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.SearchWorkOrders(ctx, SearchParameters{Statuses: []WorkOrderStatus{StatusNew}})
				return err
			},
			body: map[string]any{"Parameters": map[string]any{"Statuses": []any{"New"}}}},
		{name: "read", method: "GET", path: "/Direct/api/workOrder", query: map[string]string{"ids": "42"},
			call: func(ctx context.Context, c *Client) error { _, err := c.GetWorkOrders(ctx, []int64{42}); return err }},
		{name: "accept", method: "PUT", path: "/Direct/api/workOrder/accept",
			call: func(ctx context.Context, c *Client) error {
				return c.Accept(ctx, &AcceptRequest{WorkOrderId: 42, Comment: "on our way"})
			},
			body: map[string]any{"WorkOrderId": 42.0, "Comment": "on our way"}},
		{name: "reject", method: "PUT", path: "/Direct/api/workOrder/reject",
			call: func(ctx context.Context, c *Client) error {
				return c.Reject(ctx, &RejectRequest{WorkOrderId: 42, Comment: "no capacity"})
			},
			body: map[string]any{"WorkOrderId": 42.0, "Comment": "no capacity"}},
		{name: "bulk accept", method: "PUT", path: "/Direct/api/bulk/accept", answer: `[]`,
			call: func(ctx context.Context, c *Client) error {
				_, err := c.BulkAccept(ctx, &BulkRequest{WorkOrderIds: []int64{1, 2}})
				return err
			},
			body: map[string]any{"WorkOrderIds": []any{1.0, 2.0}}},
		{name: "bulk reject", method: "PUT", path: "/Direct/api/bulk/reject", answer: `[]`,
			call: func(ctx context.Context, c *Client) error {
				_, err := c.BulkReject(ctx, &BulkRequest{WorkOrderIds: []int64{1}, Comment: "too far"})
				return err
			},
			body: map[string]any{"WorkOrderIds": []any{1.0}, "Comment": "too far"}},
		{name: "appointment", method: "PUT", path: "/Direct/api/workOrder/appointmentInfo",
			call: func(ctx context.Context, c *Client) error {
				return c.UpdateAppointment(ctx, &AppointmentRequest{WorkOrderId: 42, ScheduledStart: when, Pte: "Appointment"})
			},
			body: map[string]any{"WorkOrderId": 42.0, "ScheduledStart": "2024-03-01T08:30:00Z", "Pte": "Appointment"}},
		{name: "check in back-dated", method: "PUT", path: "/Direct/api/workOrder/checkIn",
			call: func(ctx context.Context, c *Client) error {
				return c.CheckIn(ctx, &VisitRequest{WorkOrderId: 42, ActualActionDate: &when})
			},
			body: map[string]any{"WorkOrderId": 42.0, "ActualActionDate": "2024-03-01T08:30:00Z"}},
		{name: "pause", method: "PUT", path: "/Direct/api/workOrder/pause",
			call: func(ctx context.Context, c *Client) error { return c.Pause(ctx, &VisitRequest{WorkOrderId: 42}) },
			body: map[string]any{"WorkOrderId": 42.0}},
		{name: "check out", method: "PUT", path: "/Direct/api/workOrder/checkOut",
			call: func(ctx context.Context, c *Client) error {
				return c.CheckOut(ctx, &CheckOutRequest{VisitRequest: VisitRequest{WorkOrderId: 42, Comment: "fixed"}})
			},
			body: map[string]any{"WorkOrderId": 42.0, "Comment": "fixed"}},
		{name: "check out with completion", method: "PUT", path: "/Direct/api/workOrder/checkOut",
			call: func(ctx context.Context, c *Client) error {
				return c.CheckOut(ctx, &CheckOutRequest{VisitRequest: VisitRequest{WorkOrderId: 42},
					RepairInfo:   &RepairInfo{CodeId: 11, Code: "Replaced part", CategoryId: 2, Category: "HVAC"},
					CustomFields: []CustomField{{Id: "5", Value: "Yes"}}})
			},
			body: map[string]any{"WorkOrderId": 42.0, "RepairInfo.CodeId": 11.0, "RepairInfo.Category": "HVAC",
				"CustomFields": []any{map[string]any{"Id": "5", "Value": "Yes"}}}},
		{name: "work done details", method: "PUT", path: "/Direct/api/workOrder/workDoneDetails",
			call: func(ctx context.Context, c *Client) error {
				return c.WorkDoneDetails(ctx, &WorkDoneDetailsRequest{WorkOrderId: 42, Comment: "coil cleaned",
					RepairInfo: &RepairInfo{CodeId: 11, Code: "Cleaned"}})
			},
			body: map[string]any{"WorkOrderId": 42.0, "Comment": "coil cleaned", "RepairInfo.Code": "Cleaned"}},
		{name: "customer settings", method: "GET", path: "/Direct/api/customerSettings", query: map[string]string{"customerId": "4102"},
			answer: `{"CustomerSettings":{"AllowBackdating":false},"MessageId":"echo"}`,
			call:   func(ctx context.Context, c *Client) error { _, err := c.GetCustomerSettings(ctx, 4102); return err }},
		{name: "quote", method: "PUT", path: "/Direct/api/workOrder/quoteSubmit",
			call: func(ctx context.Context, c *Client) error {
				return c.SubmitQuote(ctx, &QuoteRequest{WorkOrderId: 42, Amount: MustMoney("1500.50", "USD"), Comment: "new compressor"})
			},
			body: map[string]any{"WorkOrderId": 42.0, "Amount": 1500.5, "Comment": "new compressor"}},
		{name: "list messages", method: "GET", path: "/Direct/api/messages", query: map[string]string{"workOrderId": "42"},
			call: func(ctx context.Context, c *Client) error { _, err := c.ListMessages(ctx, 42); return err }},
		{name: "send message", method: "POST", path: "/Direct/api/messages",
			call: func(ctx context.Context, c *Client) error {
				return c.SendMessage(ctx, &MessageRequest{WorkOrderId: 42, Text: "arriving 10:00", MessageVisibility: VisibilityCruOnly})
			},
			body: map[string]any{"WorkOrderId": 42.0, "Text": "arriving 10:00", "MessageVisibility": "CruOnly"}},
		{name: "list attachments", method: "GET", path: "/Direct/api/attachments", query: map[string]string{"workOrderId": "42"},
			call: func(ctx context.Context, c *Client) error { _, err := c.ListAttachments(ctx, 42); return err }},
		{name: "attachment link", method: "GET", path: "/Direct/api/attachments/downloadUrl",
			query: map[string]string{"workOrderId": "42", "attachmentId": "a-1"},
			call: func(ctx context.Context, c *Client) error {
				_, err := c.AttachmentDownloadURL(ctx, 42, "a-1")
				return err
			}},
		{name: "get invoice", method: "GET", path: "/Direct/api/invoice", query: map[string]string{"workOrderId": "42"},
			call: func(ctx context.Context, c *Client) error { _, err := c.GetInvoice(ctx, 42); return err }},
		{name: "save invoice", method: "PUT", path: "/Direct/api/invoice",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.SaveInvoice(ctx, &SaveInvoiceRequest{WorkOrderId: 42, Invoice: Invoice{InvoiceNumber: "INV-9"}})
				return err
			},
			body: map[string]any{"WorkOrderId": 42.0, "Invoice.InvoiceNumber": "INV-9"}},
		{name: "delete invoice", method: "DELETE", path: "/Direct/api/invoice", query: map[string]string{"workOrderId": "42"},
			call: func(ctx context.Context, c *Client) error { return c.DeleteInvoice(ctx, 42) }},
		{name: "price list", method: "GET", path: "/Direct/api/invoice/pricelist", query: map[string]string{"workOrderId": "42"},
			call: func(ctx context.Context, c *Client) error { _, err := c.GetPriceList(ctx, 42); return err }},
		{name: "submit invoice", method: "PUT", path: "/Direct/api/invoice/submit",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.SubmitInvoice(ctx, &SubmitInvoiceRequest{WorkOrderId: 42, SubmitAnyway: true})
				return err
			},
			body: map[string]any{"WorkOrderId": 42.0, "SubmitAnyway": true}},
		{name: "list invoice attachments", method: "GET", path: "/Direct/api/invoice/attachments", query: map[string]string{"workOrderId": "42"},
			call: func(ctx context.Context, c *Client) error { _, err := c.ListInvoiceAttachments(ctx, 42); return err }},
		{name: "delete invoice attachment", method: "DELETE", path: "/Direct/api/invoice/attachments",
			query: map[string]string{"workOrderId": "42", "attachmentId": "a-2"},
			call:  func(ctx context.Context, c *Client) error { return c.DeleteInvoiceAttachment(ctx, 42, "a-2") }},
		{name: "invoice attachment link", method: "GET", path: "/Direct/api/invoice/attachments/GetDownloadUrl",
			query: map[string]string{"workOrderId": "42", "attachmentId": "a-2"},
			call: func(ctx context.Context, c *Client) error {
				_, err := c.InvoiceAttachmentDownloadURL(ctx, 42, "a-2")
				return err
			}},
		{name: "list step attachments", method: "GET", path: "/Direct/api/procedure/step/attachments",
			query: map[string]string{"workOrderId": "42", "procedureId": "7", "stepId": "9"},
			call:  func(ctx context.Context, c *Client) error { _, err := c.ListStepAttachments(ctx, step); return err }},
		{name: "step attachment link", method: "GET", path: "/Direct/api/procedure/step/attachments/GetDownloadUrl/",
			query: map[string]string{"workOrderId": "42", "procedureId": "7", "stepId": "9", "attachmentId": "s-1"},
			call: func(ctx context.Context, c *Client) error {
				_, err := c.StepAttachmentDownloadURL(ctx, step, "s-1")
				return err
			}},
		{name: "delete step attachment", method: "DELETE", path: "/Direct/api/procedure/step/attachments/",
			query: map[string]string{"workOrderId": "42", "procedureId": "7", "stepId": "9", "attachmentId": "s-1"},
			call:  func(ctx context.Context, c *Client) error { return c.DeleteStepAttachment(ctx, step, "s-1") }},
	}
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := tt.answer
			if answer == "" {
				answer = `{"Url":"https://files.example/f?sig=abc","MessageId":"echo"}`
			}
			fs.answerJSON(http.StatusOK, answer)
			if err := tt.call(bg, c); err != nil {
				t.Fatal(err)
			}
			call := fs.lastCall(t)
			if call.Method != tt.method || call.Path != tt.path {
				t.Fatalf("sent %s %s, want %s %s", call.Method, call.Path, tt.method, tt.path)
			}
			if !strings.HasPrefix(call.Bearer, "AAAAtok") {
				t.Errorf("no bearer token sent")
			}
			switch tt.method {
			case "GET", "DELETE":
				if len(call.Body) != 0 {
					t.Errorf("%s carried a body: %s", tt.method, call.Body)
				}
				if !isUUID(call.Query.Get("messageId")) {
					t.Errorf("query messageId = %q, want a UUID", call.Query.Get("messageId"))
				}
				for k, v := range tt.query {
					if got := call.Query.Get(k); got != v {
						t.Errorf("query %s = %q, want %q", k, got, v)
					}
				}
			default:
				if !strings.HasPrefix(call.ContentType, "application/json") {
					t.Errorf("Content-Type = %q", call.ContentType)
				}
				if len(call.Query) != 0 {
					t.Errorf("%s carried a query %v; keys belong in the body", tt.method, call.Query)
				}
				body := decodeBody(t, call.Body)
				if id, _ := body["MessageId"].(string); !isUUID(id) {
					t.Errorf("body MessageId = %v, want a UUID", body["MessageId"])
				}
				for k, v := range tt.body {
					if got := fmt.Sprint(bodyKey(body, k)); got != fmt.Sprint(v) {
						t.Errorf("body %s = %s, want %s", k, got, fmt.Sprint(v))
					}
				}
			}
		})
	}
}

// bodyKey reads a key of a decoded JSON body; "A.B" reads key B of object A.
func bodyKey(body map[string]any, key string) any {
	first, rest, nested := strings.Cut(key, ".")
	if !nested {
		return body[key]
	}
	inner, _ := body[first].(map[string]any)
	return bodyKey(inner, rest)
}

func TestGetWorkOrdersBatchesOf50(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.setAnswer(func(w http.ResponseWriter, r *http.Request, _ []byte) {
		var sb strings.Builder
		sb.WriteString(`{"WorkOrders":[`)
		for i, id := range r.URL.Query()["ids"] {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"WorkOrderId":%s,"Currency":"USD","Nte":{"Amount":100}}`, id)
		}
		sb.WriteString(`]}`)
		io.WriteString(w, sb.String())
	})
	c, _ := fs.client(t, nil)
	ids := make([]int64, 120)
	for i := range ids {
		ids[i] = int64(1000 + i)
	}
	got, err := c.GetWorkOrders(bg, ids)
	if err != nil {
		t.Fatal(err)
	}
	calls := fs.apiCalls()
	var sizes []int
	seen := map[string]bool{}
	for _, call := range calls {
		sizes = append(sizes, len(call.Query["ids"]))
		if seen[call.Query.Get("messageId")] {
			t.Error("two batches shared a messageId")
		}
		seen[call.Query.Get("messageId")] = true
	}
	if fmt.Sprint(sizes) != "[50 50 20]" {
		t.Errorf("batch sizes = %v, want [50 50 20]", sizes)
	}
	if len(got) != 120 {
		t.Fatalf("work orders = %d, want 120", len(got))
	}
	for i, wo := range got {
		if wo.WorkOrderId != ids[i] {
			t.Fatalf("work order %d = %d, want %d (order kept)", i, wo.WorkOrderId, ids[i])
		}
	}
}

func TestMessageId(t *testing.T) {
	t.Parallel()
	const fixed = "6f1c9a52-3c1b-4d8e-9a51-2b8a3f0d7e11"
	const fromCtx = "0e8a4d3c-9b1f-4c7e-8a2d-5f6b7c8d9e0a"
	tests := []struct {
		name string
		ctx  context.Context
		call func(ctx context.Context, c *Client) error
		want string // "" = any fresh UUID
		get  bool
	}{
		{name: "PUT without id gets a UUID", ctx: bg,
			call: func(ctx context.Context, c *Client) error { return c.Accept(ctx, &AcceptRequest{WorkOrderId: 1}) }},
		{name: "PUT keeps the id fixed in the request", ctx: bg, want: fixed,
			call: func(ctx context.Context, c *Client) error {
				return c.Accept(ctx, &AcceptRequest{WorkOrderId: 1, Envelope: Envelope{MessageId: fixed}})
			}},
		{name: "PUT takes the context id", ctx: WithMessageId(bg, fromCtx), want: fromCtx,
			call: func(ctx context.Context, c *Client) error { return c.Accept(ctx, &AcceptRequest{WorkOrderId: 1}) }},
		{name: "request id wins over context id", ctx: WithMessageId(bg, fromCtx), want: fixed,
			call: func(ctx context.Context, c *Client) error {
				return c.CheckIn(ctx, &VisitRequest{WorkOrderId: 1, Envelope: Envelope{MessageId: fixed}})
			}},
		{name: "GET without id gets a UUID", ctx: bg, get: true,
			call: func(ctx context.Context, c *Client) error { _, err := c.GetInvoice(ctx, 1); return err }},
		{name: "GET takes the context id", ctx: WithMessageId(bg, fromCtx), want: fromCtx, get: true,
			call: func(ctx context.Context, c *Client) error { _, err := c.GetInvoice(ctx, 1); return err }},
		{name: "DELETE takes the context id", ctx: WithMessageId(bg, fromCtx), want: fromCtx, get: true,
			call: func(ctx context.Context, c *Client) error { return c.DeleteInvoice(ctx, 1) }},
	}
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	prev := ""
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(tt.ctx, c); err != nil {
				t.Fatal(err)
			}
			call := fs.lastCall(t)
			var got string
			if tt.get {
				got = call.Query.Get("messageId")
			} else {
				got, _ = decodeBody(t, call.Body)["MessageId"].(string)
			}
			switch {
			case tt.want != "" && got != tt.want:
				t.Errorf("MessageId = %q, want %q", got, tt.want)
			case tt.want == "" && (!isUUID(got) || got == prev):
				t.Errorf("MessageId = %q, want a fresh UUID", got)
			}
			prev = got
		})
	}
}

func TestErrorAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		body        string
		check       func(error) bool
		wantCode    int
		wantMsg     string
		wantBiz     bool
		wantTemp    bool
		wantValid   int
		wantEchoId  string // "" = the request's MessageId
		wantInError []string
	}{
		{name: "wrong status", status: 400, body: `{"Code":3001,"Message":"Work order status does not allow this operation","MessageId":"srv-1"}`,
			check: IsWrongStatus, wantCode: 3001, wantMsg: "Work order status does not allow this operation", wantBiz: true, wantEchoId: "srv-1",
			wantInError: []string{"3001", "PUT /api/workOrder/accept"}},
		{name: "recalled", status: 400, body: `{"Code":3005,"Message":"Work order was recalled"}`,
			check: IsNotFoundOrRecalled, wantCode: 3005, wantMsg: "Work order was recalled", wantBiz: true},
		{name: "plain 404", status: 404, body: `<html>Not Found</html>`,
			check: IsNotFoundOrRecalled, wantMsg: "<html>Not Found</html>", wantBiz: true},
		{name: "quotes not allowed", status: 400, body: `{"Code":3004,"Message":"Customer does not accept quotes"}`,
			check: IsQuotesNotAllowed, wantCode: 3004, wantMsg: "Customer does not accept quotes", wantBiz: true},
		{name: "validation", status: 400,
			body:  `{"Code":2100,"Message":"Request model is invalid","ValidationErrors":[{"Type":"Required","Message":"Comment is required"},{"Type":"Length","Message":"Text too long"}]}`,
			check: func(err error) bool { return HasCode(err, CodeInvalidModel) }, wantCode: 2100, wantMsg: "Request model is invalid",
			wantBiz: true, wantValid: 2, wantInError: []string{"Comment is required", "Text too long"}},
		{name: "server fault", status: 500, body: `{"Code":0,"Message":"Internal error"}`,
			check: IsTemporary, wantMsg: "Internal error", wantTemp: true},
		{name: "unavailable, empty body", status: 503, body: ``,
			check: IsTemporary, wantMsg: "Service Unavailable", wantTemp: true},
		{name: "throttled", status: 429, body: ``,
			check: IsTemporary, wantMsg: "Too Many Requests", wantTemp: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeService(t)
			fs.answerJSON(tt.status, tt.body)
			c, _ := fs.client(t, nil)
			r := &AcceptRequest{WorkOrderId: 42}
			err := c.Accept(bg, r)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *api.Error", err, err)
			}
			if !tt.check(err) {
				t.Errorf("helper does not recognise %v", err)
			}
			if e.StatusCode != tt.status || e.Code != tt.wantCode || e.Message != tt.wantMsg {
				t.Errorf("Error = {HTTP %d, Code %d, %q}, want {%d, %d, %q}", e.StatusCode, e.Code, e.Message, tt.status, tt.wantCode, tt.wantMsg)
			}
			if len(e.ValidationErrors) != tt.wantValid {
				t.Errorf("ValidationErrors = %v", e.ValidationErrors)
			}
			wantId := tt.wantEchoId
			if wantId == "" {
				wantId = r.MessageId
			}
			if e.MessageId != wantId {
				t.Errorf("MessageId = %q, want %q", e.MessageId, wantId)
			}
			if IsBusiness(err) != tt.wantBiz || IsTemporary(err) != tt.wantTemp {
				t.Errorf("IsBusiness = %v, IsTemporary = %v; want %v, %v", IsBusiness(err), IsTemporary(err), tt.wantBiz, tt.wantTemp)
			}
			for _, s := range tt.wantInError {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Error() = %q lacks %q", err.Error(), s)
				}
			}
		})
	}
}

func TestNetworkFailureIsTemporary(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	fs.apiSrv.Close()
	err := c.Accept(bg, &AcceptRequest{WorkOrderId: 1})
	if err == nil || !IsTemporary(err) || IsBusiness(err) {
		t.Fatalf("err = %v: want temporary, not business", err)
	}
}

func TestCancelledCallIsNotTemporary(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	err := c.Accept(ctx, &AcceptRequest{WorkOrderId: 1})
	if err == nil || IsTemporary(err) {
		t.Fatalf("err = %v: a call the caller cancelled is not worth retrying", err)
	}
}

func TestLocalChecksAreBusinessErrors(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	tests := []struct {
		name string
		call func() error
	}{
		{"reject without reason", func() error { return c.Reject(bg, &RejectRequest{WorkOrderId: 1}) }},
		{"comment over 3000", func() error {
			return c.Accept(bg, &AcceptRequest{WorkOrderId: 1, Comment: strings.Repeat("é", 3001)})
		}},
		{"quote of zero", func() error {
			return c.SubmitQuote(bg, &QuoteRequest{WorkOrderId: 1, Amount: MustMoney("0", "USD"), Comment: "x"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !IsBusiness(err) {
				t.Errorf("err = %v, want a business error", err)
			}
		})
	}
	if n := len(fs.apiCalls()); n != 0 {
		t.Errorf("%d invalid requests reached the service", n)
	}
	// exactly 3000 characters is allowed
	if err := c.Accept(bg, &AcceptRequest{WorkOrderId: 1, Comment: strings.Repeat("é", 3000)}); err != nil {
		t.Errorf("3000-character comment refused: %v", err)
	}
}

func TestTokenNeverInErrorText(t *testing.T) {
	t.Parallel()
	// Servers that quote the Authorization header back must not leak it
	// into errors, which end up in logs and on screen.
	answers := []struct {
		name   string
		status int
		body   func(auth string) string
	}{
		{"business error quoting the header", 400, func(a string) string {
			return fmt.Sprintf(`{"Code":3000,"Message":"bad request with %s","ValidationErrors":[{"Message":"header %s"}]}`, a, a)
		}},
		{"plain text 500", 500, func(a string) string { return "failed: " + a }},
		{"quoting only the signature half", 400, func(a string) string {
			_, sig, _ := strings.Cut(a, TokenSeparator)
			return `{"Code":3000,"Message":"signature ` + sig + ` unknown"}`
		}},
		{"401 quoting the token", 401, func(a string) string { return `{"Message":"token ` + strings.TrimPrefix(a, "Bearer ") + ` expired"}` }},
	}
	for _, tt := range answers {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeService(t)
			fs.setAnswer(func(w http.ResponseWriter, r *http.Request, _ []byte) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body(r.Header.Get("Authorization")))
			})
			if tt.status == http.StatusUnauthorized {
				fs.rejectAll = true
				fs.unauthorizedBody = tt.body
			}
			c, _ := fs.client(t, nil)
			err := c.Accept(bg, &AcceptRequest{WorkOrderId: 1})
			if err == nil {
				t.Fatal("no error")
			}
			for _, call := range fs.apiCalls() {
				if call.Bearer == "" {
					t.Fatal("call without token")
				}
				if strings.Contains(err.Error(), call.Bearer) || strings.Contains(err.Error(), "SIGNsecretpart") {
					t.Errorf("error text reveals the token: %q", err.Error())
				}
			}
			if strings.Contains(err.Error(), testClientSecret) {
				t.Errorf("error text reveals the client secret")
			}
		})
	}
}

func TestNewClientRejectsBadBaseURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "am-api.corrigopro.com/Direct", "://x"} {
		if _, err := NewClient(u, nil, NewClientCredentials(CredentialsConfig{})); err == nil {
			t.Errorf("NewClient(%q) accepted", u)
		}
	}
	if _, err := NewClient("https://am-api.corrigopro.com/Direct", nil, nil); err == nil {
		t.Error("NewClient without a token source accepted")
	}
}

func TestDownloadURLLifetime(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.answerJSON(200, `{"Url":"https://files.example/s?sig=1"}`)
	c, _ := fs.client(t, nil)
	before := time.Now()
	link, err := c.StepAttachmentDownloadURL(bg, StepRef{WorkOrderId: 1, ProcedureId: 2, StepId: 3}, "x")
	if err != nil {
		t.Fatal(err)
	}
	if r := link.Remaining(before); r < StepLinkLifetime {
		t.Errorf("link lifetime = %v, want the documented 15 minutes", r)
	}
	if strings.Contains(link.String(), "sig=1") || strings.Contains(fmt.Sprint(link), "sig=1") {
		t.Errorf("String() reveals the link: %s", link)
	}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("opened", "link", link)
	if strings.Contains(logged.String(), "sig=1") || !strings.Contains(logged.String(), "download link") {
		t.Errorf("a log line shows the link: %s", logged.String())
	}
	fs.answerJSON(200, `{}`)
	if _, err := c.StepAttachmentDownloadURL(bg, StepRef{WorkOrderId: 1}, "x"); err == nil {
		t.Error("an answer without a link was accepted")
	}
}

func TestAnswerBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		wantErr bool
	}{
		{"empty 200 is a success", "", false},
		{"whitespace 200 is a success", " \n", false},
		{"unknown fields are tolerated", `{"Invoice":{"WorkOrderId":1,"Brand":"new"},"Other":[1]}`, false},
		{"broken JSON is an error", `{"Invoice":`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeService(t)
			fs.answerJSON(200, tt.body)
			c, _ := fs.client(t, nil)
			_, err := c.GetInvoice(bg, 1)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil && (IsTemporary(err) || IsBusiness(err)) {
				t.Errorf("an unreadable answer is neither temporary nor a business refusal: %v", err)
			}
		})
	}
}
