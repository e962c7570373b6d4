package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// silenceSwitch is what the engine would report of who is silent; a test
// sets it and tells the window, as the engine's OnSilence does.
type silenceSwitch struct {
	mu     sync.Mutex
	silent *storage.Silence
	heard  time.Time
}

func (s *silenceSwitch) set(silent *storage.Silence, heard time.Time) {
	s.mu.Lock()
	s.silent, s.heard = silent, heard
	s.mu.Unlock()
}

func (s *silenceSwitch) health() Health {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := harnessHealth()
	h.Silent, h.Heard = s.silent, s.heard
	return h
}

// TestTheStatusBarSaysWhoIsNotAnswering: while an accept waits, the engine
// reports the customer's service silent since 09:00; the status bar says so
// where "Synced" was, with the number of actions waiting, at once (not at
// its next five-second refresh). When the service answers again the words
// go, and in office mode the hub is named as the silent one.
func TestTheStatusBarSaysWhoIsNotAnswering(t *testing.T) {
	for _, office := range []bool{false, true} {
		sw := &silenceSwitch{}
		h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
			d.Health = sw.health
			d.Office = office
		}})
		wo := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
		if _, err := h.store.Accept(context.Background(), wo.Id, ""); err != nil {
			t.Fatal(err)
		}
		h.flush()
		who, want := storage.SilentService, "Customer's service not answering since 09:00 · 1 action waiting"
		if office {
			who, want = storage.SilentHub, "Office hub not answering since 09:00 · 1 action waiting"
		}
		sw.set(&storage.Silence{Who: who, Since: fixedNow}, time.Time{})
		h.desk.ConnectivityChanged()
		h.flush()
		if got := h.desk.status.SyncLabel().Text; got != want {
			t.Fatalf("office %v: the status bar says %q, want %q", office, got, want)
		}
		if h.desk.status.SyncLabel().Importance != widget.WarningImportance {
			t.Errorf("office %v: the silence is not said in the warning colour", office)
		}

		sw.set(nil, time.Now())
		h.desk.ConnectivityChanged()
		h.flush()
		if got := h.desk.status.SyncLabel().Text; !strings.HasPrefix(got, "Synced ") {
			t.Fatalf("office %v: answered again, the status bar still says %q", office, got)
		}
		h.close()
	}
}

// TestAnOfficeHubThatCannotReachTheServiceIsNotBlamed: the hub answers,
// saying the customer's service does not answer it; the status bar names
// the service, through the hub.
func TestAnOfficeHubThatCannotReachTheServiceIsNotBlamed(t *testing.T) {
	sw := &silenceSwitch{}
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) { d.Health = sw.health; d.Office = true }})
	sw.set(&storage.Silence{Who: storage.SilentService, Since: fixedNow.Add(-3 * time.Minute)}, time.Time{})
	h.desk.ConnectivityChanged()
	h.flush()
	if got, want := h.desk.status.SyncLabel().Text, "Customer's service not answering the office hub since 08:57"; got != want {
		t.Fatalf("the status bar says %q, want %q", got, want)
	}
}

// TestOfflineSyncFailedGoesOnceTheServiceAnswers: a sync failed for want of
// an answer; once anything is answered again the status bar stops saying
// "Offline: sync failed" and a sync follows at once.
func TestOfflineSyncFailedGoesOnceTheServiceAnswers(t *testing.T) {
	sw := &silenceSwitch{}
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) { d.Health = sw.health }})
	h.desk.status.SyncEnded(&api.Error{StatusCode: 503, Message: "Service Unavailable"})
	sw.set(&storage.Silence{Who: storage.SilentService, Since: fixedNow}, time.Time{})
	h.desk.ConnectivityChanged()
	h.flush()
	sw.set(nil, time.Now())
	h.desk.ConnectivityChanged()
	h.flush()
	if got := h.desk.status.SyncLabel().Text; !strings.HasPrefix(got, "Synced ") {
		t.Fatalf("the service answers again, yet the status bar says %q", got)
	}
	if h.desk.status.LastErr() != nil {
		t.Fatalf("the sync that followed failed: %v", h.desk.status.LastErr())
	}
}

// statusCell is what the list's Status column shows for work order id:
// the badge's text and whether it is marked queued.
func statusCell(h *harness, id int64) (string, bool) {
	h.t.Helper()
	c := h.listCell(id, "Status")
	return c.text, c.queued
}

// TestTheRowAndTheHeaderAgreeWhileAnActionWaits: an accept waiting in the
// outbox shows as Accepted with the queued clock both in the list's row
// and in the work order's header; once the service has it, both say
// Accepted plainly.
func TestTheRowAndTheHeaderAgreeWhileAnActionWaits(t *testing.T) {
	h := newHarness(t)
	wo := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(wo.Id)
	if text, queued := statusCell(h, wo.Id); text != "New" || queued {
		t.Fatalf("before any action the row shows %q (queued %v)", text, queued)
	}
	agree := func(when, wantHeader string, queued bool) {
		t.Helper()
		text, q := statusCell(h, wo.Id)
		if text != "Accepted" || q != queued {
			t.Errorf("%s: the list row shows %q (queued %v), want Accepted (queued %v)", when, text, q, queued)
		}
		hb := h.desk.detail.status
		if hb.Text() != wantHeader || hb.Queued() != queued {
			t.Errorf("%s: the header shows %q (queued %v), want %q (queued %v)", when, hb.Text(), hb.Queued(), wantHeader, queued)
		}
	}
	buttonIn(t, h.win.Content(), "Accept").OnTapped()
	h.flush()
	agree("waiting in the outbox", "Accepted · queued", true)
	h.send()
	agree("sent", "Accepted", false)
}
