package storage

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// faultCase is one way the network or the service misbehaves, applied to
// the requests that match: the API's (reads or writes) or the token
// endpoint's.
type faultCase struct {
	name  string
	f     fault
	token bool   // on the token endpoint instead of the API
	every int    // on every n-th matching request (0 or 1 = all)
	want  string // what the error or the person's message says
	// tokens is the most token requests an episode may make, at most two
	// calls (the sender's two actions) being refused: a cached token is
	// reused, a call answered 401 fetches one fresh token and tries once
	// more (two fetches a call at worst), and a failed token request
	// caches nothing (one a call).
	tokens int
}

var faultCases = []faultCase{
	{name: "500s", f: answer500, every: 2, want: "HTTP 500", tokens: 1},
	{name: "401 storm", f: answer401, want: "401", tokens: 4},
	{name: "token endpoint failing", f: answer500, token: true, want: "the token server is having trouble (it answered HTTP 500)", tokens: 2},
	{name: "token endpoint dropping", f: resetBefore, token: true, want: "the connection to the token server was cut before it answered", tokens: 2},
	{name: "hangs", f: hang, want: "the service did not answer in time", tokens: 1},
	{name: "truncated answers", f: truncated, want: "the answer was cut off before its end", tokens: 1},
	{name: "invalid JSON", f: invalidJSON, want: "the answer is not the JSON the API describes", tokens: 1},
	{name: "connection resets", f: resetBefore, want: "the connection to the service was cut before it answered", tokens: 1},
}

// plan applies c to the requests match selects.
func (c faultCase) plan(match func(r *http.Request) bool) func(r *http.Request, token bool) fault {
	var n atomic.Int64
	return func(r *http.Request, token bool) fault {
		if token != c.token || !token && !match(r) {
			return forward
		}
		if c.every > 1 && n.Add(1)%int64(c.every) != 0 {
			return forward
		}
		return c.f
	}
}

func anyRequest(*http.Request) bool { return true }

func writes(r *http.Request) bool { return r.Method != http.MethodGet }

// workOrderReads are the reads a sync cannot do without: the search for
// work orders and their records.
func workOrderReads(r *http.Request) bool {
	return strings.Contains(strings.ToLower(r.URL.Path), "/api/workorder")
}

// TestSyncUnderFaults: whatever the network or the service does, a sync
// ends by its deadline with an error that says what went wrong, asks for a
// bounded number of tokens, keeps what it stored, and the next sync on a
// healthy line completes the replica.
func TestSyncUnderFaults(t *testing.T) {
	t.Parallel()
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			t.Parallel()
			p := newFaultProxy(t, 120)
			want := p.sb.WorkOrderCount()
			s, _ := openTest(t)
			s.now = p.sb.Clock().Now
			c, _ := p.client(t)
			// A fault on every n-th request must reach one the sync cannot
			// do without: counted over all of them, the n-th could all be
			// side reads it tolerates (a customer's settings, a branch's
			// associates), which its concurrent reads order differently on
			// each run (once, on a quiet machine, none reached a work
			// order and the sync rightly succeeded).
			match := anyRequest
			if fc.every > 1 {
				match = workOrderReads
			}
			p.set(fc.plan(match))
			deadline := 5 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			start := time.Now()
			err := NewSyncer(s, c, SyncOptions{}).SyncNow(ctx)
			took := time.Since(start)
			tokens := p.tokenRequests()
			p.set(nil)
			t.Logf("%s: sync ended after %v with %d token requests: %v", fc.name, took.Round(time.Millisecond), tokens, err)
			if err == nil || !strings.Contains(err.Error(), fc.want) {
				t.Errorf("sync error %v; want one that says %q", err, fc.want)
			}
			if took > deadline+time.Second {
				t.Errorf("sync took %v, past its %v deadline", took, deadline)
			}
			if tokens > fc.tokens {
				t.Errorf("%d token requests; want at most %d", tokens, fc.tokens)
			}
			if err := NewSyncer(s, c, SyncOptions{}).SyncNow(context.Background()); err != nil {
				t.Fatalf("the sync after the fault: %v", err)
			}
			if got := replicaCount(t, s); got != want {
				t.Errorf("after the fault and a healthy sync the replica holds %d work orders, want %d", got, want)
			}
		})
	}
}

// TestSenderUnderFaults: actions queued while the service misbehaves are
// neither lost nor applied twice. The send ends by its deadline, each row
// stays queued with a plain reason, token requests stay bounded, and once
// the line is healthy each action has reached the service exactly once,
// counted where requests arrive at a sandbox that does not de-duplicate.
func TestSenderUnderFaults(t *testing.T) {
	t.Parallel()
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			t.Parallel()
			p := newFaultProxy(t, 70)
			s, _ := openTest(t)
			s.now = p.sb.Clock().Now
			c, _ := p.client(t)
			if err := NewSyncer(s, c, SyncOptions{}).SyncNow(context.Background()); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			fresh := pick(t, s, status(api.StatusNew))
			accepted := pick(t, s, status(api.StatusAccepted))
			text := "under fault: " + fc.name
			accept := mustRow(t)(s.Accept(ctx, fresh.WorkOrderId, ""))
			msg := mustRow(t)(s.SendMessage(ctx, accepted.WorkOrderId, text, api.VisibilityAll))

			c, _ = p.client(t) // no cached token: token faults bite
			p.resetCounts()
			p.set(fc.plan(writes))
			x := NewSender(s, c, SenderOptions{Backoff: noWait})
			deadline := 5 * time.Second
			sendCtx, cancel := context.WithTimeout(ctx, deadline)
			defer cancel()
			start := time.Now()
			x.SendReady(sendCtx)
			took := time.Since(start)
			tokens := p.tokenRequests()
			p.set(nil)
			if took > deadline+time.Second {
				t.Errorf("sending took %v, past its %v deadline", took, deadline)
			}
			if tokens > fc.tokens {
				t.Errorf("%d token requests; want at most %d", tokens, fc.tokens)
			}
			for _, row := range []*OutboxRow{accept, msg} {
				r := rowState(t, s, row.Id)
				t.Logf("%s: %s after %v, %d token requests: %s %q", fc.name, r.Kind, took.Round(time.Millisecond), tokens, r.State, r.Error)
				if r.State == OutboxFailed {
					t.Errorf("%s failed under a passing fault: %q", r.Kind, r.Error)
				}
				reason := strings.ToLower(r.Error)
				if r.State == OutboxPending && (!strings.Contains(reason, "will retry") || !strings.Contains(reason, strings.ToLower(fc.want))) {
					t.Errorf("%s is queued with the reason %q; want a plain one that says %q and that it will retry", r.Kind, r.Error, fc.want)
				}
			}

			sendAll(t, x)
			for _, row := range []*OutboxRow{accept, msg} {
				if r := rowState(t, s, row.Id); r.State != OutboxDone {
					t.Fatalf("%s after the fault: %s %q", r.Kind, r.State, r.Error)
				}
			}
			if wo := p.remote(t, c, fresh.WorkOrderId); wo.Status != api.StatusAccepted {
				t.Errorf("the accepted work order is %s at the service", wo.Status)
			}
			// Count at the service, which applies every request that
			// reaches it: a second send would show here even where its
			// state could not tell (a repeated accept changes nothing).
			for _, c := range []struct {
				row          *OutboxRow
				method, path string
			}{{accept, http.MethodPut, "/api/workOrder/accept"}, {msg, http.MethodPost, "/api/messages"}} {
				if got := p.sb.Received(c.method, c.path); len(got) != 1 || got[0].MessageId != c.row.MessageId {
					t.Errorf("%s reached the service %d times; want exactly once, with the row's MessageId", c.row.Kind, len(got))
				}
			}
			msgs, err := c.ListMessages(ctx, accepted.WorkOrderId)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range msgs {
				if m.Text == text {
					n++
				}
			}
			if n != 1 {
				t.Errorf("the service holds the message %d times; want exactly once", n)
			}
			for _, id := range p.sent(http.MethodPost, "/api/messages") {
				if id != msg.MessageId {
					t.Errorf("an attempt at the message carried MessageId %q, not the row's %q", id, msg.MessageId)
				}
			}
		})
	}
}

// TestDoctorUnderFaults: `workdesk doctor` (api.Diagnose) under each fault
// ends by its deadline, fails the right step with a reason a person can
// act on, never shows the secret, and asks for few tokens.
func TestDoctorUnderFaults(t *testing.T) {
	t.Parallel()
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			t.Parallel()
			p := newFaultProxy(t, 60)
			_, info := p.client(t)
			conn := api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}
			p.resetCounts()
			p.set(fc.plan(anyRequest))
			defer p.set(nil)
			deadline := 5 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			var failed []api.Check
			start := time.Now()
			ok := api.Diagnose(ctx, conn, &http.Client{Timeout: callTimeout}, func(c api.Check) {
				if !c.OK {
					failed = append(failed, c)
				}
				if strings.Contains(c.Detail, info.ClientSecret) {
					t.Errorf("the secret shows in %q", c.Detail)
				}
			})
			took := time.Since(start)
			tokens := p.tokenRequests()
			if ok || len(failed) == 0 {
				t.Fatalf("doctor passed under %s", fc.name)
			}
			t.Logf("%s: doctor ended after %v, %d token requests: FAIL %s: %s", fc.name, took.Round(time.Millisecond), tokens, failed[0].Name, failed[0].Detail)
			if !strings.Contains(failed[0].Detail, fc.want) {
				t.Errorf("first failed step %q says %q; want it to say %q", failed[0].Name, failed[0].Detail, fc.want)
			}
			if took > deadline+time.Second {
				t.Errorf("doctor took %v, past its %v deadline", took, deadline)
			}
			if tokens > 3 {
				t.Errorf("%d token requests; want at most 3", tokens)
			}
		})
	}
}

// replicaCount is how many work orders the replica holds.
func replicaCount(t testing.TB, s *Store) int {
	t.Helper()
	rows, err := s.List(context.Background(), ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return len(rows)
}

func (p *faultProxy) remote(t testing.TB, c *api.Client, id int64) *api.WorkOrder {
	t.Helper()
	wo, err := c.GetWorkOrder(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return wo
}
