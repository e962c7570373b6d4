package hub

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// openOfficeDesktop opens a desktop in office mode at path: its engine
// holds the hub's event stream. backoff nil reconnects at once.
func openOfficeDesktop(t *testing.T, url, path string, c Credentials, backoff func(int) time.Duration) *storage.Engine {
	t.Helper()
	if backoff == nil {
		backoff = func(int) time.Duration { return 0 }
	}
	eng, err := storage.OpenEngine(context.Background(), path, storage.EngineOptions{
		Connection: api.Connection{BaseURL: url + "/", TokenURL: url + "/oauth/token", ClientID: c.ClientId, ClientSecret: c.ClientSecret},
		ManualSend: true, Hub: true, StreamBackoff: backoff, Sync: storage.SyncOptions{Logger: quietLogger()},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	return eng
}

// heard returns a channel of the events the engine applies from now on.
func heard(eng *storage.Engine) <-chan api.Event {
	ch := make(chan api.Event, 100)
	eng.OnEvent(func(ev api.Event) {
		select {
		case ch <- ev:
		default:
		}
	})
	return ch
}

// waitHeard waits up to within for an event about woID with action.
func waitHeard(t *testing.T, ch <-chan api.Event, woID int64, action string, within time.Duration) api.Event {
	t.Helper()
	within = max(within, time.Minute) // a hang, not a loaded machine's wait
	deadline := time.After(within)
	for {
		select {
		case ev := <-ch:
			if ev.Header.WorkOrderId == woID && ev.Header.Action == action {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s event for work order %d within %s", action, woID, within)
		}
	}
}

// waitStream waits until the engine's stream is in state.
func waitStream(t *testing.T, eng *storage.Engine, state string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if eng.StreamStatus() == state {
			return
		}
	}
	t.Fatalf("event stream %q after 10 s, want %q", eng.StreamStatus(), state)
}

func syncDesktop(t *testing.T, eng *storage.Engine) {
	t.Helper()
	if err := eng.SyncNow(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// Two people, each on a hub instance of their own: Ana's accept reaches
// Bo's replica through his event stream within 2 s, the work order shows
// Accepted there, and his event log names Ana.
func TestOfficeDesktopHearsAColleaguesAccept(t *testing.T) {
	// Not parallel: it times the event, which other tests running beside it
	// would slow (the package runs many at once).
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	_, anaCreds := o.person(a, "Ana Ruiz")
	_, boCreds := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	ana := openOfficeDesktop(t, a.srv.URL, filepath.Join(t.TempDir(), "ana.db"), anaCreds, nil)
	bo := openOfficeDesktop(t, b.srv.URL, filepath.Join(t.TempDir(), "bo.db"), boCreds, nil)
	syncDesktop(t, ana)
	syncDesktop(t, bo)
	waitStream(t, bo, storage.StreamConnected)
	boHears := heard(bo)

	if _, err := ana.Store.Accept(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if name, err := bo.HubPerson(ctx); err != nil || name != "Bo Chen" {
		t.Fatalf("the hub says Bo's desktop belongs to %q (%v)", name, err)
	}
	ev := waitHeard(t, boHears, id, "AcceptedByContractor", 2*time.Second)
	if by := storage.EventPerformer(ev); by != "Ana Ruiz" {
		t.Fatalf("the event names %q, want Ana Ruiz", by)
	}
	wo, err := bo.Store.WorkOrder(ctx, id)
	if err != nil || wo.Status == api.StatusNew {
		t.Fatalf("Bo's replica after Ana's accept: %+v, %v", wo, err)
	}
	evs, err := bo.Store.Events(ctx, id)
	if err != nil || len(evs) == 0 || evs[len(evs)-1].PerformedBy != "Ana Ruiz" {
		t.Fatalf("Bo's event log: %+v, %v", evs, err)
	}
}

// The stream drops (the hub closes its connections) while Ana acts; Bo's
// desktop reconnects with Last-Event-ID and still hears it. Closed and
// opened again, it resumes from the id kept in the replica.
func TestOfficeStreamResumesAfterADropAndARestart(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	in := o.start(nil)
	_, anaCreds := o.person(in, "Ana Ruiz")
	_, boCreds := o.person(in, "Bo Chen")
	first, second := newWorkOrder(t, o), newWorkOrder(t, o)
	ctx := context.Background()
	if err := in.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	ana := openOfficeDesktop(t, in.srv.URL, filepath.Join(t.TempDir(), "ana.db"), anaCreds, nil)
	syncDesktop(t, ana)
	// Bo's reconnection waits for the gate, so Ana acts while he is down.
	gate := make(chan struct{}, 1)
	t.Cleanup(func() { close(gate) })
	boPath := filepath.Join(t.TempDir(), "bo.db")
	bo := openOfficeDesktop(t, in.srv.URL, boPath, boCreds, func(int) time.Duration { <-gate; return 0 })
	syncDesktop(t, bo)
	waitStream(t, bo, storage.StreamConnected)
	boHears := heard(bo)
	accept := func(id int64) {
		t.Helper()
		row, err := ana.Store.Accept(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		// Closing the hub's connections can also close Ana's kept-alive
		// one just as she sends: her outbox then waits to retry, as it
		// would at a desk. Retry at once until the hub has it.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := ana.Sender.SendReady(ctx); err != nil {
				t.Fatal(err)
			}
			r, err := ana.Store.OutboxRow(ctx, row.Id)
			if err != nil {
				t.Fatal(err)
			}
			if r.State == storage.OutboxDone {
				return
			}
			if _, err := ana.Store.Retry(ctx, row.Id); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatalf("Ana's accept of %d never went out through the hub", id)
	}
	accept(first)
	waitHeard(t, boHears, first, "AcceptedByContractor", 10*time.Second)

	in.srv.CloseClientConnections()
	waitStream(t, bo, storage.StreamReconnecting)
	accept(second)
	gate <- struct{}{}
	ev := waitHeard(t, boHears, second, "AcceptedByContractor", 10*time.Second)
	if by := storage.EventPerformer(ev); by != "Ana Ruiz" {
		t.Fatalf("the event after the drop names %q", by)
	}

	// Restart: Bo's window closes, Ana checks in meanwhile, Bo opens again.
	bo.Close()
	third := newWorkOrder(t, o)
	if err := in.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	syncDesktop(t, ana)
	accept(third)
	bo = openOfficeDesktop(t, in.srv.URL, boPath, boCreds, nil)
	waitFor(t, 10*time.Second, "Ana's accept made while Bo was away in his replica's log after the restart", func() bool {
		evs, err := bo.Store.Events(ctx, third)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs) > 0 && evs[0].Header.Action == "AcceptedByContractor" && evs[0].PerformedBy == "Ana Ruiz"
	})
}

// Bo's laptop loses the hub; what he does meanwhile waits in his outbox
// and, once the hub is back, goes out through it in the order he did it:
// the accept first, then the appointment that needs it.
func TestOfficeActionsQueuedOfflineGoOutInOrder(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	in := o.start(nil)
	_, boCreds := o.person(in, "Bo Chen")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := in.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	// The laptop reaches the hub through a link the test cuts and mends.
	var up atomic.Bool
	up.Store(true)
	link := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		in.srv.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(link.Close)
	var clock atomic.Int64
	clock.Store(time.Now().UnixMilli())
	eng, err := storage.OpenEngine(ctx, filepath.Join(t.TempDir(), "bo.db"), storage.EngineOptions{
		Connection: api.Connection{BaseURL: link.URL + "/", TokenURL: link.URL + "/oauth/token", ClientID: boCreds.ClientId, ClientSecret: boCreds.ClientSecret},
		ManualSend: true, Hub: true, StreamBackoff: func(int) time.Duration { return 20 * time.Millisecond },
		Now:  func() time.Time { return time.UnixMilli(clock.Load()) },
		Send: storage.SenderOptions{Backoff: func(int) time.Duration { return time.Hour }},
		Sync: storage.SyncOptions{Logger: quietLogger()},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	syncDesktop(t, eng)
	before := o.writes.Load()

	up.Store(false)
	accept, err := eng.Store.Accept(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	appt, err := eng.Store.SetAppointment(ctx, id, time.Now().Add(48*time.Hour).Truncate(time.Hour), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*storage.OutboxRow{accept, appt} {
		if row, _ := eng.Store.OutboxRow(ctx, r.Id); row.State == storage.OutboxDone || row.State == storage.OutboxFailed {
			t.Fatalf("with the hub unreachable a queued action ended as %+v", row)
		}
	}

	up.Store(true)
	clock.Add((2 * time.Hour).Milliseconds()) // past the send back-off
	if _, err := eng.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*storage.OutboxRow{accept, appt} {
		if row, _ := eng.Store.OutboxRow(ctx, r.Id); row.State != storage.OutboxDone {
			t.Fatalf("after the hub came back: %+v", row)
		}
	}
	rows, err := o.db.Pool.Query(ctx, `SELECT path FROM audit WHERE work_order_id = $1 ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || !strings.Contains(paths[0], "accept") || !strings.Contains(paths[1], "appointment") {
		t.Fatalf("the hub's audit of the work order: %v, want the accept then the appointment", paths)
	}
	if n := o.writes.Load() - before; n != 2 {
		t.Fatalf("the two queued actions reached the service %d times, want once each", n)
	}
}
