package storage

import (
	"context"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Quotes asking the customer to raise the NTE.

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
	return s.enqueue(ctx, newRow{kind: outbox.KindQuote, summary: "Quote " + amount.Format(), targets: []int64{woID}, messageID: id, request: r})
}
