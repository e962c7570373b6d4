package storage

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestQuotesRefusedAreRemembered: what the service refused once, it is
// told. A 3004 at a customer closes quotes there (on every work order of
// that customer, not others) until the person asks to try again.
func TestQuotesRefusedAreRemembered(t *testing.T) {
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	quotable := func(customer string) func(*api.WorkOrder) bool {
		return func(wo *api.WorkOrder) bool {
			return wo.Customer.Name == customer && wo.Can(api.SubmitQuote) == nil && wo.Created.After(api.Version41Date)
		}
	}
	used := map[int64]bool{}
	fresh := func(customer string) *api.WorkOrder {
		t.Helper()
		ok := quotable(customer)
		return pick(t, s, func(wo *api.WorkOrder) bool {
			if used[wo.WorkOrderId] || !ok(wo) {
				return false
			}
			used[wo.WorkOrderId] = true
			return true
		})
	}
	sakura := fresh("Sakura Mart Japan")
	// Above the work order's NTE, whatever the generated world gave it: a
	// quote at or below it is refused here for that, before the customer's
	// refusal could be what the test sees.
	amount := func(wo *api.WorkOrder) api.Money {
		t.Helper()
		m, err := wo.Nte.Amount.In(wo.Currency).Add(api.MustMoney("250000", wo.Currency))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	row := mustRow(t)(s.SubmitQuote(ctx, sakura.WorkOrderId, amount(sakura), "Compressor replacement", nil))
	sendAll(t, x)
	if got := rowState(t, s, row.Id); got.State != OutboxFailed || got.ErrorCode != api.CodeQuotesNotAllowed {
		t.Fatalf("the quote at a customer that allows none: %s code %d", got.State, got.ErrorCode)
	}
	r, err := s.QuotesRefused(ctx, sakura.Customer.Id)
	if err != nil || r == nil || r.Message == "" {
		t.Fatalf("the refusal was not remembered: %+v, %v", r, err)
	}
	if err := s.Discard(ctx, row.Id); err != nil {
		t.Fatal(err)
	}
	other := fresh("Sakura Mart Japan")
	_, err = s.SubmitQuote(ctx, other.WorkOrderId, amount(other), "Another one", nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "does not accept quotes") {
		t.Fatalf("a second quote at the same customer: %v; want it refused here, saying why", err)
	}
	// Another customer is not touched.
	north := fresh("Northwind Retail")
	if _, err := s.SubmitQuote(ctx, north.WorkOrderId, api.MustMoney("9000", north.Currency), "More pipe", nil); err != nil {
		t.Fatalf("a quote at another customer: %v", err)
	}
	// Try again: the next one goes to the service, which judges it again.
	if err := s.TryQuotesAgain(ctx, sakura.Customer.Id); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.QuotesRefused(ctx, sakura.Customer.Id); r != nil {
		t.Fatalf("still refused after Try again: %+v", r)
	}
	again := mustRow(t)(s.SubmitQuote(ctx, other.WorkOrderId, amount(other), "The customer changed its mind", nil))
	sendAll(t, x)
	if got := rowState(t, s, again.Id); got.ErrorCode != api.CodeQuotesNotAllowed {
		t.Fatalf("tried again: %s code %d, want the service's 3004 again", got.State, got.ErrorCode)
	}
	if r, _ := s.QuotesRefused(ctx, sakura.Customer.Id); r == nil {
		t.Fatal("the new refusal was not remembered")
	}
}
