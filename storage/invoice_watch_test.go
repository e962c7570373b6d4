package storage

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// After a run that read the whole list of finished work, the next looks
// only at the work orders written since: the invoice of one that changed
// is read again, and no other. A run that stopped leaves the next to read
// the whole list again, so what it did not fetch is fetched.
func TestInvoiceFetchAfterAWholeRunReadsWhatChanged(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s, _ := openTest(t)
	s.now = svc.sb.Clock().Now
	y := NewSyncer(s, svc.client, SyncOptions{})
	ctx := context.Background()
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := y.FetchInvoices(ctx); err != nil {
		t.Fatal(err)
	}
	all := finished(t, s)
	if len(all) < 3 {
		t.Fatalf("the world has only %d finished work orders", len(all))
	}
	// touch writes work orders as a sync does when the service changed them.
	touch := func(ids ...int64) {
		t.Helper()
		for _, id := range ids {
			wo, err := svc.client.GetWorkOrder(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			wo.LastUpdate = s.now().Add(-time.Millisecond) // after the invoice was read, before it is again
			b, err := json.Marshal(wo)
			if err != nil {
				t.Fatal(err)
			}
			var changed api.WorkOrder
			if err := json.Unmarshal(b, &changed); err != nil {
				t.Fatal(err)
			}
			if err := s.PutWorkOrders(ctx, []api.WorkOrder{changed}); err != nil {
				t.Fatal(err)
			}
		}
	}
	fetched := func() []int64 {
		var got []int64
		for _, c := range invoiceCalls(svc) {
			if id, ok := queryID(c); ok {
				got = append(got, id)
			}
		}
		slices.Sort(got)
		return got
	}

	svc.wire.reset()
	touch(all[0])
	if n, err := y.FetchInvoices(ctx); err != nil || n != 1 || !slices.Equal(fetched(), all[:1]) {
		t.Errorf("after one finished work order changed the run stored %d (%v) and read %v; want the invoice of %d", n, err, fetched(), all[0])
	}

	touch(all[1], all[2])
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/invoice" {
			return serverRefusal
		}
		return pass
	})
	if _, err := y.FetchInvoices(ctx); err == nil {
		t.Fatal("a run whose invoice calls were all refused did not say so")
	}
	svc.wire.setFault(nil)
	svc.wire.reset()
	want := []int64{all[1], all[2]}
	slices.Sort(want)
	if n, err := y.FetchInvoices(ctx); err != nil || n != 2 || !slices.Equal(fetched(), want) {
		t.Errorf("after a run that stopped the next stored %d (%v) and read %v; want the invoices of %v", n, err, fetched(), want)
	}
}
