package storage

import (
	"context"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestEventAmountOutsideCurrencyIsLoggedOnly: an NteChanged or
// QuoteChanged whose amount has more decimals than the work order's
// currency (which only the replica knows) is kept in the event log but
// changes nothing.
func TestEventAmountOutsideCurrencyIsLoggedOnly(t *testing.T) {
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
		fresh, err := s.StoreEvent(ctx, ev)
		if err != nil || !fresh {
			t.Fatalf("%s: fresh=%v, %v; want it logged", ev.Header.Action, fresh, err)
		}
	}
	wo, err := s.WorkOrder(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if wo.Nte.Amount.Format() != "¥500" || wo.Nte.Quote != nil {
		t.Errorf("yen amounts with decimals changed the work order: NTE %s, quote %+v", wo.Nte.Amount.Format(), wo.Nte.Quote)
	}
	if evs, _ := s.Events(ctx, 1); len(evs) != 2 {
		t.Errorf("%d events logged, want 2", len(evs))
	}
}
