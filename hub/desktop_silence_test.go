package hub

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestADesktopNamesWhoIsSilent: an office desktop tells the customer's
// service not answering the hub (the hub answers, saying so) from the hub
// itself not answering. The first write that goes through ends the first;
// the hub's return ends the second.
func TestADesktopNamesWhoIsSilent(t *testing.T) {
	o := newOffice(t, sandbox.Options{})
	in := o.start(nil)
	_, creds := o.person(in, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := in.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	eng, err := storage.OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), storage.EngineOptions{
		Connection: api.Connection{BaseURL: in.srv.URL + "/", TokenURL: in.srv.URL + "/oauth/token", ClientID: creds.ClientId, ClientSecret: creds.ClientSecret},
		ManualSend: true, Hub: true, SilentAfter: 300 * time.Millisecond,
		StreamBackoff: func(int) time.Duration { return 100 * time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}

	// The service hangs up on the hub: the hub answers the desktop's accept
	// with its 503, and the desktop names the service, not the hub.
	down := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet {
			return false
		}
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return true
	}
	o.intercept.Store(&down)
	row, err := eng.Store.Accept(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the service named silent", func() bool {
		s := eng.Silent()
		return s != nil && s.Who == storage.SilentService
	})

	o.intercept.Store(nil)
	if _, err := eng.Store.Retry(ctx, row.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := eng.Store.OutboxRow(ctx, row.Id); got.State != storage.OutboxDone {
		t.Fatalf("the accept once the service answers the hub: %+v", got)
	}
	if s := eng.Silent(); s != nil {
		t.Fatalf("a write went through the hub, yet the desktop says %+v is silent", s)
	}

	// The hub itself goes: its event stream breaks and cannot be opened
	// again, and the desktop names the hub.
	in.stop()
	waitFor(t, 20*time.Second, "the hub named silent", func() bool {
		s := eng.Silent()
		return s != nil && s.Who == storage.SilentHub
	})
}

// TestADesktopsStreamComesBackWithTheHub: the hub goes away and comes back
// while a desktop's event stream is backing off. Once any of the desktop's
// calls reaches the hub again, the stream opens again within seconds, not
// at the end of its back-off (it waited 25 to 31 s before).
func TestADesktopsStreamComesBackWithTheHub(t *testing.T) {
	o := newOffice(t, sandbox.Options{})
	in := o.start(nil)
	_, creds := o.person(in, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := in.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(in.srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	var down atomic.Bool
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	eng, err := storage.OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), storage.EngineOptions{
		Connection: api.Connection{BaseURL: front.URL + "/", TokenURL: front.URL + "/oauth/token", ClientID: creds.ClientId, ClientSecret: creds.ClientSecret},
		ManualSend: true, Hub: true, SilentAfter: 300 * time.Millisecond,
		// Left to itself, the stream would try again only after a minute.
		StreamBackoff: func(int) time.Duration { return time.Minute },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the stream open", func() bool { return eng.StreamStatus() == storage.StreamConnected })

	down.Store(true)
	front.CloseClientConnections()
	waitFor(t, 20*time.Second, "the stream reconnecting", func() bool { return eng.StreamStatus() == storage.StreamReconnecting })
	row, err := eng.Store.Accept(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the hub named silent", func() bool { s := eng.Silent(); return s != nil && s.Who == storage.SilentHub })

	down.Store(false)
	if _, err := eng.Store.Retry(ctx, row.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	waitFor(t, 20*time.Second, "the stream open again", func() bool { return eng.StreamStatus() == storage.StreamConnected })
	if took := time.Since(back); took > 5*time.Second {
		t.Fatalf("the stream opened again %v after a call reached the hub; want within 5 s", took)
	}
}
