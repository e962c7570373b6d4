// Package quote is the Quote tab of a work order: the current quote, with
// its lines and, once rejected, the customer's reason and ours, each
// labelled; and the form to ask for a higher NTE, typed or made of lines
// from the customer's price list, queued through the outbox. A customer
// the service said accepts no quotes keeps the form closed, with Try
// again. It depends only on the small interfaces below, never on the
// window that shows it, so it is tested against a fake (fake_test.go).
package quote

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the tab reads of the local replica (a *storage.Store).
type Replica interface {
	// PriceList is the work order's customer's price list (nil until it
	// was read online).
	PriceList(ctx context.Context, woID int64) (*api.PriceList, error)
	// OutboxRows and Events are our actions on the work order and the
	// notifications received for it: a rejected quote's reasons, ours and
	// the customer's, are read from them.
	OutboxRows(ctx context.Context, woID int64) ([]storage.OutboxRow, error)
	Events(ctx context.Context, woID int64) ([]storage.EventRecord, error)
	// QuotesRefused is the service's refusal of a quote because the
	// customer accepts none (3004), remembered per customer; nil if none.
	QuotesRefused(ctx context.Context, customerID int64) (*storage.QuotesRefusal, error)
}

// Queue is what the tab writes (a *storage.Store). SubmitQuote may wait
// for the replica's writer: the tab calls it only inside Window.Act's
// write, off the main goroutine; TryQuotesAgain inside Window.Background.
type Queue interface {
	SubmitQuote(ctx context.Context, woID int64, amount api.Money, reason string, lines []api.LineItem) (*storage.OutboxRow, error)
	// TryQuotesAgain forgets that the customer refused quotes.
	TryQuotesAgain(ctx context.Context, customerID int64) error
}

// Window is what the tab needs of the window around it.
type Window interface {
	ShowError(err error)
	// Queued says what was queued, where the window says it.
	Queued(what string)
	// Act queues an action the controls started: write runs off the main
	// goroutine, done gets its error back on it. The controls stay
	// disabled until then.
	Act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error))
	// Replacing is the context to queue an action on work order woID from
	// the form of group with: while the person corrects a refused action
	// there, the new one replaces it. Read it when the person acts.
	Replacing(woID int64, group outbox.Group) context.Context
	// CorrectingIn reports whether the person is correcting a refused
	// action on work order woID in the form of group (Edit of a refused
	// quote opens the form a customer's refusal of quotes closed).
	CorrectingIn(woID int64, group outbox.Group) bool
	// Background runs f off the main goroutine; Do hands f back to it.
	Background(f func())
	Do(f func())
}
