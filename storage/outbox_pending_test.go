package storage

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

// TestPendingShowsWhatQueuedActionsWillDo: offline, a queued check-in makes
// the work order read as checked in, marked as not yet the service's, with
// the rules judging the expected status; once sent, nothing is pending.
func TestPendingShowsWhatQueuedActionsWillDo(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	row := mustRow(t)(s.CheckIn(ctx, a.WorkOrderId, nil, ""))

	p, err := s.Pending(ctx, a.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if p.Replica.Status != api.StatusAccepted || p.Expected.Status != api.StatusCheckedIn || !p.StatusQueued() {
		t.Fatalf("with a check-in queued: replica %s, expected %s", p.Replica.Status, p.Expected.Status)
	}
	if len(p.Queued) != 1 || p.Queued[0].Id != row.Id || len(p.Refused) != 0 {
		t.Fatalf("queued %v, refused %v; want the check-in only", p.Queued, p.Refused)
	}
	if p.Expected.Can(api.CheckIn) == nil || p.Expected.Can(api.Pause) != nil {
		t.Errorf("the expected work order allows check-in %v, pause %v; want pause only", p.Expected.Can(api.CheckIn), p.Expected.Can(api.Pause))
	}

	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	if p, _ = s.Pending(ctx, a.WorkOrderId); p.StatusQueued() || len(p.Queued) != 0 || p.Replica.Status != api.StatusCheckedIn {
		t.Errorf("after sending: replica %s, queued %d, status queued %v", p.Replica.Status, len(p.Queued), p.StatusQueued())
	}
}

// TestPendingRefusalHoldsLaterEffectsBack: a refused accept changed nothing,
// and the check-in queued behind it waits: neither shows as the expected status.
func TestPendingRefusalHoldsLaterEffectsBack(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusNew))
	if err := svc.client.Accept(ctx, &api.AcceptRequest{WorkOrderId: a.WorkOrderId}); err != nil {
		t.Fatal(err) // accepted elsewhere; the replica does not know yet
	}
	accept := mustRow(t)(s.Accept(ctx, a.WorkOrderId, ""))
	mustRow(t)(s.CheckIn(ctx, a.WorkOrderId, nil, ""))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))

	p, err := s.Pending(ctx, a.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Refused) != 1 || p.Refused[0].Id != accept.Id || len(p.Queued) != 1 {
		t.Fatalf("refused %d, queued %d; want the accept refused and the check-in waiting", len(p.Refused), len(p.Queued))
	}
	if p.Expected.Status != p.Replica.Status {
		t.Errorf("expected status %s with the accept refused; want the replica's %s", p.Expected.Status, p.Replica.Status)
	}
}

// TestCorrectingARefusedActionReplacesItOnlyOnceQueued: a refused message
// is read back for editing; queueing the corrected one (Replacing) discards
// the refused row in the same step, while giving up, or queueing another
// kind of action, leaves it refused.
func TestCorrectingARefusedActionReplacesItOnlyOnceQueued(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/messages" && r.Method == http.MethodPost {
			return serverRefusal
		}
		return pass
	})
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	bad := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "Technican on site at 10", api.VisibilityCruOnly))
	sendAll(t, x)
	bad = rowState(t, s, bad.Id)
	if bad.State != OutboxFailed {
		t.Fatalf("the message was %s, want refused", bad.State)
	}
	d, ok := bad.Draft(a.Currency)
	if !ok || d.Text != "Technican on site at 10" || d.Visibility != api.VisibilityCruOnly {
		t.Fatalf("the refused message reads back as %+v (%v)", d, ok)
	}

	// Without Replacing, the refusal holds everything back, and says where to act.
	if _, err := s.SendMessage(ctx, a.WorkOrderId, "Technician on site at 10", api.VisibilityCruOnly); !errors.Is(err, ErrInvalid) ||
		!strings.Contains(err.Error(), "top of the work order") {
		t.Fatalf("a new message beside the refused one = %v", err)
	}
	// Another kind of action queued while correcting leaves the message refused.
	fix := Replacing(ctx, bad.Id)
	checkIn := mustRow(t)(s.CheckIn(fix, a.WorkOrderId, nil, ""))
	if rowState(t, s, bad.Id).State != OutboxFailed {
		t.Fatal("a check-in replaced the refused message")
	}
	fixed := mustRow(t)(s.SendMessage(fix, a.WorkOrderId, "Technician on site at 10", d.Visibility))
	if got := rowState(t, s, bad.Id).State; got != OutboxDiscarded {
		t.Fatalf("after queueing the correction the refused message is %s", got)
	}
	svc.wire.setFault(nil)
	sendAll(t, x)
	for _, r := range []*OutboxRow{checkIn, fixed} {
		if got := rowState(t, s, r.Id); got.State != OutboxDone {
			t.Errorf("%s after the correction: %s %q", r.Kind, got.State, got.Error)
		}
	}
}

// TestDraftReadsBackWhatThePersonEntered: each correctable action gives back
// its content; actions with nothing to correct say so.
func TestDraftReadsBackWhatThePersonEntered(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	must := mustRow(t)
	newWO := pick(t, s, status(api.StatusNew))
	accepted := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusAccepted && !wo.IsPreBilled && wo.Customer.Name == "Northwind Retail" &&
			wo.Can(api.SubmitQuote) == nil && !wo.Nte.Amount.IsZero()
	})
	start := testNow.Add(26 * time.Hour).Truncate(time.Minute)
	earlier := svc.sb.Clock().Now().Add(-time.Hour).Truncate(time.Minute)
	amount := accepted.Nte.Amount
	amount.Amount = amount.Amount.Add(decimal.NewFromInt(500))

	reject := must(s.Reject(ctx, newWO.WorkOrderId, "No technician free this week"))
	sched := must(s.SetAppointment(ctx, accepted.WorkOrderId, start, ""))
	checkIn := must(s.CheckIn(ctx, accepted.WorkOrderId, &earlier, "gate code 1234"))
	quote := must(s.SubmitQuote(ctx, accepted.WorkOrderId, amount, "Compressor must be replaced", nil))

	if d, ok := reject.Draft("USD"); !ok || d.Text != "No technician free this week" {
		t.Errorf("reject draft %+v %v", d, ok)
	}
	if d, ok := sched.Draft("USD"); !ok || d.At == nil || !d.At.Equal(start) {
		t.Errorf("appointment draft %+v %v, want %v", d, ok, start)
	}
	if d, ok := checkIn.Draft("USD"); !ok || d.At == nil || !d.At.Equal(earlier) || d.Text != "gate code 1234" {
		t.Errorf("check-in draft %+v %v, want back-dated to %v", d, ok, earlier)
	}
	if d, ok := quote.Draft("USD"); !ok || !d.Amount.Amount.Equal(amount.Amount) || d.Amount.Currency != "USD" || d.Text != "Compressor must be replaced" {
		t.Errorf("quote draft %+v %v", d, ok)
	}
	now := must(s.Pause(ctx, accepted.WorkOrderId, nil, ""))
	if d, ok := now.Draft("USD"); !ok || d.At != nil {
		t.Errorf("a pause recorded as now reads back as %+v %v", d, ok)
	}
	other := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusNew && !wo.IsPreBilled && wo.WorkOrderId != newWO.WorkOrderId
	})
	if _, ok := must(s.Accept(ctx, other.WorkOrderId, "")).Draft("USD"); ok {
		t.Error("an accept offers something to edit")
	}

	// While the quote waits, the work order shows it as submitted, with its amount.
	p, err := s.Pending(ctx, accepted.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if q := p.Expected.Nte.Quote; q == nil || q.QuoteStatus != api.QuoteSubmitted || q.Amount.Format() != amount.Format() {
		t.Errorf("the expected quote is %+v, want %s submitted", q, amount.Format())
	}
	if q := p.Replica.Nte.Quote; q != nil && q.QuoteStatus == api.QuoteSubmitted && q.Amount.Amount.Equal(amount.Amount) {
		t.Error("the replica's quote was changed by the queued one")
	}
}

// TestThreadShowsOurMessagesBeforeTheServiceHasThem: a queued message is in
// the thread, after what the service holds, and once sent it is there once.
func TestThreadShowsOurMessagesBeforeTheServiceHasThem(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	row := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "Parts arrive Tuesday", api.VisibilityAll))
	th, err := s.Thread(ctx, a.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if len(th) == 0 {
		t.Fatal("the thread is empty with a message queued")
	}
	last := th[len(th)-1]
	if last.Row == nil || last.Row.Id != row.Id || last.Row.State != OutboxPending || last.Text != "Parts arrive Tuesday" ||
		last.MessageVisibility != api.VisibilityAll {
		t.Fatalf("the thread ends with %+v, want the queued message", last)
	}

	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	th, _ = s.Thread(ctx, a.WorkOrderId)
	n := 0
	for _, m := range th {
		if m.Text == "Parts arrive Tuesday" {
			n++
			if m.Row != nil {
				t.Errorf("the sent message still comes from the outbox (%s)", m.Row.State)
			}
		}
	}
	if n != 1 {
		t.Errorf("the sent message is in the thread %d times", n)
	}
}
