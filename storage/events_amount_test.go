package storage

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestEventAmountOutsideCurrencyIsRefused: an NteChanged or QuoteChanged
// whose amount has more decimals than the work order's currency (which
// only the replica knows) is refused like any malformed notification:
// nothing is logged or changed, and the error tells the receiver to answer
// 400.
func TestEventAmountOutsideCurrencyIsRefused(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{mkWO(woSpec{id: 1, number: "WO-1", status: api.StatusAccepted, nte: "500", currency: "JPY"})}); err != nil {
		t.Fatal(err)
	}
	later := testNow.Add(time.Minute)
	for _, ev := range []api.Event{
		event(t, 1, api.ActionNteChanged, "m1", later, api.NteChangedEvent{Amount: api.MustMoney("900.5", "")}),
		event(t, 1, api.ActionQuoteChanged, "m2", later, api.QuoteChangedEvent{Quote: api.Quote{Amount: api.MustMoney("1200.25", ""), QuoteStatus: api.QuoteApproved}}),
	} {
		out, err := s.StoreEvent(ctx, ev)
		if !errors.Is(err, api.ErrUnacceptableEvent) || out.Fresh || out.Applied {
			t.Fatalf("%s: %+v, %v; want it refused as unacceptable", ev.Header.Action, out, err)
		}
	}
	wo, err := s.WorkOrder(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if wo.Nte.Amount.Format() != "¥500" || wo.Nte.Quote != nil {
		t.Errorf("yen amounts with decimals changed the work order: NTE %s, quote %+v", wo.Nte.Amount.Format(), wo.Nte.Quote)
	}
	if evs, _ := s.Events(ctx, 1); len(evs) != 0 {
		t.Errorf("%d refused events logged, want none", len(evs))
	}
	// A whole yen amount is fine, and applied.
	out, err := s.StoreEvent(ctx, event(t, 1, api.ActionNteChanged, "m3", later, api.NteChangedEvent{Amount: api.MustMoney("900", "")}))
	if err != nil || !out.Fresh || !out.Applied {
		t.Fatalf("a fitting NteChanged: %+v, %v", out, err)
	}
}
