package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestWritesNamePerformedBy: every write whose body documents the acting
// person carries PerformedBy {Name} of the person the client acts for, and
// an upload carries it as a form field; reads and the search do not, and a
// client acting for nobody sends none.
func TestWritesNamePerformedBy(t *testing.T) {
	ctx := context.Background()
	now := time.Now().UTC()
	writes := []struct {
		name string
		call func(c *Client) error
	}{
		{"accept", func(c *Client) error { return c.Accept(ctx, &AcceptRequest{WorkOrderId: 1}) }},
		{"reject", func(c *Client) error { return c.Reject(ctx, &RejectRequest{WorkOrderId: 1, Comment: "no capacity"}) }},
		{"bulk accept", func(c *Client) error {
			_, err := c.BulkAccept(ctx, &BulkRequest{WorkOrderIds: []int64{1, 2}})
			return err
		}},
		{"appointment", func(c *Client) error {
			return c.UpdateAppointment(ctx, &AppointmentRequest{WorkOrderId: 1, ScheduledStart: now})
		}},
		{"check in", func(c *Client) error { return c.CheckIn(ctx, &VisitRequest{WorkOrderId: 1}) }},
		{"pause", func(c *Client) error { return c.Pause(ctx, &VisitRequest{WorkOrderId: 1}) }},
		{"check out", func(c *Client) error {
			return c.CheckOut(ctx, &CheckOutRequest{VisitRequest: VisitRequest{WorkOrderId: 1}})
		}},
		{"work done details", func(c *Client) error { return c.WorkDoneDetails(ctx, &WorkDoneDetailsRequest{WorkOrderId: 1}) }},
		{"quote", func(c *Client) error {
			return c.SubmitQuote(ctx, &QuoteRequest{WorkOrderId: 1, Amount: Money{Amount: decimal.NewFromInt(10)}, Comment: "more"})
		}},
		{"message", func(c *Client) error { return c.SendMessage(ctx, &MessageRequest{WorkOrderId: 1, Text: "hi"}) }},
		{"invoice save", func(c *Client) error {
			_, err := c.SaveInvoice(ctx, &SaveInvoiceRequest{WorkOrderId: 1})
			return err
		}},
		{"invoice submit", func(c *Client) error {
			_, err := c.SubmitInvoice(ctx, &SubmitInvoiceRequest{WorkOrderId: 1})
			return err
		}},
	}
	for _, who := range []string{"Ana Ruiz", ""} {
		c, fs := answering(t, 200, `{}`)
		fs.setAnswer(func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.Header().Set("Content-Type", "application/json")
			if strings.Contains(r.URL.Path, "/bulk/") {
				io.WriteString(w, `[]`)
				return
			}
			io.WriteString(w, `{}`)
		})
		c.SetPerformedBy(who)
		for _, w := range writes {
			if err := w.call(c); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			calls := fs.apiCalls()
			var body struct{ PerformedBy *Sender }
			if err := json.Unmarshal(calls[len(calls)-1].Body, &body); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			switch {
			case who != "" && (body.PerformedBy == nil || body.PerformedBy.Name != who):
				t.Errorf("%s for %q: PerformedBy %+v", w.name, who, body.PerformedBy)
			case who == "" && body.PerformedBy != nil:
				t.Errorf("%s for nobody: PerformedBy %+v", w.name, body.PerformedBy)
			}
		}
		if _, err := c.UploadAttachment(ctx, 1, Upload{Name: "a.pdf", Content: bytes.NewReader([]byte("%PDF"))}); err != nil {
			t.Fatal(err)
		}
		calls := fs.apiCalls()
		if has := strings.Contains(string(calls[len(calls)-1].Body), `name="PerformedBy.Name"`+"\r\n\r\n"+who); has != (who != "") {
			t.Errorf("upload for %q: PerformedBy.Name field present %v", who, has)
		}
		if _, err := c.SearchWorkOrders(ctx, SearchParameters{}); err != nil {
			t.Fatal(err)
		}
		calls = fs.apiCalls()
		if strings.Contains(string(calls[len(calls)-1].Body), "PerformedBy") {
			t.Errorf("the search carries PerformedBy: %s", calls[len(calls)-1].Body)
		}
	}
}
