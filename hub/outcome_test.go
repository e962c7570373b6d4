package hub

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

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

// The office restores its database from a backup taken before Ana's
// accept, whose answer she never got. The restored database has no trace
// of it; the hub sees that the database is another one and, before
// sending anything it does not know, asks the service: the accept Ana
// sends again with its MessageId is answered without reaching the service
// a second time, and her next write, which the service has not seen, goes
// out once.
func TestHubAfterARestoreChecksWithTheServiceBeforeSending(t *testing.T) {
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
