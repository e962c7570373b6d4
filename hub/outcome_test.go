package hub

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// A message only the crew sees is posted and its answer lost. The
// service lists only messages everyone sees, so nothing can tell whether
// it landed: the hub does not post it again, now or when the desktop
// retries with its MessageId, and answers 409 "outcome unknown" in the
// service's error body, which the desktop's client reads as such. Sent
// again under a new MessageId (the person's "Send again"), it goes.
func TestHubAMessageNothingCanSettleIsNotSentAgain(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{NoMessageIdDedup: true})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	served := o.logWrites(func(r *http.Request, n int) serviceFault {
		return serviceFault{loseAnswer: n == 1}
	})
	req := &api.MessageRequest{WorkOrderId: id, Text: "crew only: the gate code is on the board", MessageVisibility: api.VisibilityCruOnly}
	for try := range 2 {
		err := ana.SendMessage(ctx, req)
		if !api.IsOutcomeUnknown(err) || !strings.Contains(err.Error(), "send it again") {
			t.Fatalf("attempt %d of a message whose answer was lost: %v, want 409 outcome unknown saying what to do", try+1, err)
		}
	}
	if n := served.count(); n != 1 {
		t.Fatalf("the message reached the service %d times, want once", n)
	}
	audit := readAudit(t, a, creds, id)
	if last := audit[len(audit)-1]; last.Status != http.StatusConflict || last.MessageId != req.MessageId {
		t.Fatalf("the audit's last row %+v, want the 409 of the message", last)
	}
	again := &api.MessageRequest{WorkOrderId: id, Text: req.Text, MessageVisibility: api.VisibilityCruOnly}
	if err := ana.SendMessage(ctx, again); err != nil {
		t.Fatalf("sent again under a new MessageId: %v", err)
	}
	if n := served.count(); n != 2 {
		t.Fatalf("after sending it again, %d posts reached the service, want 2", n)
	}
}

// The thread already holds "On my way", posted by another of the company's
// systems. Ana's "On my way" through the hub is lost on its way to the
// service, so the hub cannot tell it from a lost answer; asked, the thread
// shows one "On my way", as before Ana's was sent: hers is not taken for
// sent, and her desktop's retry posts it, once.
func TestHubAMessageAlreadyInTheThreadIsNotTakenForOurs(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{NoMessageIdDedup: true})
	a := o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	company, err := api.NewClient(o.info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: o.info.TokenURL, ClientID: o.info.ClientID, ClientSecret: o.info.ClientSecret}))
	if err != nil {
		t.Fatal(err)
	}
	const text = "On my way"
	if err := company.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: text}); err != nil {
		t.Fatal(err)
	}
	served := o.logWrites(func(r *http.Request, n int) serviceFault { return serviceFault{loseRequest: n == 1} })
	req := &api.MessageRequest{WorkOrderId: id, Text: text}
	for try := 1; ; try++ {
		err := ana.SendMessage(ctx, req)
		if err == nil {
			break
		}
		if try == 3 || api.IsOutcomeUnknown(err) {
			t.Fatalf("attempt %d: %v; want the message posted once the retry comes", try, err)
		}
	}
	msgs, err := company.ListMessages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	there := 0
	for _, m := range msgs {
		if m.Text == text {
			there++
		}
	}
	if there != 2 {
		t.Fatalf("the thread holds %q %d times, want 2: the other system's and Ana's (%d posts reached the hub's watch)", text, there, served.count())
	}
}

// The office restores its database from a backup taken before Ana's
// accept, whose answer she never got. The restored database has no trace
// of it; the hub sees that the database is another one and, before
// sending anything it does not know, asks the service: the accept Ana
// sends again with its MessageId is answered without reaching the service
// a second time, and her next write, which the service has not seen, goes
// out once.
func TestHubAfterARestoreChecksWithTheServiceBeforeSending(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{NoMessageIdDedup: true})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	backup := cluster.Dump(t, o.url)
	served := o.logWrites(func(*http.Request, int) serviceFault { return serviceFault{} })
	ctx := context.Background()
	accept := &api.AcceptRequest{WorkOrderId: id}
	if err := ana.Accept(ctx, accept); err != nil {
		t.Fatal(err)
	}
	a.stop()

	restored := o.startOn(cluster.Restore(t, backup), nil)
	again := desktop(t, restored, creds)
	if err := again.Accept(ctx, accept); err != nil {
		t.Fatalf("the accept sent again after the restore: %v", err)
	}
	if n := served.count(); n != 1 {
		t.Fatalf("the accept reached the service %d times, want once", n)
	}
	schedule := &api.AppointmentRequest{WorkOrderId: id, ScheduledStart: time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)}
	if err := again.UpdateAppointment(ctx, schedule); err != nil {
		t.Fatalf("a new write after the restore: %v", err)
	}
	if n := served.count(); n != 2 {
		t.Fatalf("after a new write, %d writes reached the service, want 2", n)
	}
	if err := wantStatus(ctx, again, id, api.StatusAccepted); err != nil {
		t.Fatal(err)
	}
}

// The hub died with writes in doubt whose desktops never sent them again
// (the person discarded them, the computer is gone). The syncing instance
// settles them with the service once they have waited a while: the one
// the service took gets its audit row and its event, naming who made it;
// the one it did not is marked unsent, and goes out once when its desktop
// does send it again; one of a moment ago is left to its desktop.
func TestHubSettlesWritesInDoubtThatNoDesktopSendsAgain(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{NoMessageIdDedup: true})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	events := openStream(t, a, creds, "")
	ctx := context.Background()
	landed, lost, recent := newWorkOrder(t, o), newWorkOrder(t, o), newWorkOrder(t, o)
	people, err := o.db.People(ctx)
	if err != nil {
		t.Fatal(err)
	}
	doubt := func(wo int64, age time.Duration) *api.AcceptRequest {
		req := &api.AcceptRequest{WorkOrderId: wo, Envelope: api.Envelope{MessageId: uuid.NewString()}}
		body, _ := json.Marshal(req)
		if _, err := o.db.Pool.Exec(ctx, `INSERT INTO intents (person_id, message_id, method, route, path, kind, work_orders, request, state, updated)
			VALUES ($1, $2, 'PUT', '/api/workorder/accept', '/api/workOrder/accept', 'accept', $3, $4, 'sending', now() - $5::interval)`,
			people[0].Id, req.MessageId, []int64{wo}, string(body), age); err != nil {
			t.Fatal(err)
		}
		return req
	}
	// The service had taken the first before the hub died.
	if err := o.direct().Accept(ctx, &api.AcceptRequest{WorkOrderId: landed}); err != nil {
		t.Fatal(err)
	}
	took, notTaken, fresh := doubt(landed, 3*time.Minute), doubt(lost, 3*time.Minute), doubt(recent, 0)
	served := o.logWrites(func(*http.Request, int) serviceFault { return serviceFault{} })
	if err := a.hub.settleOrphans(ctx); err != nil {
		t.Fatal(err)
	}
	he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == landed })
	if he.PerformedBy.Name != "Ana Ruiz" || he.Header.MessageId != took.MessageId || he.Header.Action != "AcceptedByContractor" {
		t.Fatalf("the event of the write the service took: %+v", he)
	}
	if audit := readAudit(t, a, creds, landed); len(audit) != 1 || audit[0].Status != http.StatusOK || audit[0].Person != "Ana Ruiz" {
		t.Fatalf("its audit: %+v", audit)
	}
	states := map[string]string{}
	for _, req := range []*api.AcceptRequest{took, notTaken, fresh} {
		var st string
		o.db.Pool.QueryRow(ctx, `SELECT state FROM intents WHERE message_id = $1`, req.MessageId).Scan(&st)
		states[req.MessageId] = st
	}
	if states[took.MessageId] != intentAnswered || states[notTaken.MessageId] != "unsent" || states[fresh.MessageId] != intentSending {
		t.Fatalf("after settling: taken %s, not taken %s, of a moment ago %s", states[took.MessageId], states[notTaken.MessageId], states[fresh.MessageId])
	}
	if n := served.count(); n != 0 {
		t.Fatalf("settling sent %d writes", n)
	}
	if err := ana.Accept(ctx, notTaken); err != nil {
		t.Fatalf("the write not taken, sent again by its desktop: %v", err)
	}
	if n := served.count(); n != 1 {
		t.Fatalf("it reached the service %d times, want once", n)
	}
}

// A crew-only message that never reached the service (the company's token
// had expired and a new one could not be had) is not in doubt: sent again
// with its MessageId, it goes out, once, rather than being answered
// "outcome unknown".
func TestHubAWriteThatNeverLeftIsNotInDoubt(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{NoMessageIdDedup: true})
	a := o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	var expired, refused, posted atomic.Int64
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/messages" && expired.Add(1) == 1:
			w.WriteHeader(http.StatusUnauthorized) // the company's token has just expired
			return true
		case r.URL.Path == "/oauth/token" && expired.Load() == 1 && refused.Add(1) == 1:
			w.WriteHeader(http.StatusServiceUnavailable) // and no new one now
			return true
		case r.Method == http.MethodPost && r.URL.Path == "/api/messages":
			posted.Add(1)
		}
		return false
	})
	req := &api.MessageRequest{WorkOrderId: id, Text: "crew only: bring the long ladder", MessageVisibility: api.VisibilityCruOnly}
	if err := ana.SendMessage(ctx, req); err == nil || api.IsOutcomeUnknown(err) {
		t.Fatalf("the message sent while the company had no token: %v, want the service unreachable", err)
	}
	if err := ana.SendMessage(ctx, req); err != nil {
		t.Fatalf("sent again with its MessageId: %v", err)
	}
	if n := posted.Load(); n != 1 {
		t.Fatalf("the message reached the service %d times, want once", n)
	}
}

// The events written after a backup are gone from a restored log, but
// desktops saw them and resume after the newest: a stream resumed with
// such an id still gets the first event after the restore.
func TestStreamResumedAcrossARestoreGetsWhatFollows(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	backup := cluster.Dump(t, o.url)
	next := func(s <-chan sseEvent, what string) sseEvent {
		t.Helper()
		select {
		case ev, ok := <-s:
			if !ok {
				t.Fatalf("%s: the stream ended", what)
			}
			return ev
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no event within 10 s", what)
		}
		return sseEvent{}
	}
	seen := openStream(t, a, creds, "")
	var last int64
	for range 3 {
		postNotificationAt(t, o, a.srv.URL, id)
		last = max(last, next(seen, "before the restore").Id)
	}
	a.stop()

	restored := o.startOn(cluster.Restore(t, backup), nil)
	// Its first sync first: one that stored the change the notification
	// below is about would leave it nothing new to tell.
	firstSyncDone(t, restored)
	resumed := openStream(t, restored, creds, strconv.FormatInt(last, 10))
	postNotificationAt(t, o, restored.srv.URL, id)
	if ev := next(resumed, "the stream resumed after the restore"); ev.Id <= last {
		t.Fatalf("after the restore an event came as id %d, not after the %d the desktop had", ev.Id, last)
	}
}
