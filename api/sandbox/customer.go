package sandbox

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// The customer's side of the service. These run in-process (demo mode,
// tests) and over the control API (Control). Each change bumps LastUpdate and
// sends the notification the real customer's action would.

// Customer is what the demo UI can make the customer do. Both *Sandbox and
// *Control implement it.
type Customer interface {
	ApproveQuote(id int64) error
	RejectQuote(id int64, reason string) error
	RequestQuote(id int64) error
	SetNte(id int64, amount decimal.Decimal) error
	DispatchWorkOrder() (api.WorkOrder, error)
	SetInvoiceStatus(id int64, status api.InvoiceStatus, comment string) error
	MarkProcedure(woID, procID int64, na bool, readOnly bool) error
	// Do makes any documented notification action happen (Sandbox.Act).
	Do(id int64, action, comment string) error
}

var (
	_ Customer = (*Sandbox)(nil)
	_ Customer = (*Control)(nil)
)

func (s *Sandbox) withOrder(id int64, f func(o *order, now time.Time) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.st.actionable(id)
	if err != nil {
		return err
	}
	return f(o, s.clock.Now())
}

// ApproveQuote approves the submitted quote: the NTE becomes its amount.
func (s *Sandbox) ApproveQuote(id int64) error { return s.withOrder(id, s.approveQuote) }

// RejectQuote rejects a submitted or approved quote.
func (s *Sandbox) RejectQuote(id int64, reason string) error {
	return s.withOrder(id, func(o *order, now time.Time) error { return s.rejectQuote(o, reason, now) })
}

// RequestQuote asks the contractor for a quote (QuoteStatus Requested).
func (s *Sandbox) RequestQuote(id int64) error { return s.withOrder(id, s.requestQuote) }

// SetNte changes the NTE (0 = no limit) and sends NteChanged.
func (s *Sandbox) SetNte(id int64, amount decimal.Decimal) error {
	return s.withOrder(id, func(o *order, now time.Time) error { return s.setNte(o, amount, now) })
}

func (s *Sandbox) setNte(o *order, amount decimal.Decimal, now time.Time) error {
	m := api.Money{Amount: amount, Currency: o.wo.Currency}
	if amount.IsNegative() || !m.FitsMinorUnits() {
		return business(api.CodeBusinessRule, "%s is not a valid %s NTE", amount, o.wo.Currency)
	}
	if o.wo.Status == api.StatusRejected {
		return wrongStatus(o, "changing the NTE", api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
	}
	o.wo.Nte.Amount = m
	s.st.touch(o, now)
	s.notify.send(o, api.ActionNteChanged, customerSender(o), now, api.NteChangedEvent{Amount: m})
	return nil
}

// DispatchWorkOrder sends the contractor a new work order (status New) and
// a NewWorkOrder notification carrying it in full. The result is a copy.
func (s *Sandbox) DispatchWorkOrder() (api.WorkOrder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	o := s.st.gen.dispatch(now)
	s.st.add(o)
	s.notify.send(o, api.ActionNewWorkOrder, customerSender(o), now, api.NewWorkOrderEvent{Details: o.wo})
	return copyWorkOrder(&o.wo)
}

// copyWorkOrder deep-copies through JSON so callers cannot reach the store.
func copyWorkOrder(w *api.WorkOrder) (api.WorkOrder, error) {
	var out api.WorkOrder
	b, err := json.Marshal(w)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(b, &out)
	return out, err
}

// SetInvoiceStatus moves the invoice as the customer: Authorized (an
// AuthNumber and the amount), Paid (CheckNumber, PaidDate, amount),
// Disputed (comment = the reason). An invoice waiting in
// PendingVerification moves when the work is verified (Act WorkVerified).
func (s *Sandbox) SetInvoiceStatus(id int64, status api.InvoiceStatus, comment string) error {
	return s.withOrder(id, func(o *order, now time.Time) error { return s.setInvoiceStatus(o, status, comment, now) })
}

// MarkProcedure sets a procedure's N/A and read-only flags and sends
// ProcedureMarked.
func (s *Sandbox) MarkProcedure(woID, procID int64, na bool, readOnly bool) error {
	return s.withOrder(woID, func(o *order, now time.Time) error {
		p := o.procedure(procID)
		if p == nil {
			return business(api.CodeNoSuchEntity, "Procedure %d is not on work order %s.", procID, o.wo.WorkOrderNumber)
		}
		p.IsMarkedNa, p.IsReadOnly = na, readOnly
		s.st.touch(o, now)
		s.notify.send(o, api.ActionProcedureMarked, customerSender(o), now, api.ProcedureMarkedEvent{ProcedureId: procID, IsMarkedNa: na})
		return nil
	})
}

// ---- the scripted customer ----

// script is the scripted customer's dice, seeded from the world seed so a
// demo with the same seed and the same contractor actions plays the same.
type script struct {
	rng *rand.Rand
}

func newScript(seed int64) *script {
	return &script{rng: rand.New(rand.NewPCG(uint64(seed), 0xc0ffee))}
}

// CustomerTick makes the scripted customer do one plausible thing and says
// what it did: decide a submitted quote (approve mostly), move a submitted
// invoice to Authorized, an authorized one to Paid (or dispute an invoice
// over the NTE where the customer does not block those), verify the work
// of an invoice waiting for it, ask for a quote, change an NTE, write a
// message, move the deadlines, or dispatch a new work order.
func (s *Sandbox) CustomerTick() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	var quotes, invoices, requestable, ntes, openOrders []*order
	for _, e := range s.st.byUpdate {
		o := s.st.orders[e.id]
		w := &o.wo
		open := statusIn(w.Status, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
		switch {
		case w.Nte.Quote != nil && w.Nte.Quote.QuoteStatus == api.QuoteSubmitted:
			quotes = append(quotes, o)
		case open && w.Nte.Quote == nil && o.cust.AllowQuotes && !w.Nte.NoLimit():
			requestable = append(requestable, o)
		}
		if o.invoice != nil && (o.invoice.Status == api.InvoiceSubmitted || o.invoice.Status == api.InvoiceAuthorized ||
			o.invoice.Status == api.InvoicePendingVerification) {
			invoices = append(invoices, o)
		}
		if open && !w.Nte.NoLimit() && (w.Nte.Quote == nil || w.Nte.Quote.QuoteStatus != api.QuoteSubmitted) {
			ntes = append(ntes, o)
		}
		if open {
			openOrders = append(openOrders, o)
		}
	}
	type option struct {
		weight int
		do     func() (string, error)
	}
	r := s.cust.rng
	pick := func(list []*order) *order { return list[r.IntN(len(list))] }
	var opts []option
	if len(quotes) > 0 {
		opts = append(opts, option{4, func() (string, error) {
			o := pick(quotes)
			if r.IntN(5) < 4 {
				return "approved the quote on " + o.wo.WorkOrderNumber, s.approveQuote(o, now)
			}
			return "rejected the quote on " + o.wo.WorkOrderNumber, s.rejectQuote(o, "Too expensive for this site; please requote with a repair instead of a replacement.", now)
		}})
	}
	if len(invoices) > 0 {
		opts = append(opts, option{4, func() (string, error) {
			o := pick(invoices)
			inv := o.invoice
			nte := o.wo.Nte.Amount
			switch {
			case inv.Status == api.InvoiceAuthorized:
				return "paid the invoice of " + o.wo.WorkOrderNumber, s.setInvoiceStatus(o, api.InvoicePaid, "", now)
			case inv.Status == api.InvoicePendingVerification:
				return "verified the work on " + o.wo.WorkOrderNumber, s.actOn(o, api.ActionWorkVerified, ActOptions{}, now)
			case !nte.IsZero() && inv.TotalAmount.Amount.Cmp(nte.Amount) > 0:
				reason := fmt.Sprintf("Invoice total %s exceeds the approved NTE of %s.", inv.TotalAmount.Format(), nte.In(o.wo.Currency).Format())
				return "disputed the invoice of " + o.wo.WorkOrderNumber, s.setInvoiceStatus(o, api.InvoiceDisputed, reason, now)
			}
			return "authorized the invoice of " + o.wo.WorkOrderNumber, s.setInvoiceStatus(o, api.InvoiceAuthorized, "", now)
		}})
	}
	if len(requestable) > 0 {
		opts = append(opts, option{1, func() (string, error) {
			o := pick(requestable)
			return "requested a quote on " + o.wo.WorkOrderNumber, s.requestQuote(o, now)
		}})
	}
	if len(ntes) > 0 {
		opts = append(opts, option{1, func() (string, error) {
			o := pick(ntes)
			// Raise by 10–30 %, rounded to the currency's minor units.
			pct := decimal.NewFromInt(int64(110 + 5*r.IntN(5))).Div(decimal.NewFromInt(100))
			amt := api.Money{Amount: o.wo.Nte.Amount.Amount.Mul(pct), Currency: o.wo.Currency}.Round()
			return "raised the NTE of " + o.wo.WorkOrderNumber + " to " + amt.Format(), s.setNte(o, amt.Amount, now)
		}})
	}
	if len(openOrders) > 0 {
		// Now and then the customer writes, or gives a day more.
		opts = append(opts, option{1, func() (string, error) {
			o := pick(openOrders)
			return "wrote on " + o.wo.WorkOrderNumber, s.actOn(o, api.ActionMessageSent, ActOptions{}, now)
		}}, option{1, func() (string, error) {
			o := pick(openOrders)
			return "moved the deadlines of " + o.wo.WorkOrderNumber, s.actOn(o, api.ActionSlaChanged, ActOptions{}, now)
		}})
	}
	opts = append(opts, option{2, func() (string, error) {
		o := s.st.gen.dispatch(now)
		s.st.add(o)
		s.notify.send(o, api.ActionNewWorkOrder, customerSender(o), now, api.NewWorkOrderEvent{Details: o.wo})
		return "dispatched " + o.wo.WorkOrderNumber + " (" + o.wo.AccompanyingMessage + ")", nil
	}})
	total := 0
	for _, o := range opts {
		total += o.weight
	}
	n := r.IntN(total)
	for _, o := range opts {
		if n < o.weight {
			return o.do()
		}
		n -= o.weight
	}
	return "", nil
}

func (s *Sandbox) startCustomer(every time.Duration) {
	s.stopTick = make(chan struct{})
	s.tickDone = make(chan struct{})
	go func() {
		defer close(s.tickDone)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				what, err := s.CustomerTick()
				if err != nil {
					s.log.Warn("scripted customer action failed", "err", err)
					continue
				}
				s.log.Info("scripted customer", "did", what)
			case <-s.stopTick:
				return
			}
		}
	}()
}

// StopCustomer stops the scripted customer for good; what the demo's
// Customer menu and the control API make it do still happens. A window
// under test that must hold still (rows that may not move) stops it.
func (s *Sandbox) StopCustomer() { s.stopCustomer() }

func (s *Sandbox) stopCustomer() {
	s.tickMu.Lock()
	defer s.tickMu.Unlock()
	if s.stopTick != nil {
		close(s.stopTick)
		<-s.tickDone
		s.stopTick = nil // stopped once: Close after StopCustomer closes nothing twice
	}
}
