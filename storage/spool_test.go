package storage

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// Two replicas in one folder (workdesk --data-dir DIR keeps demo.db and the
// live profile's replica side by side): opening or clearing one must not
// delete the other's queued uploads.
func TestReplicasInOneFolderKeepTheirQueuedUploads(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	live := syncedStore(t, svc)
	dir := filepath.Dir(live.Path())
	ctx := context.Background()
	a := pick(t, live, status(api.StatusAccepted))
	photo := filepath.Join(t.TempDir(), "roof.jpg")
	os.WriteFile(photo, []byte("\xff\xd8\xff\xe0 roof"), 0o600)
	row := mustRow(t)(live.AttachFile(ctx, a.WorkOrderId, photo, api.VisibilityAll))

	demoPath := filepath.Join(dir, "demo.db")
	demo, err := Open(ctx, demoPath) // sweeps its own spool
	if err != nil {
		t.Fatal(err)
	}
	demo.Close()
	if err := RemoveReplica(demoPath); err != nil { // what a demo start does
		t.Fatal(err)
	}

	sendAll(t, NewSender(live, svc.client, SenderOptions{Backoff: noWait}))
	if r := rowState(t, live, row.Id); r.State != OutboxDone {
		t.Fatalf("the live upload after the demo opened beside it = %s %q", r.State, r.Error)
	}
	if _, err := os.Stat(demoPath); !os.IsNotExist(err) {
		t.Errorf("RemoveReplica left the demo database: %v", err)
	}
}

// Versions before the per-replica spool kept uploads in DIR/spool: a queued
// upload found there on opening is moved over and still goes out.
func TestQueuedUploadInTheOldSharedSpoolIsKept(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	photo := filepath.Join(t.TempDir(), "meter.jpg")
	os.WriteFile(photo, []byte("\xff\xd8\xff\xe0 meter"), 0o600)
	row := mustRow(t)(s.AttachFile(ctx, a.WorkOrderId, photo, api.VisibilityAll))
	path := s.Path()
	s.Close()

	legacy := filepath.Join(filepath.Dir(path), "spool")
	entries, _ := os.ReadDir(path + spoolSuffix)
	if len(entries) != 1 {
		t.Fatalf("spooled files = %d, want 1", len(entries))
	}
	os.MkdirAll(legacy, 0o700)
	if err := os.Rename(filepath.Join(path+spoolSuffix, entries[0].Name()), filepath.Join(legacy, entries[0].Name())); err != nil {
		t.Fatal(err)
	}

	reopened, _ := openAt(t, path)
	sendAll(t, NewSender(reopened, svc.client, SenderOptions{Backoff: noWait}))
	if r := rowState(t, reopened, row.Id); r.State != OutboxDone {
		t.Fatalf("upload from the old spool = %s %q", r.State, r.Error)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Errorf("the emptied old spool folder is still there: %v", err)
	}
}

// TestUnreadableSpoolCopyIsRefusedPlainly: a queued file whose copy cannot
// be read when it is sent (here a folder stands in its place: reading it
// fails) is this computer's problem: the row is refused saying the file
// could not be read, not left retrying as if the service were unreachable.
func TestUnreadableSpoolCopyIsRefusedPlainly(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusCheckedIn))
	row := mustRow(t)(s.AttachFile(ctx, wo.WorkOrderId, tempFile(t, "meter-photo.jpg", "\xff\xd8 meter reading"), api.VisibilityAll))
	var spool string
	if err := s.r.QueryRowContext(ctx, `SELECT spool_file FROM outbox WHERE id = ?`, row.Id).Scan(&spool); err != nil || spool == "" {
		t.Fatalf("spool file %q: %v", spool, err)
	}
	copyPath := filepath.Join(s.spool, spool)
	if err := os.Remove(copyPath); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(copyPath, 0o755); err != nil {
		t.Fatal(err)
	}
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	got := rowState(t, s, row.Id)
	if got.State != OutboxFailed || got.Error != "the copy of meter-photo.jpg queued for upload could not be read (is a directory)" {
		t.Fatalf("row = %s %q; want refused, saying the file could not be read", got.State, got.Error)
	}
	atts, err := svc.client.ListAttachments(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range atts {
		if a.Name == "meter-photo.jpg" {
			t.Error("the service holds the file it was not sent whole")
		}
	}
}
