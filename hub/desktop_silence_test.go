package hub

import (
	"context"
	"net/http"
	"path/filepath"
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
