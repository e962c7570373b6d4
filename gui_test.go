package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestRestartWithoutTheSecretOpensTheLiveReplica: Live is configured but
// the keyring has no secret (it was session-only, or the keyring lost it).
// The app must open the live replica and say what to do, never fall back
// to the demo without a word.
func TestRestartWithoutTheSecretOpensTheLiveReplica(t *testing.T) {
	keyring.MockInit() // an empty keyring
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetString("live.base_url", "https://api.example.test/Direct/")
	p.SetString("live.token_url", "https://api.example.test/oauth/token")
	p.SetString("live.client_id", "CLIENT1")
	s := &session{app: a, flags: guiFlags{dataDir: t.TempDir()}, secrets: storage.NewSecrets(),
		do: (&mainQueue{}).do} // the test driver would run fyne.Do on the calling goroutine: what the window's background hands it waits here
	if err := s.launch(true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.desk.Window().Close(); s.backend.Close() })

	if s.backend.sb != nil {
		t.Fatal("without the secret the app opened the demo")
	}
	if got := s.backend.Store.Path(); !strings.Contains(got, storage.ProfileForBaseURL("https://api.example.test/Direct/")) {
		t.Errorf("the replica opened is %s, not the live one", got)
	}
	var said []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			said = append(said, w.Text)
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(s.desk.Window().Content())
	if all := strings.Join(said, "\n"); !strings.Contains(all, "Not connected: the client secret for client id CLIENT1 is not saved on this computer") {
		t.Fatalf("the window does not say why it is not connected; it shows %q", all)
	}
}

// TestDemoSurvivesARestartUntilReset: what a person did in the demo is
// there after the app restarts (or crashes), and only File › Reset demo
// starts it over. It drives the backend main builds for the window, without
// a window: the Fyne test driver would run the window's background
// refreshes on the sync's goroutine.
func TestDemoSurvivesARestartUntilReset(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	start := func() *backend {
		b, err := startDemo(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.SyncNow(ctx, nil); err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := start()
	rows, err := b.Store.List(ctx, storage.ListQuery{Statuses: []api.WorkOrderStatus{api.StatusNew}, Limit: 1})
	if err != nil || len(rows) == 0 {
		t.Fatalf("no New work order in the demo (%v)", err)
	}
	id := rows[0].Id
	if _, err := b.Store.Accept(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := b.Store.OutboxRows(ctx, id)
		if len(out) == 1 && out[0].State == storage.OutboxDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the accept was not sent: %+v", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Close()

	b = start()
	if !b.sb.Restored() {
		t.Fatal("the restarted demo did not restore its world")
	}
	if wo, err := b.Store.WorkOrder(ctx, id); err != nil || wo.Status != api.StatusAccepted {
		t.Fatalf("after a restart the accepted work order reads %v (%v)", wo.Status, err)
	}
	b.Close()

	if err := resetDemo(dir); err != nil {
		t.Fatal(err)
	}
	b = start()
	t.Cleanup(b.Close)
	if b.sb.Restored() {
		t.Fatal("after Reset demo the old world came back")
	}
	// The fresh world is the seed's again; the replica holds none of the
	// old demo's history and agrees with the new world.
	if rows, _ := b.Store.OutboxRows(ctx, id); len(rows) != 0 {
		t.Fatalf("after Reset demo the replica still holds the old demo's actions: %+v", rows)
	}
	remote, err := b.Client.GetWorkOrders(ctx, []int64{id})
	if err != nil || len(remote) != 1 {
		t.Fatalf("reading %d from the fresh demo: %v", id, err)
	}
	if wo, err := b.Store.WorkOrder(ctx, id); err != nil || wo.Status != remote[0].Status {
		t.Fatalf("after Reset demo the replica reads %v (%v), the fresh demo %v", wo.Status, err, remote[0].Status)
	}
}
