package storage

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// TestCorrectionOfARetriedActionIsNotQueuedBesideIt: a refused message is
// retried while its correction is being written (Retry in the header, or in
// another window). Queueing the correction then would send the customer
// both: it is refused, saying why, whether the retried one still waits or
// has gone out. One discarded meanwhile leaves the correction an ordinary
// message.
func TestCorrectionOfARetriedActionIsNotQueuedBesideIt(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	refuseMessages := func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/messages" && r.Method == http.MethodPost {
			return serverRefusal
		}
		return pass
	}
	svc.wire.setFault(refuseMessages)
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	bad := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "Technican on site at 10", api.VisibilityAll))
	sendAll(t, x)
	if got := rowState(t, s, bad.Id).State; got != OutboxFailed {
		t.Fatalf("the message was %s, want refused", got)
	}
	fix := Replacing(ctx, bad.Id)
	messages := func() (n int) {
		t.Helper()
		rows, err := s.OutboxRows(ctx, a.WorkOrderId)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Kind == outbox.KindMessage && r.State != OutboxDiscarded {
				n++
			}
		}
		return n
	}
	sentAgain := func(step string, err error) {
		t.Helper()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "sent again meanwhile") ||
			!strings.Contains(err.Error(), "not queued") || strings.Contains(err.Error(), "storage:") {
			t.Fatalf("%s: the correction = %v; want it refused in plain words", step, err)
		}
		if n := messages(); n != 1 {
			t.Fatalf("%s: %d messages on their way; want the retried one only", step, n)
		}
	}

	// Retried, still waiting to be sent.
	if _, err := s.Retry(ctx, bad.Id); err != nil {
		t.Fatal(err)
	}
	_, err := s.SendMessage(fix, a.WorkOrderId, "Technician on site at 10", api.VisibilityAll)
	sentAgain("retried and waiting", err)

	// Retried and sent.
	svc.wire.setFault(nil)
	sendAll(t, x)
	if got := rowState(t, s, bad.Id).State; got != OutboxDone {
		t.Fatalf("the retried message is %s", got)
	}
	_, err = s.SendMessage(fix, a.WorkOrderId, "Technician on site at 10", api.VisibilityAll)
	sentAgain("retried and sent", err)

	// Refused, then discarded in another window: the correction is a new message.
	svc.wire.setFault(refuseMessages)
	gone := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "Parts arrive Tuesay", api.VisibilityAll))
	sendAll(t, x)
	if err := s.Discard(ctx, gone.Id); err != nil {
		t.Fatal(err)
	}
	row := mustRow(t)(s.SendMessage(Replacing(ctx, gone.Id), a.WorkOrderId, "Parts arrive Tuesday", api.VisibilityAll))
	if row.State != OutboxPending || rowState(t, s, gone.Id).State != OutboxDiscarded {
		t.Errorf("after a discard, the correction is %s and the discarded one %s", row.State, rowState(t, s, gone.Id).State)
	}
}

// TestDraftKeepsCompletionAndAccessType: what a check-out carried for the
// customer (repair code, answers) and an appointment's access type read
// back, so that correcting them loses nothing the person entered.
func TestDraftKeepsCompletionAndAccessType(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	pm := pick(t, s, func(wo *api.WorkOrder) bool {
		return status(api.StatusCheckedIn)(wo) && wo.Customer.Name == "Harbor Point Hotels" && wo.Type == api.WorkOrderTypePMRM
	})
	done := fullCompletion(t, s, pm)
	out := mustRow(t)(s.CheckOutWith(ctx, pm.WorkOrderId, nil, "filters changed", done))
	d, ok := out.Draft(pm.Currency)
	if !ok || d.Text != "filters changed" || d.At != nil {
		t.Fatalf("check-out draft %+v %v", d, ok)
	}
	if d.Completion.RepairInfo == nil || d.Completion.RepairInfo.CodeId != done.RepairInfo.CodeId ||
		len(d.Completion.CustomFields) != len(done.CustomFields) {
		t.Fatalf("the check-out's completion reads back as %+v; want %+v", d.Completion, done)
	}
	for _, f := range done.CustomFields {
		if d.Completion.Value(f.Id) != f.Value {
			t.Errorf("answer %s reads back as %q, want %q", f.Id, d.Completion.Value(f.Id), f.Value)
		}
	}
	// Corrected as read back, it checks the PMRM work order out with its
	// details, not into Needs completion details.
	if got := api.CheckOutOutcome(pm, mustSettings(t, s, pm), d.Completion); got != api.StatusCheckedOut {
		t.Errorf("the read-back completion checks out to %s", got)
	}

	accepted := pick(t, s, status(api.StatusAccepted))
	start := testNow.Add(26 * time.Hour).Truncate(time.Minute)
	sched := mustRow(t)(s.SetAppointment(ctx, accepted.WorkOrderId, start, "CallFirst"))
	if d, ok := sched.Draft(accepted.Currency); !ok || d.Pte != "CallFirst" || d.At == nil || !d.At.Equal(start) {
		t.Errorf("appointment draft %+v %v; want its start and access type", d, ok)
	}
}

func mustSettings(t *testing.T, s *Store, wo *api.WorkOrder) *api.CustomerSettings {
	t.Helper()
	cs, err := s.settingsOf(context.Background(), wo)
	if err != nil || cs == nil {
		t.Fatalf("settings of %s: %v", wo.Customer.Name, err)
	}
	return cs
}
