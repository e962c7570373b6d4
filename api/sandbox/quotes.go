package sandbox

import (
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"PUT", "/api/workorder/quotesubmit", kindMutate, (*call).quoteSubmit},
)

// quoteSubmit follows spec §3: from no quote, Requested or Rejected to
// Submitted; the NTE is unchanged until the customer approves.
func (c *call) quoteSubmit() (any, error) {
	var req api.QuoteRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if err := checkText("Comment", req.Comment, true); err != nil {
		return nil, err
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	amount := req.Amount.In(o.wo.Currency)
	if !amount.Amount.IsPositive() {
		return nil, serve.Invalid("Amount", "the quote amount must be greater than zero")
	}
	if !amount.FitsMinorUnits() {
		return nil, serve.Invalid("Amount", "%s amounts have %d decimals; %s has more", o.wo.Currency, api.MinorUnits(o.wo.Currency), amount.Amount)
	}
	if o.wo.Status == api.StatusRejected {
		return nil, business(api.CodeWrongStatus, "Work order %s was rejected; quotes are not possible.", o.wo.WorkOrderNumber)
	}
	if !o.cust.AllowQuotes {
		return nil, business(api.CodeQuotesNotAllowed, "%s does not accept quotes; contact the customer to change the NTE.", o.cust.Customer.Name)
	}
	if q := o.wo.Nte.Quote; q != nil && (q.QuoteStatus == api.QuoteSubmitted || q.QuoteStatus == api.QuoteApproved) {
		return nil, business(api.CodeBusinessRule, "A quote of %s is already %s; the customer must reject the current quote first.",
			q.Amount.In(o.wo.Currency).Format(), q.QuoteStatus)
	}
	if !o.wo.Nte.NoLimit() && amount.Amount.Cmp(o.wo.Nte.Amount.Amount) <= 0 {
		return nil, business(api.CodeBusinessRule, "The quote (%s) must exceed the current NTE (%s); a quote raises the NTE.",
			amount.Format(), o.wo.Nte.Amount.In(o.wo.Currency).Format())
	}
	lines, err := quoteLines(o, req.LineItems)
	if err != nil {
		return nil, err
	}
	o.wo.Nte.Quote = &api.Quote{Amount: amount, Comment: req.Comment, QuoteStatus: api.QuoteSubmitted, LineItems: lines}
	c.s.st.touch(o, c.now)
	c.s.notify.send(o, api.ActionQuoteChanged, apiSender, c.now, api.QuoteChangedEvent{Quote: *o.wo.Nte.Quote})
	return nil, nil
}

// quoteLines checks optional quote line items against the price list and
// computes their subtotals; the service validates them like invoice lines
// (assumption: same rules, without ids).
func quoteLines(o *order, in []api.LineItem) ([]api.LineItem, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make([]api.LineItem, len(in))
	for i, l := range in {
		l.Id = 0
		l.Rate = l.Rate.In(o.wo.Currency)
		if err := applyPriceList(o, &l, i); err != nil {
			return nil, err
		}
		l.Subtotal = l.ComputedSubtotal()
		out[i] = l
	}
	return out, nil
}

// customerSender is how the customer appears in its notifications.
func customerSender(o *order) *api.Sender {
	return &api.Sender{Name: o.cust.Desk, Type: "Customer"}
}

func (s *Sandbox) approveQuote(o *order, now time.Time) error {
	q := o.wo.Nte.Quote
	if q == nil || q.QuoteStatus != api.QuoteSubmitted {
		return business(api.CodeBusinessRule, "Work order %s has no submitted quote to approve.", o.wo.WorkOrderNumber)
	}
	q.QuoteStatus = api.QuoteApproved
	o.wo.Nte.Amount = q.Amount.In(o.wo.Currency)
	s.st.touch(o, now)
	// No NteChanged: the quote decision itself says the NTE moved (service-facts §6).
	s.notify.send(o, api.ActionQuoteChanged, customerSender(o), now, api.QuoteChangedEvent{Quote: *q})
	return nil
}

func (s *Sandbox) rejectQuote(o *order, reason string, now time.Time) error {
	q := o.wo.Nte.Quote
	if q == nil || (q.QuoteStatus != api.QuoteSubmitted && q.QuoteStatus != api.QuoteApproved) {
		return business(api.CodeBusinessRule, "Work order %s has no submitted or approved quote to reject.", o.wo.WorkOrderNumber)
	}
	q.QuoteStatus = api.QuoteRejected
	if reason != "" {
		// Assumption: the customer's remark replaces the contractor's
		// reason, as the QuoteChanged body has a single Comment.
		q.Comment = reason
	}
	s.st.touch(o, now)
	s.notify.send(o, api.ActionQuoteChanged, customerSender(o), now, api.QuoteChangedEvent{Quote: *q})
	return nil
}

// requestQuote moves a work order into Requested; spec §3 leaves the move
// "not shown", so the sandbox allows it where a submission would be allowed.
func (s *Sandbox) requestQuote(o *order, now time.Time) error {
	if !o.cust.AllowQuotes {
		return business(api.CodeQuotesNotAllowed, "%s does not use quotes.", o.cust.Customer.Name)
	}
	if o.wo.Status == api.StatusRejected {
		return wrongStatus(o, "requesting a quote", api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
	}
	if q := o.wo.Nte.Quote; q != nil && q.QuoteStatus != api.QuoteRejected {
		return business(api.CodeBusinessRule, "Work order %s already has a %s quote.", o.wo.WorkOrderNumber, q.QuoteStatus)
	}
	o.wo.Nte.Quote = &api.Quote{
		Amount: api.Money{Currency: o.wo.Currency}, QuoteStatus: api.QuoteRequested,
		Comment: "Please quote the full repair before going ahead.",
	}
	s.st.touch(o, now)
	s.notify.send(o, api.ActionQuoteChanged, customerSender(o), now, api.QuoteChangedEvent{Quote: *o.wo.Nte.Quote})
	return nil
}
