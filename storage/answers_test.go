package storage

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// outage stands between the engine and the sandbox: it can stop answering
// (requests wait, as with a service that hangs) or hang up without an
// answer (as with a service that is down), and counts the accepts that
// reached the service.
type outage struct {
	next http.Handler

	mu      sync.Mutex
	hang    chan struct{} // closed to answer again; nil: answering
	refuse  bool
	accepts int
}

func (o *outage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	hang, refuse := o.hang, o.refuse
	o.mu.Unlock()
	if refuse {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	if hang != nil {
		select {
		case <-hang:
		case <-r.Context().Done():
			return
		}
	}
	if strings.HasSuffix(strings.ToLower(r.URL.Path), "/workorder/accept") {
		o.mu.Lock()
		o.accepts++
		o.mu.Unlock()
	}
	o.next.ServeHTTP(w, r)
}

func (o *outage) stopAnswering() {
	o.mu.Lock()
	o.hang = make(chan struct{})
	o.mu.Unlock()
}

func (o *outage) answerAgain() {
	o.mu.Lock()
	if o.hang != nil {
		close(o.hang)
	}
	o.hang, o.refuse = nil, false
	o.mu.Unlock()
}

func (o *outage) setRefuse(on bool) {
	o.mu.Lock()
	o.refuse = on
	o.mu.Unlock()
}

func (o *outage) acceptsSeen() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.accepts
}

// engineBehind opens an engine on the sandbox behind an outage.
func engineBehind(t *testing.T, opts EngineOptions) (*Engine, *outage) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Seed: 5, WorkOrders: 60})
	if err != nil {
		t.Fatal(err)
	}
	o := &outage{next: sb.Handler()}
	srv := httptest.NewServer(o)
	t.Cleanup(func() { o.answerAgain(); srv.Close(); sb.Close() })
	info := sb.InfoFor(srv.URL + "/")
	opts.Connection = api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}
	eng, err := OpenEngine(context.Background(), filepath.Join(t.TempDir(), "replica.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.SyncNow(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return eng, o
}

// TestAHangingServiceIsToldAndItsReturnClearsIt: the service stops
// answering while an accept is on its way. Once the call has waited
// SilentAfter, the engine says the customer's service is silent since the
// accept was asked; the call itself is not cut short (it keeps its own
// timeout), so when the service answers again the accept lands once,
// and the silence is over with that first answer.
func TestAHangingServiceIsToldAndItsReturnClearsIt(t *testing.T) {
	ctx := context.Background()
	eng, o := engineBehind(t, EngineOptions{SilentAfter: 300 * time.Millisecond})
	told := make(chan struct{}, 16)
	eng.OnSilence(func() { told <- struct{}{} })
	if s := eng.Silent(); s != nil {
		t.Fatalf("after a sync the engine says %+v is silent", s)
	}
	wo := pick(t, eng.Store, status(api.StatusNew))

	o.stopAnswering()
	asked := time.Now()
	if _, err := eng.Store.Accept(ctx, wo.WorkOrderId, ""); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the service to be told silent", func() bool { return eng.Silent() != nil })
	s := eng.Silent()
	if s.Who != SilentService || s.Since.Before(asked.Add(-time.Second)) || s.Since.After(time.Now()) {
		t.Fatalf("silent: %+v; want the service, since about %s", s, asked.Format(time.TimeOnly))
	}
	select {
	case <-told:
	case <-time.After(5 * time.Second):
		t.Fatal("nobody was told the service went silent")
	}
	if rows, _ := eng.Store.OutboxRows(ctx, wo.WorkOrderId); len(rows) != 1 || rows[0].State != OutboxSending {
		t.Fatalf("while the service is silent the accept should still be on its way: %+v", rows)
	}

	o.answerAgain()
	waitUntil(t, "the silence to clear and the accept to land", func() bool {
		rows, _ := eng.Store.OutboxRows(ctx, wo.WorkOrderId)
		return eng.Silent() == nil && len(rows) == 1 && rows[0].State == OutboxDone
	})
	if n := o.acceptsSeen(); n != 1 {
		t.Fatalf("the service got the accept %d times; the waiting call should have been answered, not sent again", n)
	}
}

// TestAServiceThatHangsUpIsToldAndTheQueueGoesWhenItAnswers: the service
// hangs up without answering (down). The engine says so once SilentAfter
// has passed since the failed call, asks the service every few seconds,
// and when it answers again the waiting accept goes at once, not at the end
// of its back-off (an hour here).
func TestAServiceThatHangsUpIsToldAndTheQueueGoesWhenItAnswers(t *testing.T) {
	ctx := context.Background()
	eng, o := engineBehind(t, EngineOptions{SilentAfter: 300 * time.Millisecond,
		Send: SenderOptions{Backoff: func(int) time.Duration { return time.Hour }}})
	wo := pick(t, eng.Store, status(api.StatusNew))

	o.setRefuse(true)
	if _, err := eng.Store.Accept(ctx, wo.WorkOrderId, ""); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the service to be told silent", func() bool {
		s := eng.Silent()
		return s != nil && s.Who == SilentService
	})
	if rows, _ := eng.Store.OutboxRows(ctx, wo.WorkOrderId); len(rows) != 1 || rows[0].State != OutboxPending || rows[0].Attempts == 0 {
		t.Fatalf("the accept should wait after a failed attempt: %+v", rows)
	}

	o.answerAgain()
	waitUntil(t, "the silence to clear and the waiting accept to go", func() bool {
		rows, _ := eng.Store.OutboxRows(ctx, wo.WorkOrderId)
		return eng.Silent() == nil && len(rows) == 1 && rows[0].State == OutboxDone
	})
}

// TestACallTheCallerGivesUpOnIsNoSilence: a sync cancelled by its caller
// (the window closing) says nothing about the service.
func TestACallTheCallerGivesUpOnIsNoSilence(t *testing.T) {
	eng, o := engineBehind(t, EngineOptions{SilentAfter: 200 * time.Millisecond})
	o.stopAnswering()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- eng.SyncNow(ctx, nil) }()
	cancel()
	<-done
	o.answerAgain()
	time.Sleep(400 * time.Millisecond) // longer than SilentAfter: nothing may be told
	if s := eng.Silent(); s != nil {
		t.Fatalf("a call its caller cancelled made the engine say %+v", s)
	}
}

// TestAHubWhoseStreamFallsQuietIsToldSilent: the office hub's event stream
// stays open but sends nothing, not even its heartbeat: the hub has hung.
// A heartbeat and SilentAfter later the engine names the hub as silent,
// since the stream last said something, though no call of the desktop's
// waits.
func TestAHubWhoseStreamFallsQuietIsToldSilent(t *testing.T) {
	streamGrace = 200 * time.Millisecond
	t.Cleanup(func() { streamGrace = 10 * time.Second })
	sb, err := sandbox.New(sandbox.Options{Seed: 5, WorkOrders: 60})
	if err != nil {
		t.Fatal(err)
	}
	hung := make(chan struct{})
	var streaming atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if streaming.Load() { // the hub has hung: nothing is answered
			select {
			case <-hung:
			case <-r.Context().Done():
			}
			return
		}
		sb.Handler().ServeHTTP(w, r)
	})
	mux.HandleFunc("/api/hub/events", func(w http.ResponseWriter, r *http.Request) {
		streaming.Store(true)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(": hello\n\n"))
		w.(http.Flusher).Flush()
		select { // then nothing, as from a hub that hangs
		case <-hung:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { close(hung); srv.CloseClientConnections(); srv.Close(); sb.Close() })
	info := sb.InfoFor(srv.URL + "/")
	eng, err := OpenEngine(context.Background(), filepath.Join(t.TempDir(), "replica.db"), EngineOptions{
		Connection: api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret},
		Hub:        true, ManualSend: true, SilentAfter: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	waitUntil(t, "the stream to connect", func() bool { return eng.StreamStatus() == StreamConnected })
	opened := time.Now()
	waitUntil(t, "the hub to be told silent", func() bool {
		s := eng.Silent()
		return s != nil && s.Who == SilentHub
	})
	if s := eng.Silent(); s.Since.After(opened) {
		t.Errorf("silent since %s, after the stream last spoke (%s)", s.Since.Format(time.StampMilli), opened.Format(time.StampMilli))
	}
}
