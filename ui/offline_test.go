package ui

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// newOfflineHarness is the harness with a link to the service the test can
// cut (true: every request fails as on a dead network) and mend.
func newOfflineHarness(t *testing.T) (*harness, *atomic.Bool) {
	var cut atomic.Bool
	h := newHarnessWith(t, harnessOptions{service: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if cut.Load() {
				panic(http.ErrAbortHandler)
			}
			next.ServeHTTP(w, r)
		})
	}})
	return h, &cut
}

// resend sends what waits in the outbox now, as the sender does once the
// service is reachable again (its back-off would wait longer).
func (h *harness) resend(woID int64) {
	h.t.Helper()
	rows, _ := h.store.OutboxRows(context.Background(), woID)
	for _, r := range rows {
		if r.State == storage.OutboxPending {
			if _, err := h.store.Retry(context.Background(), r.Id); err != nil {
				h.t.Fatal(err)
			}
		}
	}
	h.send()
}

// TestAnOfflineCheckInShowsAsQueued: offline, a check-in shows on the work
// order with when it was queued, the header reads the status it will have,
// marked as queued, and the buttons follow it: Check in cannot be tapped
// twice, Pause can. Once sent, the header is the service's again.
func TestAnOfflineCheckInShowsAsQueued(t *testing.T) {
	h, cut := newOfflineHarness(t)
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	cut.Store(true)

	test.Tap(v.checkIn)
	h.flush()
	header, queued := h.desk.detail.status.Text(), h.desk.detail.outbox.Queued()
	if header != "Checked in · queued" {
		t.Fatalf("with the check-in queued the badge reads %q", header)
	}
	if !queued.Visible() || queued.Text != "Check-in queued 09:00" {
		t.Fatalf("the header says %q (shown: %v); want the queued check-in and its time", queued.Text, queued.Visible())
	}
	if !v.checkIn.Disabled() || v.pause.Disabled() {
		t.Fatalf("after the queued check-in: Check in disabled %v, Pause disabled %v", v.checkIn.Disabled(), v.pause.Disabled())
	}

	h.send() // the attempt fails: the network is down
	if got := h.desk.detail.outbox.Queued().Text; !strings.HasPrefix(got, "Check-in queued 09:00") || !strings.Contains(got, "waiting for the connection") {
		t.Fatalf("after a failed attempt the header says %q", got)
	}
	test.Tap(v.checkIn) // a second tap does nothing, and says nothing raw
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("a second tap on Check in showed %q", txt)
	}
	if kinds := queuedKinds(t, h, r.Id); len(kinds) != 1 {
		t.Fatalf("two taps queued %v", kinds)
	}
	if strings.Contains(strings.Join(texts(h.desk.detail.content()), "\n"), "CheckedIn") {
		t.Fatal("the work order shows a raw status name")
	}

	cut.Store(false)
	h.resend(r.Id)
	if got := h.desk.detail.status.Text(); got != "Checked in" || h.desk.detail.outbox.Queued().Visible() {
		t.Fatalf("once sent the badge reads %q, queued line shown %v", got, h.desk.detail.outbox.Queued().Visible())
	}
}

// TestAnOfflineMessageIsInTheThreadAsSending: a message written offline is
// in the thread at once, after the others, with who may see it, as
// sending; once the service has it, it is an ordinary message.
func TestAnOfflineMessageIsInTheThreadAsSending(t *testing.T) {
	h, cut := newOfflineHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(r.Id)
	h.selectTab("Messages")
	m := msgsOf(h)
	before := len(m.rows())
	cut.Store(true)

	m.text().SetText("Technician arrives at 10:30")
	m.vis().SetSelected(format.Visibility(api.VisibilityCruOnly))
	test.Tap(m.send())
	h.send()
	if len(m.rows()) != before+1 || m.empty() {
		t.Fatalf("the thread holds %d messages (empty note shown: %v), want %d", len(m.rows()), m.empty(), before+1)
	}
	last := m.last()
	if last.text != "Technician arrives at 10:30" || !strings.Contains(last.heading, "sending…") || !strings.Contains(last.heading, "Our crew only") {
		t.Fatalf("the thread ends with %q: %q", last.heading, last.text)
	}

	cut.Store(false)
	h.resend(r.Id)
	// The cut dropped the request after it reached the service's side, as
	// a lost answer does; the service lists no crew-only message, so
	// nothing can tell whether it arrived: the person is asked.
	thread := m.thread()
	if row := thread[len(thread)-1].Row; row == nil || !row.MayHaveBeenSent() || !strings.Contains(m.last().heading, "May have been sent") {
		t.Fatalf("after the lost attempt the thread ends with %q", m.last().heading)
	}
	refusals := headerLines(h)
	if len(refusals) != 1 || refusals[0].retry.Text != "Send again" || !strings.Contains(refusals[0].title.Text, "may have been sent") {
		t.Fatalf("the header does not ask the person: %d refusals", len(refusals))
	}
	test.Tap(refusals[0].retry) // it did not arrive: send it again
	h.send()
	thread = m.thread()
	sent := thread[len(thread)-1]
	// A crew-only message is never listed by the service: once sent it
	// stays in the thread from the outbox, as sent.
	if len(m.rows()) != before+1 || sent.Row == nil || sent.Row.State != storage.OutboxDone || m.last().text != "Technician arrives at 10:30" {
		t.Fatalf("once sent the thread holds %d messages, the last %q from the outbox: %v", len(m.rows()), m.last().text, sent.Row != nil)
	}
	if heading := m.last().heading; strings.Contains(heading, "sending") || !strings.HasPrefix(heading, "You · ") {
		t.Fatalf("the sent message reads %q", heading)
	}
}
