package hub

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// openDesktop opens a desktop's engine (replica, client, sync, outbox)
// pointed at a hub instance with a person's credentials, as the window does.
func openDesktop(t *testing.T, in *instance, c Credentials) *storage.Engine {
	t.Helper()
	eng, err := storage.OpenEngine(context.Background(), filepath.Join(t.TempDir(), "replica.db"), storage.EngineOptions{
		Connection: api.Connection{BaseURL: in.srv.URL + "/", TokenURL: in.srv.URL + "/oauth/token", ClientID: c.ClientId, ClientSecret: c.ClientSecret},
		ManualSend: true, Sync: storage.SyncOptions{Logger: quietLogger()},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	return eng
}

// The desktop's own sync and outbox work against the hub unchanged: it
// syncs, its accept and its attachment go through, and a colleague's
// desktop on another instance that accepts the same work order gets the
// service's refusal on its Activity list.
func TestDesktopEnginesWorkAgainstTheHub(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	_, anaCreds := o.person(a, "Ana Ruiz")
	_, boCreds := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	ana, bo := openDesktop(t, a, anaCreds), openDesktop(t, b, boCreds)
	for _, d := range []*storage.Engine{ana, bo} {
		if err := d.SyncNow(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if wo, err := d.Store.WorkOrder(ctx, id); err != nil || wo.Status != api.StatusNew {
			t.Fatalf("the desktop's replica after its sync: %+v, %v", wo, err)
		}
	}
	first, err := ana.Store.Accept(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	second, err := bo.Store.Accept(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := bo.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if row, _ := ana.Store.OutboxRow(ctx, first.Id); row.State != storage.OutboxDone {
		t.Fatalf("Ana's accept: %+v", row)
	}
	row, _ := bo.Store.OutboxRow(ctx, second.Id)
	if row.State != storage.OutboxFailed || row.ErrorCode != api.CodeWrongStatus {
		t.Fatalf("Bo's accept of a work order Ana accepted: %+v, want failed with the service's 3001", row)
	}
	photo := filepath.Join(t.TempDir(), "photo.jpg")
	if err := os.WriteFile(photo, []byte("not really a jpeg"), 0o600); err != nil {
		t.Fatal(err)
	}
	att, err := ana.Store.AttachFile(ctx, id, photo, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if row, _ := ana.Store.OutboxRow(ctx, att.Id); row.State != storage.OutboxDone {
		t.Fatalf("Ana's attachment: %+v", row)
	}
}
