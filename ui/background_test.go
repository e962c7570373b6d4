package ui

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// newBackgroundHarness is the harness with background work on goroutines of
// its own, as in the app; work they hand back waits for h.flush on the test
// goroutine, Fyne's main goroutine here.
func newBackgroundHarness(t *testing.T) *harness {
	t.Helper()
	var running sync.WaitGroup
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.Background = func(f func()) {
			running.Add(1)
			go func() {
				defer running.Done()
				f()
			}()
		}
	}})
	t.Cleanup(running.Wait) // before the replica closes (cleanups run last first)
	return h
}

// holdWriter takes SQLite's write lock on the replica from a connection of
// its own, as another process on the same file (workdesk receive) or a long
// transaction does, until release is called.
func holdWriter(t *testing.T, path string) (release func()) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatalf("taking the replica's write lock: %v", err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
				t.Errorf("releasing the write lock: %v", err)
			}
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// TestAnActionTappedWhileTheWriterIsBusyDoesNotHoldTheWindow holds the
// replica's writer, then accepts a work order and sends it a message as a
// person does. Each tap comes back while the writer is still held (queued
// on the main goroutine, the first would wait there for the lock, up to
// SQLite's 10 s busy timeout, and then fail): Accept stays disabled while
// its action waits, so a second tap queues nothing; reading the replica
// (opening another work order and coming back) still works; and once the
// writer is free both actions land, once each, in the order they were
// taken.
func TestAnActionTappedWhileTheWriterIsBusyDoesNotHoldTheWindow(t *testing.T) {
	h := newBackgroundHarness(t)
	ctx := context.Background()
	rows := h.rowsWhere(2, func(r storage.Row) bool { return r.Status == api.StatusNew })
	wo, err := h.store.WorkOrder(ctx, rows[0].Id)
	if err != nil {
		t.Fatal(err)
	}
	if wo.Can(api.Accept) != nil || wo.Can(api.SendMessage) != nil {
		t.Fatalf("%s can neither be accepted nor written to", wo.WorkOrderNumber)
	}
	h.open(wo.WorkOrderId)
	accept := h.desk.detail.accept

	release := holdWriter(t, h.store.Path())
	test.Tap(accept)
	if !accept.Disabled() {
		t.Fatal("Accept can be tapped again while its action waits for the replica")
	}
	test.Tap(accept) // a second tap while it waits
	h.selectTab("Messages")
	msgs := msgsOf(h)
	msgs.text().SetText("On our way tomorrow morning.")
	test.Tap(msgs.send())
	if queued, _ := h.store.OutboxRows(ctx, wo.WorkOrderId); len(queued) != 0 {
		t.Fatalf("%d actions reached the outbox while its writer was held", len(queued))
	}
	if top := h.win.Canvas().Overlays().Top(); top != nil {
		t.Fatalf("the taps showed %q", texts(top))
	}

	// Reads go on beside the held writer.
	h.open(rows[1].Id)
	if got := h.desk.detail.number.String(); got != rows[1].Number {
		t.Fatalf("with the writer held, opening %s shows %q", rows[1].Number, got)
	}
	h.open(wo.WorkOrderId)

	// Switching mode now would close the replica under these actions: the
	// window first waits for them, as long as the writer is held.
	if h.desk.WaitForWrites(50 * time.Millisecond) {
		t.Fatal("WaitForWrites returned while the actions still waited for the replica")
	}
	release()
	if !h.desk.WaitForWrites(10 * time.Second) {
		t.Fatal("WaitForWrites did not return once the writer was free")
	}
	if queued, _ := h.store.OutboxRows(ctx, wo.WorkOrderId); len(queued) != 2 {
		t.Fatalf("WaitForWrites returned with %d of the 2 actions queued", len(queued))
	}
	var queued []storage.OutboxRow
	h.waitFor("both actions to be queued", func() bool {
		queued, _ = h.store.OutboxRows(ctx, wo.WorkOrderId)
		return len(queued) >= 2 && !h.desk.busy(accept) && !h.desk.busy(msgs.send())
	})
	if len(queued) != 2 || queued[0].Kind != outbox.KindAccept || queued[1].Kind != outbox.KindMessage {
		kinds := make([]string, len(queued))
		for i, r := range queued {
			kinds[i] = string(r.Kind)
		}
		t.Fatalf("the outbox holds %v, want the acceptance then the message, once each", kinds)
	}
	if msgs.text().Text != "" {
		t.Errorf("the sent message is still in the entry: %q", msgs.text().Text)
	}
	if note := h.desk.status.NoteLabel().Text; !strings.Contains(note, "queued") {
		t.Errorf("the status bar says %q once the actions are queued", note)
	}
}
