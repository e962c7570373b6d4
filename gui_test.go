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
	s := &session{app: a, flags: guiFlags{dataDir: t.TempDir()}, secrets: storage.NewSecrets()}
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
// starts it over.
func TestDemoSurvivesARestartUntilReset(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	start := func() *session {
		s := &session{app: test.NewTempApp(t), flags: guiFlags{dataDir: dir}, secrets: storage.NewSecrets()}
		if err := s.launch(false); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := start()
	if err := s.backend.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := s.backend.Store.List(ctx, storage.ListQuery{Statuses: []api.WorkOrderStatus{api.StatusNew}, Limit: 1})
	if err != nil || len(rows) == 0 {
		t.Fatalf("no New work order in the demo (%v)", err)
	}
	id := rows[0].Id
	if _, err := s.backend.Store.Accept(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := s.backend.Store.OutboxRows(ctx, id)
		if len(out) == 1 && out[0].State == storage.OutboxDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the accept was not sent: %+v", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.desk.Window().Close()
	s.backend.Close()

	s = start()
	if !s.backend.sb.Restored() {
		t.Fatal("the restarted demo did not restore its world")
	}
	if err := s.backend.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if wo, err := s.backend.Store.WorkOrder(ctx, id); err != nil || wo.Status != api.StatusAccepted {
		t.Fatalf("after a restart the accepted work order reads %v (%v)", wo.Status, err)
	}
	s.desk.Window().Close()
	s.backend.Close()

	if err := resetDemo(dir); err != nil {
		t.Fatal(err)
	}
	s = start()
	t.Cleanup(func() { s.desk.Window().Close(); s.backend.Close() })
	if s.backend.sb.Restored() {
		t.Fatal("after Reset demo the old world came back")
	}
	if err := s.backend.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if wo, err := s.backend.Store.WorkOrder(ctx, id); err != nil || wo.Status != api.StatusNew {
		t.Fatalf("after Reset demo the work order reads %v (%v), want New again", wo.Status, err)
	}
}
