package hub

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// setIntercept puts f in front of the service until the test ends.
func (o *office) setIntercept(f func(http.ResponseWriter, *http.Request) bool) {
	o.intercept.Store(&f)
	o.t.Cleanup(func() { o.intercept.Store(nil) })
}

// Writes to work orders whose ids differ only above their low 32 bits do
// not wait on each other, on two instances; writes to one work order do.
func TestWriteLocksUseTheWholeId(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	ctx := context.Background()
	low := int64(7)
	high := low + 1<<32
	held, done := make(chan struct{}), make(chan struct{})
	go a.hub.locked(ctx, ctx, []int64{low}, func(pgx.Tx) error {
		close(held)
		<-done
		return nil
	})
	released := false
	defer func() {
		if !released {
			close(done)
		}
	}()
	<-held
	try := func(id int64) error {
		wait, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return b.hub.locked(ctx, wait, []int64{id}, func(pgx.Tx) error { return nil })
	}
	if err := try(high); err != nil {
		t.Fatalf("a write to work order %d waited for one to %d: %v", high, low, err)
	}
	second := make(chan error, 1)
	go func() { second <- try(low) }()
	waitFor(t, 10*time.Second, "the second write to one work order waiting for the first's lock", func() bool {
		var n int
		err := o.db.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
			WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted`).Scan(&n)
		return err == nil && n == 1
	})
	select {
	case err := <-second:
		t.Fatalf("a second write to work order %d on another instance went through beside the first: %v", low, err)
	default:
	}
	close(done)
	released = true
	if err := <-second; err != nil {
		t.Fatalf("the second write to work order %d once the first was done: %v", low, err)
	}
}

// 25 writes stuck at a slow service do not keep anyone from signing in
// and reading: the writes wait on a pool of their own.
func TestSlowWritesLeaveSignInsAndReadsAnswered(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	// The queued writes wait for as long as the test holds the first ones.
	a := o.start(func(opts *Options) { opts.WriteWait = time.Minute })
	_, creds := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	var ids []int64
	for range 25 {
		ids = append(ids, newWorkOrder(t, o))
	}
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var atService atomic.Int64
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPut {
			atService.Add(1)
			<-release
		}
		return false
	})
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	errs := make(chan error, len(ids))
	// One desktop's client: sign-ins of one person are rate limited.
	c := desktop(t, a, creds)
	for _, id := range ids {
		go func() { errs <- c.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}) }()
	}
	// More writes than the writes' pool has connections: some are with the
	// service, the rest queued behind them for a connection.
	waitFor(t, 10*time.Second, "every write with the service or queued behind those that are", func() bool {
		return atService.Load() > 0 && atService.Load()+a.hub.WritesWaiting() == int64(len(ids))
	})

	quick, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	found, err := desktop(t, a, creds).SearchWorkOrders(quick, api.SearchParameters{})
	if err != nil || len(found) < len(ids) {
		t.Fatalf("sign-in and search while %d writes wait on the service: %d found, %v", len(ids), len(found), err)
	}
	close(release)
	released = true
	for range ids {
		if err := <-errs; err != nil {
			t.Fatalf("a write held up by the slow service: %v", err)
		}
	}
}

// The service's Retry-After on a 429 or 503 reaches the desktop, whose
// outbox then waits as long as the service asked.
func TestRetryAfterReachesTheDesktop(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	// The intercept runs on the service's goroutines, and not only for the
	// calls below (a background re-read reaches it too): the status it
	// answers is shared, so atomic.
	var status atomic.Int64
	status.Store(http.StatusTooManyRequests)
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/oauth/token" || r.URL.Path == "/api/workOrder" {
			return false
		}
		w.Header().Set("Retry-After", "7")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(status.Load()))
		w.Write([]byte(`{"Message":"slow down","MessageId":"m"}`))
		return true
	})
	ctx := context.Background()
	for _, c := range []struct {
		what   string
		status int
		call   func() error
	}{
		{"an accept", http.StatusTooManyRequests, func() error { return ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}) }},
		{"a download link", http.StatusServiceUnavailable, func() error {
			_, err := ana.AttachmentDownloadURL(ctx, id, "a1")
			return err
		}},
	} {
		status.Store(int64(c.status))
		err := c.call()
		var e *api.Error
		if !errors.As(err, &e) || e.StatusCode != c.status || e.RetryAfter != 7*time.Second {
			t.Errorf("%s answered %d with Retry-After 7: the desktop got %v (%+v)", c.what, c.status, err, e)
		}
	}
}

// A desktop that hangs up while the service is taking its write (a laptop
// closed, a dropped line) does not keep colleagues from hearing of it: the
// hub sees the write through, records it and sends the event.
func TestAWriteIsSeenThroughWhenTheDesktopHangsUp(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	events := openStream(t, a, creds, "")
	ctx, hangUp := context.WithCancel(context.Background())
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPut {
			hangUp()
			a.served.last(t, http.MethodPut, "/api/workOrder/accept").hungUp(t)
		}
		return false
	})
	req := &api.AcceptRequest{WorkOrderId: id}
	before := o.writes.Load()
	if err := ana.Accept(ctx, req); err == nil {
		t.Fatal("the desktop that hung up got an answer")
	}
	he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
	if he.Header.Action != "AcceptedByContractor" || he.PerformedBy.Name != "Ana Ruiz" || he.Header.MessageId != req.MessageId {
		t.Fatalf("event %+v, want Ana's accept", he)
	}
	audit := readAudit(t, a, creds, id)
	if len(audit) != 1 || audit[0].Status != http.StatusOK {
		t.Fatalf("audit %+v, want the accept the service took", audit)
	}
	if n := o.writes.Load() - before; n != 1 {
		t.Fatalf("the accept reached the service %d times, want once", n)
	}
	if wo, err := desktop(t, a, creds).GetWorkOrder(context.Background(), id); err != nil || wo.Status != api.StatusAccepted {
		t.Fatalf("the replica after the hang-up: %+v, %v", wo, err)
	}
}

// A desktop hangs up while the service takes its message; its outbox then
// sends it again with the same MessageId. The service does not drop
// repeats (service-facts: assume it does not), so the hub must not send it
// twice: the retry gets the first answer, and the message is posted once.
func TestARetriedWriteIsNotSentTwice(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	hungUp, hangUp := context.WithCancel(ctx)
	var once atomic.Bool
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPost && once.CompareAndSwap(false, true) {
			hangUp()
			a.served.last(t, http.MethodPost, "/api/messages").hungUp(t)
		}
		return false
	})
	req := &api.MessageRequest{WorkOrderId: id, Text: "the part arrives Tuesday"}
	before := o.writes.Load()
	if err := ana.SendMessage(hungUp, req); err == nil {
		t.Fatal("the desktop that hung up got an answer")
	}
	if err := ana.SendMessage(ctx, req); err != nil {
		t.Fatalf("the retry with the same MessageId: %v", err)
	}
	if n := o.writes.Load() - before; n != 1 {
		t.Fatalf("the message and its retry reached the service %d times, want once", n)
	}
	msgs, err := o.direct().ListMessages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		if m.Text == req.Text {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the service holds the message %d times", n)
	}
}

// A write whose desktop hung up before the hub sent it (here while the hub
// fetched a new company token after a 401) is not sent: nobody waits for
// its answer, and the desktop's outbox sends it again.
func TestAWriteIsNotSentOnceItsDesktopHungUp(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	hungUp, hangUp := context.WithCancel(context.Background())
	var refused, sent atomic.Int64
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		switch {
		case r.Method == http.MethodPut && refused.Add(1) == 1:
			// The company's token has just expired at the service.
			w.WriteHeader(http.StatusUnauthorized)
			return true
		case r.Method == http.MethodPut:
			sent.Add(1)
		case r.URL.Path == "/oauth/token" && refused.Load() == 1:
			hangUp()
			a.served.last(t, http.MethodPut, "/api/workOrder/accept").hungUp(t)
		}
		return false
	})
	if err := ana.Accept(hungUp, &api.AcceptRequest{WorkOrderId: id}); err == nil {
		t.Fatal("the desktop that hung up got an answer")
	}
	a.served.last(t, http.MethodPut, "/api/workOrder/accept").finished(t)
	if n := sent.Load(); n != 0 {
		t.Fatalf("the write of a desktop that had hung up reached the service %d times", n)
	}
}
