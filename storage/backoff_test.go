package storage

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestDefaultBackoffJitter: each wait lies between half and all of the
// doubling schedule (5 s ... 5 min), and desktops retrying together do not
// all pick the same moment.
func TestDefaultBackoffJitter(t *testing.T) {
	t.Parallel()
	for attempt, full := range map[int]time.Duration{1: 5 * time.Second, 2: 10 * time.Second, 4: 40 * time.Second, 7: 5 * time.Minute, 50: 5 * time.Minute} {
		seen := map[time.Duration]bool{}
		for range 100 {
			d := DefaultBackoff(attempt)
			if d < full/2 || d > full {
				t.Fatalf("attempt %d waits %v, want between %v and %v", attempt, d, full/2, full)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Errorf("attempt %d: 100 desktops would retry at only %d different moments", attempt, len(seen))
		}
	}
}

// TestOutboxHonoursRetryAfter: a service that answers 429 or 503 with
// Retry-After gets its wait, longer than the sender's own back-off; the
// action stays queued with its MessageId and goes once the wait is over.
func TestOutboxHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status int
		header func(now time.Time) string
		want   time.Duration
	}{
		{http.StatusTooManyRequests, func(time.Time) string { return "600" }, 10 * time.Minute},
		{http.StatusServiceUnavailable, func(now time.Time) string { return now.Add(20 * time.Minute).UTC().Format(http.TimeFormat) }, 20 * time.Minute},
	} {
		t.Run(http.StatusText(c.status), func(t *testing.T) {
			t.Parallel()
			svc := newService(t, 70)
			s := syncedStore(t, svc)
			ctx := context.Background()
			a := pick(t, s, status(api.StatusAccepted))
			var refused atomic.Bool
			svc.wire.wrapNext(func(sandbox http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method == http.MethodPost && r.URL.Path == "/api/messages" && refused.CompareAndSwap(false, true) {
						// The header's date form counts from the real clock, as a server's would.
						w.Header().Set("Retry-After", c.header(time.Now()))
						w.WriteHeader(c.status)
						return
					}
					sandbox.ServeHTTP(w, r)
				})
			})
			row := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "after the wait", api.VisibilityAll))
			x := NewSender(s, svc.client, SenderOptions{Backoff: func(int) time.Duration { return time.Second }})
			sendAll(t, x)
			r := rowState(t, s, row.Id)
			wait := r.NextAttempt.Sub(s.now())
			if r.State != OutboxPending || wait < c.want-5*time.Second || wait > c.want+time.Second {
				t.Fatalf("after HTTP %d with Retry-After the row is %s, next attempt in %v; want pending for %v", c.status, r.State, wait, c.want)
			}
			svc.sb.Clock().Advance(c.want)
			sendAll(t, x)
			if r := rowState(t, s, row.Id); r.State != OutboxDone {
				t.Fatalf("after the wait the row is %s %q", r.State, r.Error)
			}
			posts := svc.wire.calls(http.MethodPost, "/api/messages")
			if len(posts) != 2 || posts[0].MessageId != row.MessageId || posts[1].MessageId != row.MessageId {
				t.Errorf("%d attempts; want 2 with the row's MessageId", len(posts))
			}
		})
	}
}
