package storage

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// resendCase is an action whose answer gets lost: queue it, say which
// request carries it, and count its effect at the service.
type resendCase struct {
	name   string
	method string
	path   string // exact request path
	queue  func(t *testing.T, ctx context.Context, s *Store, svc *service) (row *OutboxRow, count func() int)
}

func tempFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func countNamed(t *testing.T, atts []api.Attachment, err error, name string) int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range atts {
		if a.Name == name {
			n++
		}
	}
	return n
}

var resendCases = []resendCase{
	{"message", http.MethodPost, "/api/messages", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		wo := pick(t, s, status(api.StatusAccepted))
		row := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, "resend: the gate code is 4711", api.VisibilityAll))
		return row, func() int {
			msgs, err := svc.client.ListMessages(ctx, wo.WorkOrderId)
			if err != nil {
				t.Fatal(err)
			}
			return countText(msgs, "resend: the gate code is 4711")
		}
	}},
	{"work order attachment", http.MethodPost, "/api/attachments", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		wo := pick(t, s, status(api.StatusCheckedIn))
		row := mustRow(t)(s.AttachFile(ctx, wo.WorkOrderId, tempFile(t, "resend-photo.jpg", "\xff\xd8 broken pipe"), api.VisibilityAll))
		return row, func() int {
			atts, err := svc.client.ListAttachments(ctx, wo.WorkOrderId)
			return countNamed(t, atts, err, "resend-photo.jpg")
		}
	}},
	{"invoice attachment", http.MethodPost, "/api/invoice/attachments", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		wo := pick(t, s, func(wo *api.WorkOrder) bool {
			if !wo.Status.Completed() || !wo.InvoiceVisible() {
				return false
			}
			inv, err := svc.client.GetInvoice(ctx, wo.WorkOrderId)
			return err == nil && inv.Status.Editable()
		})
		row := mustRow(t)(s.AddInvoiceAttachment(ctx, wo.WorkOrderId, tempFile(t, "resend-receipt.pdf", "%PDF receipt")))
		return row, func() int {
			atts, err := svc.client.ListInvoiceAttachments(ctx, wo.WorkOrderId)
			return countNamed(t, atts, err, "resend-receipt.pdf")
		}
	}},
	{"step attachment", http.MethodPost, "/api/procedure/step/attachments", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		var ref api.StepRef
		pick(t, s, func(wo *api.WorkOrder) bool {
			for _, p := range wo.Procedures() {
				if wo.CanChangeProcedure(p) == nil && wo.Status.Known() && len(p.Steps) > 0 {
					ref = api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: p.Steps[0].Id}
					return true
				}
			}
			return false
		})
		row := mustRow(t)(s.AddStepAttachment(ctx, ref, tempFile(t, "resend-gauge.jpg", "\xff\xd8 gauge")))
		return row, func() int {
			sas, err := svc.client.ListStepAttachments(ctx, ref)
			atts := make([]api.Attachment, len(sas))
			for i, a := range sas {
				atts[i] = a.Attachment
			}
			return countNamed(t, atts, err, "resend-gauge.jpg")
		}
	}},
	{"check-in", http.MethodPut, "/api/workOrder/checkIn", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		wo := pick(t, s, status(api.StatusAccepted))
		row := mustRow(t)(s.CheckIn(ctx, wo.WorkOrderId, nil, ""))
		return row, func() int {
			if svc.remote(t, wo.WorkOrderId).Status == api.StatusCheckedIn {
				return 1
			}
			return 0
		}
	}},
	{"quote", http.MethodPut, "/api/workOrder/quoteSubmit", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		wo := pick(t, s, func(wo *api.WorkOrder) bool {
			return wo.Can(api.SubmitQuote) == nil && wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == api.QuoteRequested
		})
		amount := api.Money{Amount: wo.Nte.Amount.Amount.Add(decimal.NewFromInt(400)), Currency: wo.Currency}
		row := mustRow(t)(s.SubmitQuote(ctx, wo.WorkOrderId, amount, "a second technician is needed", nil))
		return row, func() int {
			q := svc.remote(t, wo.WorkOrderId).Nte.Quote
			if q != nil && q.QuoteStatus == api.QuoteSubmitted && q.Amount.Amount.Equal(amount.Amount) {
				return 1
			}
			return 0
		}
	}},
	// Steps, N/A and the note: their state is one value, so a count is
	// whether the service holds ours.
	{"step", http.MethodPut, "/api/procedure/step", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		id, p, steps := stepFixture(t, svc, s)
		ref := api.StepRef{WorkOrderId: id, ProcedureId: p.Id, StepId: steps[2].Id} // Gaskets OK, a Bool
		row := mustRow(t)(s.UpdateStep(ctx, ref, api.StepUpdate{Status: api.StepDone, Value: "yes"}))
		return row, func() int {
			st, err := svc.client.GetStep(ctx, ref)
			return b2i(err == nil && st.Status == api.StepDone && st.Value == api.StepYes)
		}
	}},
	{"procedure N/A", http.MethodPut, "/api/procedure/markAsNA", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		id, p, _ := stepFixture(t, svc, s) // the fixture's procedure may be marked N/A
		row := mustRow(t)(s.MarkProcedureNA(ctx, id, p.Id))
		return row, func() int {
			got, ok := svc.remote(t, id).Procedure(p.Id)
			return b2i(ok && got.IsMarkedNa)
		}
	}},
	{"note", http.MethodPut, "/api/workOrder/note", func(t *testing.T, ctx context.Context, s *Store, svc *service) (*OutboxRow, func() int) {
		wo := pick(t, s, status(api.StatusPaused))
		row := mustRow(t)(s.SetNote(ctx, wo.WorkOrderId, "lost: ladder in the van", ""))
		return row, func() int {
			h, err := svc.client.NoteHistory(ctx, wo.WorkOrderId)
			return b2i(err == nil && api.CurrentNote(h).InternalNote == "lost: ladder in the van")
		}
	}},
}

// TestLostAnswerIsReconciledBeforeResending: the service does not
// de-duplicate by MessageId (the sandbox runs with NoMessageIdDedup). When
// the first attempt's answer is lost after the service applied it, the
// outbox finds the effect there and marks the row done without sending it
// again; when the request itself was lost, it sends it again. Either way the
// effect exists exactly once, and a message or file is never posted twice.
func TestLostAnswerIsReconciledBeforeResending(t *testing.T) {
	t.Parallel()
	for _, c := range resendCases {
		for _, f := range []struct {
			name  string
			fault faultKind
			sends int
		}{{"answer lost", dropAfter, 1}, {"request lost", dropBefore, 2}} {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				svc := newService(t, 160)
				s := syncedStore(t, svc)
				ctx := context.Background()
				row, count := c.queue(t, ctx, s, svc)
				var first atomic.Bool
				svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
					if r.Method == c.method && strings.EqualFold(strings.TrimRight(r.URL.Path, "/"), c.path) && first.CompareAndSwap(false, true) {
						return f.fault
					}
					return pass
				})
				x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
				sendAll(t, x)
				if r := rowState(t, s, row.Id); r.State != OutboxPending {
					t.Fatalf("after the lost attempt the row is %s %q; want pending", r.State, r.Error)
				}
				sendAll(t, x)
				if r := rowState(t, s, row.Id); r.State != OutboxDone {
					t.Fatalf("after the second pass the row is %s (code %d) %q; want done", r.State, r.ErrorCode, r.Error)
				}
				if n := count(); n != 1 {
					t.Errorf("the service shows the action %d times; want exactly once", n)
				}
				if n := len(svc.wire.calls(c.method, c.path)); n != f.sends {
					t.Errorf("the action was sent %d times; want %d", n, f.sends)
				}
				if n := len(svc.sb.Received(c.method, c.path)); n != 1 {
					t.Errorf("the action reached the service %d times; want exactly once", n)
				}
			})
		}
	}
}

// Two identical messages queued on purpose are both posted, even when the
// answer to the second is lost: the reconciliation counts what our done
// rows already account for.
func TestIdenticalMessagesAreBothPosted(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	text := "resend: on our way"
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, text, ""))
	sendAll(t, x)
	second := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, text, ""))
	var first atomic.Bool
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.Method == http.MethodPost && r.URL.Path == "/api/messages" && first.CompareAndSwap(false, true) {
			return dropBefore
		}
		return pass
	})
	sendAll(t, x)
	sendAll(t, x)
	if r := rowState(t, s, second.Id); r.State != OutboxDone {
		t.Fatalf("the second message row is %s %q", r.State, r.Error)
	}
	msgs, err := svc.client.ListMessages(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if n := countText(msgs, text); n != 2 {
		t.Errorf("the thread holds the message %d times; want the 2 the person sent", n)
	}
}

// A message whose text the thread already holds (posted by another of the
// company's systems) and whose request was lost is not taken for sent: the
// check compares the thread with what it held before ours was first sent,
// so ours is posted, once.
func TestAMessageAlreadyInTheThreadIsNotTakenForOurs(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	text := "On my way"
	if err := svc.client.SendMessage(ctx, &api.MessageRequest{WorkOrderId: wo.WorkOrderId, Text: text}); err != nil {
		t.Fatal(err)
	}
	row := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, text, ""))
	var first atomic.Bool
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.Method == http.MethodPost && r.URL.Path == "/api/messages" && first.CompareAndSwap(false, true) {
			return dropBefore // lost on its way: it may have been sent, but was not
		}
		return pass
	})
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("the row is %s (code %d) %q; want done", r.State, r.ErrorCode, r.Error)
	}
	reached := 0
	for _, m := range svc.sb.Received(http.MethodPost, "/api/messages") {
		if m.MessageId == row.MessageId {
			reached++
		}
	}
	if reached != 1 {
		t.Errorf("the row's MessageId reached the service %d times; want once (it was never posted: the other system's message was taken for it)", reached)
	}
	msgs, err := svc.client.ListMessages(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if n := countText(msgs, text); n != 2 {
		t.Errorf("the thread holds %q %d times; want 2 (the other system's and ours)", text, n)
	}
}

// A message in doubt with nothing kept of what the thread held before it
// was first sent (queued and sent by an older version, or the record lost)
// cannot be settled by the thread: the person decides, and it is not sent
// again on its own.
func TestAMessageInDoubtWithNothingKeptAsksThePerson(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	row := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, "Ladder on site", ""))
	if _, err := s.w.ExecContext(ctx, `INSERT INTO outbox_maybe_sent(outbox_id) VALUES (?)`, row.Id); err != nil {
		t.Fatal(err)
	}
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	r := rowState(t, s, row.Id)
	if !r.MayHaveBeenSent() {
		t.Fatalf("the row is %s (code %d) %q; want it waiting for the person as may have been sent", r.State, r.ErrorCode, r.Error)
	}
	if n := len(svc.sb.Received(http.MethodPost, "/api/messages")); n != 0 {
		t.Errorf("the message reached the service %d times; want none until the person decides", n)
	}
}

// A failed quote is retried from its stored request with a new MessageId;
// the amount goes out exactly as typed, though float64 would round it.
func TestRetryKeepsMoneyExact(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Can(api.SubmitQuote) == nil && wo.Currency == "USD" && wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == api.QuoteRequested
	})
	const typed = "12345678901234567.89" // float64 makes it 12345678901234568
	amount := api.MustMoney(typed, "USD")
	row := mustRow(t)(s.SubmitQuote(ctx, wo.WorkOrderId, amount, "the whole roof", nil))
	var refused atomic.Bool
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/workOrder/quoteSubmit" && refused.CompareAndSwap(false, true) {
			return serverRefusal
		}
		return pass
	})
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxFailed {
		t.Fatalf("after the refusal the row is %s", r.State)
	}
	retried, err := s.Retry(ctx, row.Id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(retried.Request), typed) {
		t.Errorf("the retried request is %s; want the amount %s unchanged", retried.Request, typed)
	}
	sendAll(t, x)
	q := svc.remote(t, wo.WorkOrderId).Nte.Quote
	if q == nil || q.QuoteStatus != api.QuoteSubmitted || q.Amount.Amount.String() != typed {
		t.Errorf("the service has the quote %+v; want %s submitted", q, typed)
	}
}

// b2i is a count of one thing: 1 when there, else 0.
func b2i(there bool) int {
	if there {
		return 1
	}
	return 0
}
