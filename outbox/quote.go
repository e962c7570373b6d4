package outbox

import (
	"context"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// Quotes asking the customer to raise the NTE.

const KindQuote Kind = "quoteSubmit"

// FormQuote is the quote's amount, reason and lines.
const FormQuote Form = "quote"

// draftQuote reads back a quote's amount, reason and lines, in currency.
func draftQuote(q *api.QuoteRequest, currency string) *Draft {
	d := &Draft{Text: q.Comment, Amount: q.Amount.In(currency), Lines: q.LineItems}
	for i := range d.Lines {
		d.Lines[i].Rate = d.Lines[i].Rate.In(currency)
		d.Lines[i].Subtotal = d.Lines[i].Subtotal.In(currency)
	}
	return d
}

var _ = register(GroupQuote,
	def(&Entry{
		Kind: KindQuote, Rule: api.SubmitQuote, Noun: "Quote",
		Route:     Route{http.MethodPut, "/api/workOrder/quoteSubmit"},
		Colleague: Colleague{Event: "QuoteSubmitted", Verb: "submitted a quote", Of: "for"},
		Conflicts: []Kind{KindQuote},
		Fix:       &Fix{Form: FormQuote, Again: "submit it"},
		Judged: "the work order's quote, re-read: one of this amount is submitted or approved. The service holds one " +
			"outstanding quote at a time, so sending ours again would be refused as a second one.",
	}, spec[api.QuoteRequest]{
		call:  noResult((*api.Client).SubmitQuote),
		draft: draftQuote,
		// While it waits, the work order shows the quote as submitted,
		// with the amount, reason and lines the person gave.
		effect: func(_ context.Context, wo *api.WorkOrder, r *api.QuoteRequest, _ Env) {
			q := &api.Quote{}
			if wo.Nte.Quote != nil {
				*q = *wo.Nte.Quote
			}
			d := draftQuote(r, wo.Currency)
			q.QuoteStatus = api.QuoteSubmitted
			q.Amount, q.Comment, q.LineItems = d.Amount, d.Text, d.Lines
			wo.Nte.Quote = q
		},
		landed: func(ctx context.Context, c *api.Client, r *api.QuoteRequest, q *LandedQuery) (bool, any, error) {
			wo, err := c.GetWorkOrder(ctx, q.WorkOrders[0])
			if err != nil {
				return false, nil, err
			}
			qt := wo.Nte.Quote
			return qt != nil && (qt.QuoteStatus == api.QuoteSubmitted || qt.QuoteStatus == api.QuoteApproved) &&
				qt.Amount.Amount.Equal(r.Amount.Amount), nil, nil
		},
	}),
)
