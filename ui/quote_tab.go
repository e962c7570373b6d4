package ui

import (
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/quote"
)

// The Quote tab (ui/quote) asks the window whether the person is
// correcting a refused quote (the form a customer's refusal of quotes
// closed opens for it); the Invoice tab asks, through the window, whether
// a quote may be asked for and to open the Quote tab filled.

func (h host) CorrectingIn(woID int64, group outbox.Group) bool {
	c := h.d.correcting
	return c != nil && c.wo == woID && c.group == group
}

// QuoteAllowed is the Quote tab's rule, for the views that offer a quote.
func (h host) QuoteAllowed(wo *api.WorkOrder) (bool, string) { return quote.Allowed(wo) }

// RequestNte opens the Quote tab filled with total and lines.
func (h host) RequestNte(total api.Money, lines []api.LineItem, reason string) {
	q, ok := tabIn[*quote.Tab](h.d.detail)
	if !ok {
		return
	}
	h.d.detail.selectTab(q)
	q.Prefill(total, lines, reason)
}

// A refused quote is corrected in the quote form.
var _ = correctIn(outbox.FormQuote, "in the Quote tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*quote.Tab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	d.unlessTyped(t.HoldsOther(draft), "The Quote tab holds a quote you have not submitted.", "quote", func() {
		start(func() { t.EditDraft(draft) })
	})
	return true
})
