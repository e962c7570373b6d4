package sandbox

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

func TestQuoteLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	id := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) {
		o.wo.Nte = api.Nte{Amount: api.MustMoney("500", "USD")}
	})
	submit := func(amount string) error {
		return e.client.SubmitQuote(e.ctx, &api.QuoteRequest{WorkOrderId: id, Amount: api.MustMoney(amount, "USD"), Comment: "Compressor replacement"})
	}
	err := submit("450.00")
	wantCode(t, err, 3000)
	if !contains(err.Error(), "must exceed the current NTE") {
		t.Fatalf("message: %v", err)
	}
	wantCode(t, submit("1200.005"), 2100) // more decimals than USD has
	if err := submit("1200.00"); err != nil {
		t.Fatal(err)
	}
	w := e.read(id)
	if q := w.Nte.Quote; q == nil || q.QuoteStatus != api.QuoteSubmitted || !q.Amount.Amount.Equal(decimal.RequireFromString("1200")) || q.Comment != "Compressor replacement" {
		t.Fatalf("after submit: %+v", w.Nte)
	}
	if !w.Nte.Amount.Amount.Equal(decimal.NewFromInt(500)) {
		t.Fatal("the NTE moved before approval")
	}
	if q := rcv.wait(t, api.ActionQuoteChanged, id).event.Body.(*api.QuoteChangedEvent).Quote; q.QuoteStatus != api.QuoteSubmitted {
		t.Fatalf("notification for the submission: %+v", q)
	}
	err = submit("1500.00")
	wantCode(t, err, 3000)
	if !contains(err.Error(), "must reject the current quote first") {
		t.Fatalf("second submission: %v", err)
	}
	if err := e.sb.ApproveQuote(id); err != nil {
		t.Fatal(err)
	}
	w = e.read(id)
	if w.Nte.Quote.QuoteStatus != api.QuoteApproved || !w.Nte.Amount.Amount.Equal(decimal.NewFromInt(1200)) {
		t.Fatalf("after approval: %+v", w.Nte)
	}
	wantCode(t, submit("1500.00"), 3000) // approved: still the customer's move
	if err := e.sb.RejectQuote(id, "Please split labour and parts"); err != nil {
		t.Fatal(err)
	}
	if err := submit("1500.00"); err != nil {
		t.Fatalf("resubmission after rejection: %v", err)
	}
	if err := e.sb.RejectQuote(id, "No"); err != nil {
		t.Fatal(err)
	}
	if got := e.read(id).Nte.Quote.QuoteStatus; got != api.QuoteRejected {
		t.Fatalf("status %s", got)
	}
	// Submissions and the customer's decisions all notify: submit,
	// approve, reject, submit, reject.
	waitCount(t, rcv, api.ActionQuoteChanged, 5)
}

func waitCount(t *testing.T, r *receiver, action string, n int) {
	t.Helper()
	for i := 0; i < 2500; i++ {
		c := 0
		for _, a := range r.actions() {
			if a == action {
				c++
			}
		}
		if c >= n {
			return
		}
		sleepBriefly()
	}
	t.Fatalf("fewer than %d %s notifications: %v", n, action, r.actions())
}

func TestQuoteRequestedAndNoLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Harbor Point Hotels", api.StatusCheckedIn, func(o *order) {
		o.wo.Nte = api.Nte{Amount: api.MustMoney("0", "USD")} // no limit: any amount is a valid quote
	})
	if err := e.sb.RequestQuote(id); err != nil {
		t.Fatal(err)
	}
	if q := e.read(id).Nte.Quote; q == nil || q.QuoteStatus != api.QuoteRequested {
		t.Fatalf("after request: %+v", q)
	}
	if err := e.client.SubmitQuote(e.ctx, &api.QuoteRequest{WorkOrderId: id, Amount: api.MustMoney("80", "USD"), Comment: "As requested"}); err != nil {
		t.Fatalf("quote answering a request: %v", err)
	}
}

func TestQuotesNotAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Sakura Mart Japan", api.StatusAccepted, nil)
	err := e.client.SubmitQuote(e.ctx, &api.QuoteRequest{WorkOrderId: id, Amount: api.MustMoney("500000", "JPY"), Comment: "Compressor"})
	wantCode(t, err, 3004)
	if !api.IsQuotesNotAllowed(err) {
		t.Fatal("IsQuotesNotAllowed")
	}
	rej := e.setup("Northwind Retail", api.StatusRejected, nil)
	wantCode(t, e.client.SubmitQuote(e.ctx, &api.QuoteRequest{WorkOrderId: rej, Amount: api.MustMoney("5000", "USD"), Comment: "x"}), 3001)
}

func TestCustomerChangesNte(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	id := e.setup("Sakura Mart Japan", api.StatusAccepted, nil)
	if err := e.sb.SetNte(id, decimal.NewFromInt(120000)); err != nil {
		t.Fatal(err)
	}
	if err := e.sb.SetNte(id, decimal.RequireFromString("120000.5")); err == nil {
		t.Fatal("a JPY NTE with decimals was accepted")
	}
	d := rcv.wait(t, api.ActionNteChanged, id)
	if a := d.event.Body.(*api.NteChangedEvent).Amount; !a.Amount.Equal(decimal.NewFromInt(120000)) || d.event.Header.Sender.Type != "Customer" {
		t.Fatalf("NteChanged: %s", d.body)
	}
}
