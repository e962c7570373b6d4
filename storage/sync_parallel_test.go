package storage

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestSyncKeepsAtMostParallelReadsInFlight counts, at the wire, how many
// GET /api/workOrder calls the first sync has open at once. The first reads
// are held until as many as the bound are open (then a moment more, so a
// read past the bound would be seen): the peak is then exactly
// SyncOptions.Parallel (4 when unset), never more (a customer's service
// throttles) and not fewer (sync would be slower than it has to be). A
// sync that opens fewer fails when the hold gives up after 10 s.
func TestSyncKeepsAtMostParallelReadsInFlight(t *testing.T) {
	t.Parallel()
	svc := newService(t, 260) // 6 batches of at most 50: more than any bound below
	all, err := svc.client.SearchWorkOrders(context.Background(), api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	batches := (len(all) + api.MaxReadBatch - 1) / api.MaxReadBatch
	for _, c := range []struct {
		parallel, want int
	}{{1, 1}, {2, 2}, {3, 3}, {0, 4}} {
		if batches <= c.want {
			t.Fatalf("the world has %d batches; the test needs more than %d to see the bound", batches, c.want)
		}
		s, _ := openTest(t)
		s.now = svc.sb.Clock().Now
		svc.wire.reset()
		var reached atomic.Bool
		svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
			if r.Method != http.MethodGet || r.URL.Path != "/api/workOrder" || reached.Load() {
				return pass
			}
			if !waitFor(10*time.Second, func() bool { return reached.Load() || svc.wire.inFlightNow(r.Method, r.URL.Path) >= c.want }) {
				t.Errorf("Parallel %d: reads were held 10 s and only %d were ever open at once", c.parallel, svc.wire.peakInFlight(r.Method, r.URL.Path))
			}
			reached.Store(true)
			time.Sleep(20 * time.Millisecond) // room for one read too many to show; no assertion hangs on its length
			return pass
		})
		if err := NewSyncer(s, svc.client, SyncOptions{Parallel: c.parallel}).SyncNow(context.Background()); err != nil {
			t.Fatalf("Parallel %d: sync: %v", c.parallel, err)
		}
		if n, _ := s.Count(context.Background()); n != len(all) {
			t.Errorf("Parallel %d: the replica holds %d of %d work orders", c.parallel, n, len(all))
		}
		reads := len(svc.wire.calls(http.MethodGet, "/api/workOrder"))
		if got := svc.wire.peakInFlight(http.MethodGet, "/api/workOrder"); got != c.want {
			t.Errorf("Parallel %d: %d reads were in flight at once (of %d reads); want %d", c.parallel, got, reads, c.want)
		}
	}
}
