package storage

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Quotes asking the customer to raise the NTE.

const (
	KindQuote OutboxKind = "quoteSubmit"
)

// FormQuote is the quote's amount, reason and lines.
const FormQuote Form = "quote"

var _ = register(GroupQuote, map[OutboxKind]*action{
	KindQuote: {
		rule:      api.SubmitQuote,
		noun:      "Quote",
		route:     Route{http.MethodPut, "/api/workOrder/quoteSubmit"},
		colleague: Colleague{Event: "QuoteSubmitted", Verb: "submitted a quote", Of: "for"},
		conflicts: []OutboxKind{KindQuote},
		fix:       &fix{form: FormQuote, again: "submit it", draft: draftQuote},
		// While it waits, the work order shows the quote as submitted,
		// with the amount, reason and lines the person gave.
		effect: func(_ context.Context, _ *Store, wo *api.WorkOrder, row *OutboxRow) {
			q := &api.Quote{}
			if wo.Nte.Quote != nil {
				*q = *wo.Nte.Quote
			}
			q.QuoteStatus = api.QuoteSubmitted
			if d, ok := row.Draft(wo.Currency); ok {
				q.Amount, q.Comment, q.LineItems = d.Amount, d.Text, d.Lines
			}
			wo.Nte.Quote = q
		},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.QuoteRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.SubmitQuote(ctx, &r)
		},
		// A quote of this amount is submitted (or already approved):
		// sending it again would be refused as a second outstanding quote.
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			var r api.QuoteRequest
			if err := sc.decode(&r); err != nil {
				return false, nil, err
			}
			wo, err := sc.readWorkOrder(ctx)
			if err != nil {
				return false, nil, err
			}
			q := wo.Nte.Quote
			return q != nil && (q.QuoteStatus == api.QuoteSubmitted || q.QuoteStatus == api.QuoteApproved) &&
				q.Amount.Amount.Equal(r.Amount.Amount), nil, nil
		},
	},
})

// draftQuote reads back a quote's amount, reason and lines, in currency.
func draftQuote(raw json.RawMessage, currency string) (*Draft, error) {
	var q api.QuoteRequest
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, err
	}
	d := &Draft{Text: q.Comment, Amount: q.Amount.In(currency), Lines: q.LineItems}
	for i := range d.Lines {
		d.Lines[i].Rate = d.Lines[i].Rate.In(currency)
		d.Lines[i].Subtotal = d.Lines[i].Subtotal.In(currency)
	}
	return d, nil
}

// SubmitQuote queues a quote asking to raise the NTE to amount.
func (s *Store) SubmitQuote(ctx context.Context, woID int64, amount api.Money, reason string, lines []api.LineItem) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CheckQuote(amount, reason, lines, false); err != nil {
		return nil, refused(err)
	}
	// Correcting the refused quote itself (Edit) is the person trying
	// again; otherwise a customer that refused quotes gets none.
	if replacing(ctx) == 0 {
		if err := s.quotesRefusedError(ctx, wo); err != nil {
			return nil, err
		}
	}
	if amount.Currency == "" {
		amount.Currency = wo.Currency
	}
	id := uuid.NewString()
	r := &api.QuoteRequest{WorkOrderId: woID, Amount: amount, Comment: reason, LineItems: lines}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindQuote, summary: "Quote " + amount.Format(), targets: []int64{woID}, messageID: id, request: r})
}
