package storage

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

func noWait(int) time.Duration { return 0 }

func sendAll(t *testing.T, x *Sender) {
	t.Helper()
	if _, err := x.SendReady(context.Background()); err != nil {
		t.Fatalf("SendReady: %v", err)
	}
}

func mustRow(t *testing.T) func(*OutboxRow, error) *OutboxRow {
	return func(r *OutboxRow, err error) *OutboxRow {
		t.Helper()
		if err != nil {
			t.Fatalf("enqueue: %v", err)
		}
		return r
	}
}

func rowState(t *testing.T, s *Store, id int64) *OutboxRow {
	t.Helper()
	r, err := s.OutboxRow(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// woIdOf reads the WorkOrderId of a recorded JSON request.
func woIdOf(c recorded) int64 {
	var b struct{ WorkOrderId int64 }
	json.Unmarshal(c.Body, &b)
	return b.WorkOrderId
}

func TestOutboxSendsInOrderPerWorkOrder(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	must := mustRow(t)
	a := pick(t, s, status(api.StatusNew))
	b := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusNew && !wo.IsPreBilled && wo.WorkOrderId != a.WorkOrderId
	})

	// Offline, the person accepts A, checks in, writes a message, then accepts B.
	r1 := must(s.Accept(ctx, a.WorkOrderId, "on our way"))
	r2 := must(s.CheckIn(ctx, a.WorkOrderId, nil, ""))
	r3 := must(s.SendMessage(ctx, a.WorkOrderId, "Technician on site", api.VisibilityAll))
	r4 := must(s.Accept(ctx, b.WorkOrderId, ""))
	if r1.State != OutboxPending || r1.MessageId == "" {
		t.Fatalf("queued row = %+v", r1)
	}
	if p, f := s.OutboxSummary(ctx); p != 4 || f != 0 {
		t.Errorf("OutboxSummary = %d pending, %d failed; want 4, 0", p, f)
	}

	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)

	var order []string
	svc.wire.mu.Lock()
	for _, c := range svc.wire.log {
		if c.Method != http.MethodGet && woIdOf(c) == a.WorkOrderId {
			order = append(order, c.Path)
		}
	}
	svc.wire.mu.Unlock()
	want := []string{"/api/workorder/accept", "/api/workorder/checkin", "/api/messages"}
	if !slices.Equal(order, want) {
		t.Errorf("requests for A = %v; want %v", order, want)
	}
	for _, r := range []*OutboxRow{r1, r2, r3, r4} {
		if got := rowState(t, s, r.Id); got.State != OutboxDone {
			t.Errorf("row %s = %s (%s)", r.Kind, got.State, got.Error)
		}
	}
	if got := svc.remote(t, a.WorkOrderId).Status; got != api.StatusCheckedIn {
		t.Errorf("service says A is %s", got)
	}
	// The replica shows the result without waiting for a sync.
	if wo, _ := s.WorkOrder(ctx, a.WorkOrderId); wo.Status != api.StatusCheckedIn {
		t.Errorf("replica says A is %s", wo.Status)
	}
	if wo, _ := s.WorkOrder(ctx, b.WorkOrderId); wo.Status != api.StatusAccepted {
		t.Errorf("replica says B is %s", wo.Status)
	}
	if msgs, _ := s.Messages(ctx, a.WorkOrderId); !slices.ContainsFunc(msgs, func(m api.Message) bool { return m.Text == "Technician on site" }) {
		t.Errorf("message cache not refreshed: %+v", msgs)
	}
	if p, f := s.OutboxSummary(ctx); p != 0 || f != 0 {
		t.Errorf("OutboxSummary after sending = %d, %d", p, f)
	}
}

func TestOutboxBusinessErrorFailsAndBlocks(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	must := mustRow(t)
	a := pick(t, s, status(api.StatusNew))
	// Someone accepted it elsewhere; the replica does not know yet.
	if err := svc.client.Accept(ctx, &api.AcceptRequest{WorkOrderId: a.WorkOrderId}); err != nil {
		t.Fatal(err)
	}
	accept := must(s.Accept(ctx, a.WorkOrderId, ""))
	checkIn := must(s.CheckIn(ctx, a.WorkOrderId, nil, ""))
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)

	got := rowState(t, s, accept.Id)
	if got.State != OutboxFailed || got.ErrorCode != api.CodeWrongStatus || got.Error == "" || strings.Contains(got.Error, "HTTP") {
		t.Fatalf("refused row = %s code %d %q; want failed with the service's own message", got.State, got.ErrorCode, got.Error)
	}
	if len(svc.wire.calls(http.MethodPut, "/api/workorder/checkin")) != 0 {
		t.Error("check-in was sent although the accept before it failed")
	}
	if rowState(t, s, checkIn.Id).State != OutboxPending {
		t.Error("blocked check-in is not pending")
	}
	if p, f := s.OutboxSummary(ctx); p != 1 || f != 1 {
		t.Errorf("OutboxSummary = %d, %d; want 1 pending, 1 failed", p, f)
	}
	if rows, _ := s.List(ctx, ListQuery{NeedsAttention: true}); !slices.Contains(ids(rows), a.WorkOrderId) {
		t.Error("a work order with a failed action does not need attention")
	}

	// The person discards the refused accept; the check-in may go now.
	if err := s.Discard(ctx, accept.Id); err != nil {
		t.Fatal(err)
	}
	sendAll(t, x)
	if r := rowState(t, s, checkIn.Id); r.State != OutboxDone {
		t.Errorf("check-in after discard = %s %q", r.State, r.Error)
	}
	if err := s.Discard(ctx, checkIn.Id); !errors.Is(err, ErrInvalid) {
		t.Errorf("discarding a done row = %v", err)
	}
}

func TestOutboxRetryAfterRefusalUsesNewMessageId(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	var refuse atomic.Bool
	refuse.Store(true)
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/messages" && r.Method == http.MethodPost && refuse.Load() {
			return serverRefusal
		}
		return pass
	})
	row := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "please call", api.VisibilityAll))
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxFailed || r.Error != "The customer's desk is closed" {
		t.Fatalf("row = %s %q", r.State, r.Error)
	}
	refuse.Store(false)
	retried, err := s.Retry(ctx, row.Id)
	if err != nil {
		t.Fatal(err)
	}
	if retried.MessageId == row.MessageId || retried.State != OutboxPending || retried.Error != "" {
		t.Errorf("retried row = %+v", retried)
	}
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Errorf("after retry = %s %q", r.State, r.Error)
	}
	posts := svc.wire.calls(http.MethodPost, "/api/messages")
	if len(posts) != 2 || posts[1].MessageId != retried.MessageId {
		t.Errorf("posts = %d, second id %q; want the new id %q", len(posts), posts[len(posts)-1].MessageId, retried.MessageId)
	}
}

func TestOutboxTemporaryFailureKeepsMessageId(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fault faultKind
	}{
		{"request lost", dropBefore},
		{"answer lost after the service applied it", dropAfter},
		{"server error", serverError},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			svc := newService(t, 70)
			s := syncedStore(t, svc)
			ctx := context.Background()
			a := pick(t, s, status(api.StatusAccepted))
			var failures atomic.Int32
			failures.Store(1)
			svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
				if r.URL.Path == "/api/messages" && r.Method == http.MethodPost && failures.Add(-1) >= 0 {
					return c.fault
				}
				return pass
			})
			text := "unique text " + c.name
			row := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, text, api.VisibilityAll))
			var waited []int
			x := NewSender(s, svc.client, SenderOptions{Backoff: func(n int) time.Duration { waited = append(waited, n); return time.Hour }})
			sendAll(t, x)
			r := rowState(t, s, row.Id)
			if r.State != OutboxPending || r.Error == "" || r.NextAttempt.IsZero() {
				t.Fatalf("after a temporary failure row = %s %q next %v; want pending with a reason and a retry time", r.State, r.Error, r.NextAttempt)
			}
			if !slices.Equal(waited, []int{1}) {
				t.Errorf("back-off asked for %v", waited)
			}
			// Back-off not over: nothing is sent.
			sendAll(t, x)
			if n := len(svc.wire.calls(http.MethodPost, "/api/messages")); n != 1 {
				t.Errorf("sent %d times during back-off", n)
			}
			// "Retry now" (or the back-off ending) sends the same request again.
			if _, err := s.Retry(ctx, row.Id); err != nil {
				t.Fatal(err)
			}
			sendAll(t, x)
			if r := rowState(t, s, row.Id); r.State != OutboxDone {
				t.Fatalf("after the network came back row = %s %q", r.State, r.Error)
			}
			// Where the service had applied it, the message is found there and
			// not posted again (MessageId de-duplication is not documented).
			posts := svc.wire.calls(http.MethodPost, "/api/messages")
			want := 2
			if c.fault == dropAfter {
				want = 1
			}
			if len(posts) != want {
				t.Fatalf("posted %d times; want %d", len(posts), want)
			}
			if n := len(svc.sb.Received(http.MethodPost, "/api/messages")); n != 1 {
				t.Errorf("the message reached the service %d times; want exactly once", n)
			}
			for _, p := range posts {
				if p.MessageId != row.MessageId {
					t.Errorf("an attempt carried id %q; want %q", p.MessageId, row.MessageId)
				}
			}
			msgs, err := svc.client.ListMessages(ctx, a.WorkOrderId)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range msgs {
				if m.Text == text {
					n++
				}
			}
			if n != 1 {
				t.Errorf("the service holds the message %d times; want exactly once", n)
			}
		})
	}
}

func TestOfflineCheckInCarriesTapTime(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	// Northwind Retail allows back-dating.
	a := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusAccepted && wo.Customer.Name == "Northwind Retail"
	})
	svc.wire.setFault(func(*http.Request, []byte) faultKind { return dropBefore }) // no signal on site
	before := svc.sb.Clock().Now()
	row := mustRow(t)(s.CheckIn(ctx, a.WorkOrderId, nil, ""))
	after := svc.sb.Clock().Now()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxPending {
		t.Fatalf("offline row = %s", r.State)
	}
	svc.sb.AdvanceClock(2 * time.Hour) // back in the van, two hours later
	svc.wire.setFault(nil)
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("row = %s %q", r.State, r.Error)
	}
	calls := svc.wire.calls(http.MethodPut, "/api/workorder/checkin")
	var body api.VisitRequest
	json.Unmarshal(calls[len(calls)-1].Body, &body)
	if d := body.ActualActionDate; d == nil || d.Before(before) || d.After(after) {
		t.Errorf("ActualActionDate sent = %v; want the tap time, between %v and %v", d, before, after)
	}
	if got := svc.remote(t, a.WorkOrderId).Status; got != api.StatusCheckedIn {
		t.Errorf("service says %s", got)
	}
}

func TestOutboxValidationChangesNothing(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	newWO := pick(t, s, status(api.StatusNew))
	accepted := pick(t, s, status(api.StatusAccepted))
	usd := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Currency == "USD" && !wo.Nte.NoLimit() && wo.Status == api.StatusAccepted && (wo.Nte.Quote == nil || wo.Nte.Quote.QuoteStatus == api.QuoteRejected || wo.Nte.Quote.QuoteStatus == api.QuoteRequested)
	})
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	f, _ := os.Create(big)
	f.Truncate(api.MaxAttachmentSize + 1)
	f.Close()
	future := svc.sb.Clock().Now().Add(time.Hour)
	long := strings.Repeat("x", 3001)

	cases := []struct {
		name string
		do   func() (*OutboxRow, error)
		want string
	}{
		{"reject without reason", func() (*OutboxRow, error) { return s.Reject(ctx, newWO.WorkOrderId, "  ") }, "reason is required"},
		{"accept an accepted one", func() (*OutboxRow, error) { return s.Accept(ctx, accepted.WorkOrderId, "") }, "only a new work order can be accepted"},
		{"comment too long", func() (*OutboxRow, error) { return s.Accept(ctx, newWO.WorkOrderId, long) }, "3000"},
		{"check in a New one", func() (*OutboxRow, error) { return s.CheckIn(ctx, newWO.WorkOrderId, nil, "") }, "accept it first"},
		{"check in in the future", func() (*OutboxRow, error) { return s.CheckIn(ctx, accepted.WorkOrderId, &future, "") }, "in the future"},
		{"quote in another currency", func() (*OutboxRow, error) {
			return s.SubmitQuote(ctx, usd.WorkOrderId, api.MustMoney("99999", "EUR"), "more", nil)
		}, "billed in USD"},
		{"quote not above the NTE", func() (*OutboxRow, error) {
			return s.SubmitQuote(ctx, usd.WorkOrderId, usd.Nte.Amount, "more", nil)
		}, "must exceed the current NTE"},
		{"quote with too many decimals", func() (*OutboxRow, error) {
			return s.SubmitQuote(ctx, usd.WorkOrderId, api.MustMoney("99999.999", "USD"), "more", nil)
		}, "decimals"},
		{"quote of 1e400 (issue 15)", func() (*OutboxRow, error) {
			return s.SubmitQuote(ctx, usd.WorkOrderId, api.Money{Amount: decimal.New(1, 400), Currency: "USD"}, "more", nil)
		}, "at most 28 digits"},
		{"invoice line with a quantity of 1e30", func() (*OutboxRow, error) {
			return s.SaveInvoice(ctx, accepted.WorkOrderId, api.Invoice{LineItems: []api.LineItem{{Type: api.LineLabor, Description: "x", Quantity: decimal.New(1, 30), Rate: api.MustMoney("1", "")}}})
		}, "at most 28 digits"},
		{"message empty", func() (*OutboxRow, error) { return s.SendMessage(ctx, accepted.WorkOrderId, "", "") }, "message is required"},
		{"unknown work order", func() (*OutboxRow, error) { return s.Accept(ctx, 987654321, "") }, "not in the local replica"},
		{"file over 20 MB", func() (*OutboxRow, error) { return s.AttachFile(ctx, accepted.WorkOrderId, big, "") }, "up to 20 MB"},
		{"missing file", func() (*OutboxRow, error) {
			return s.AttachFile(ctx, accepted.WorkOrderId, filepath.Join(dir, "nope.pdf"), "")
		}, "does not exist"},
		{"bulk with a non-New one", func() (*OutboxRow, error) {
			return s.BulkAccept(ctx, []int64{newWO.WorkOrderId, accepted.WorkOrderId})
		}, "only a new work order can be accepted"},
		{"bulk of more than api.MaxBulk", func() (*OutboxRow, error) {
			many := make([]int64, api.MaxBulk+1)
			for i := range many {
				many[i] = int64(i + 1)
			}
			return s.BulkAccept(ctx, many)
		}, "at most 100 at a time"},
		{"submit invoice before check-out", func() (*OutboxRow, error) { return s.SubmitInvoice(ctx, accepted.WorkOrderId, false) }, "the service takes the invoice only once the work is done"},
	}
	for _, c := range cases {
		row, err := c.do()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a refusal mentioning %q", c.name, err, c.want)
		}
		if row != nil {
			t.Errorf("%s: returned a row", c.name)
		}
	}
	if rows, _ := s.UnfinishedOutbox(ctx); len(rows) != 0 {
		t.Errorf("refused input queued %d rows", len(rows))
	}
	if entries, _ := os.ReadDir(s.spool); len(entries) != 0 {
		t.Errorf("refused uploads left %d spooled files", len(entries))
	}
}

func TestAttachFileSurvivesDeletingTheOriginal(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	path := filepath.Join(t.TempDir(), "site photo.jpg")
	os.WriteFile(path, []byte("\xff\xd8\xff\xe0 not much of a photo"), 0o600)
	row := mustRow(t)(s.AttachFile(ctx, a.WorkOrderId, path, api.VisibilityAll))
	os.Remove(path) // the person tidies up their downloads folder
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("upload row = %s %q", r.State, r.Error)
	}
	atts, err := s.Attachments(ctx, a.WorkOrderId)
	if err != nil || !slices.ContainsFunc(atts, func(at api.Attachment) bool { return at.Name == "site photo.jpg" }) {
		t.Errorf("attachment cache after upload = %+v, %v", atts, err)
	}
	if entries, _ := os.ReadDir(s.spool); len(entries) != 0 {
		t.Errorf("spooled copy not removed after upload: %d files", len(entries))
	}
}

func TestBulkAcceptStoresPerWorkOrderResults(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s := syncedStore(t, svc)
	ctx := context.Background()
	var news []int64
	rows, _ := s.List(ctx, ListQuery{Statuses: []api.WorkOrderStatus{api.StatusNew}, Sort: SortNumber})
	for _, r := range rows {
		if wo, _ := s.WorkOrder(ctx, r.Id); !wo.IsPreBilled && len(news) < 3 {
			news = append(news, r.Id)
		}
	}
	if len(news) < 3 {
		t.Skip("world has fewer than 3 New work orders")
	}
	// One of them was accepted elsewhere meanwhile.
	if err := svc.client.Accept(ctx, &api.AcceptRequest{WorkOrderId: news[2]}); err != nil {
		t.Fatal(err)
	}
	row := mustRow(t)(s.BulkAccept(ctx, news))
	later := mustRow(t)(s.CheckIn(ctx, news[0], nil, "")) // must not wait behind the part that failed
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	r := rowState(t, s, row.Id)
	if r.State != OutboxFailed || len(r.BulkResults) != 3 || !strings.Contains(r.Error, "1 of 3") {
		t.Fatalf("bulk row = %s %q results %+v", r.State, r.Error, r.BulkResults)
	}
	if got := svc.remote(t, news[1]).Status; got != api.StatusAccepted {
		t.Errorf("second work order: service says %s; want Accepted", got)
	}
	if got := svc.remote(t, news[0]).Status; got != api.StatusCheckedIn {
		t.Errorf("first work order: service says %s; want CheckedIn (accepted, then checked in)", got)
	}
	if got := rowState(t, s, later.Id); got.State != OutboxDone {
		t.Errorf("check-in after the bulk accept = %s %q", got.State, got.Error)
	}
	if !slices.Equal(r.WorkOrderIds, []int64{news[2]}) {
		t.Errorf("failed bulk row still blocks %v; want only %d", r.WorkOrderIds, news[2])
	}
}

// TestUntrustedCertificateIsSaidPlainly: an action that cannot go out
// because the service's certificate is not trusted waits in the queue with
// that reason, not with "could not be reached".
func TestUntrustedCertificateIsSaidPlainly(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	_, err := http.Get(srv.URL) // the default client does not trust the test certificate
	if err == nil {
		t.Fatal("a self-signed certificate was trusted")
	}
	if msg := describeTemporary(err); !strings.Contains(msg, "certificate is not trusted") {
		t.Errorf("reason shown for an untrusted certificate: %q", msg)
	}
	if msg := describeTemporary(errors.New("dial tcp: connection refused")); !strings.Contains(msg, "could not be reached") {
		t.Errorf("reason shown for no connection: %q", msg)
	}
}
