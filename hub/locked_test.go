package hub

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// atService counts the writes the service is taking at once, and the most
// at any moment.
type atService struct{ now, most atomic.Int64 }

func (s *atService) enter() func() {
	n := s.now.Add(1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	return func() { s.now.Add(-1) }
}

func isWrite(r *http.Request) bool {
	return r.Method != http.MethodGet && r.URL.Path != "/oauth/token" && r.URL.Path != "/api/workOrder/search"
}

// Managed PostgreSQL often ends sessions idle in a transaction after a
// while (idle_in_transaction_session_timeout). A write's lock lives in such
// a transaction while the service takes the write: it must outlast a slow
// service, or a colleague's write to the same work order goes through
// another instance meanwhile and the first write's audit is lost.
func TestAWriteKeepsItsLockWhileTheServiceIsSlow(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	ctx := context.Background()
	a, b := o.start(nil), o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	bo, _ := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	// The server's timeout, short so the test need not wait long past it,
	// for the sessions opened from now on: the writes' (the instances'
	// start, done before, would not outlast it on a busy machine).
	const sessionTimeout = 200 * time.Millisecond
	var name string
	if err := o.db.Pool.QueryRow(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := o.db.Pool.Exec(ctx, `ALTER DATABASE `+pgx.Identifier{name}.Sanitize()+
		` SET idle_in_transaction_session_timeout = `+strconv.Itoa(int(sessionTimeout.Milliseconds()))); err != nil {
		t.Fatal(err)
	}
	var svc atService
	var first atomic.Bool
	anaThere, release := make(chan struct{}), make(chan struct{})
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if !isWrite(r) {
			return false
		}
		defer svc.enter()()
		if first.CompareAndSwap(false, true) {
			close(anaThere)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		return false
	})
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	accepted := make(chan error, 1)
	go func() { accepted <- ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}) }()
	<-anaThere
	// A server that ends the session frees the lock: its transaction would
	// be gone by the time it has idled twice the timeout.
	waitFor(t, 10*time.Second, "Ana's write's transaction still open, idle twice the session timeout", func() bool {
		var n int
		err := o.db.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND state = 'idle in transaction' AND clock_timestamp() - state_change > $1::interval`, 2*sessionTimeout).Scan(&n)
		return err == nil && n > 0
	})
	sent := make(chan error, 1)
	go func() {
		sent <- bo.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "I can take this one"})
	}()
	waitFor(t, 10*time.Second, "Bo's message waiting for Ana's accept, or at the service", func() bool {
		return b.hub.WritesWaiting() == 1 || svc.most.Load() > 1
	})
	close(release)
	released = true
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if err := <-accepted; err != nil {
		t.Fatal(err)
	}
	if n := svc.most.Load(); n != 1 {
		t.Fatalf("the service took %d writes to one work order at once", n)
	}
	if audit := readAudit(t, a, creds, id); len(audit) != 2 || audit[0].Person != "Ana Ruiz" || audit[1].Person != "Bo Chen" {
		t.Fatalf("audit %+v, want Ana's accept then Bo's message", audit)
	}
}

// The database connection of a write is lost while the service takes it
// (a restart, a dropped line): the service took the write, so the desktop
// gets its answer, the audit and the event are recorded all the same, and
// the replica follows.
func TestAWriteTheServiceTookIsRecordedWhenItsConnectionIsLost(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	events := openStream(t, a, creds, "")
	ctx := context.Background()
	var once atomic.Bool
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if isWrite(r) && once.CompareAndSwap(false, true) {
			if _, err := o.db.Pool.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
				WHERE datname = current_database() AND state = 'idle in transaction'`); err != nil {
				t.Error(err)
			}
		}
		return false
	})
	req := &api.AcceptRequest{WorkOrderId: id}
	before := o.writes.Load()
	if err := ana.Accept(ctx, req); err != nil {
		t.Fatalf("the accept the service took: %v", err)
	}
	if n := o.writes.Load() - before; n != 1 {
		t.Fatalf("the accept reached the service %d times, want once", n)
	}
	he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
	if he.Header.Action != "AcceptedByContractor" || he.PerformedBy.Name != "Ana Ruiz" || he.Header.MessageId != req.MessageId {
		t.Fatalf("event %+v, want Ana's accept", he)
	}
	if audit := readAudit(t, a, creds, id); len(audit) != 1 || audit[0].Status != http.StatusOK || audit[0].MessageId != req.MessageId {
		t.Fatalf("audit %+v, want the accept once", audit)
	}
	if err := wantStatus(ctx, ana, id, api.StatusAccepted); err != nil {
		t.Fatal(err)
	}
}

// A bulk accept of 60 work orders re-reads them 50 at a time, not one call
// per work order, before it is answered; the replica shows them accepted.
func TestABulkWriteReReadsItsWorkOrdersInBatches(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	firstSyncDone(t, a)
	ana, _ := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	var ids []int64
	for range 60 {
		ids = append(ids, newWorkOrder(t, o))
	}
	calls := o.countReads()
	results, err := ana.BulkAccept(ctx, &api.BulkRequest{WorkOrderIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if !r.Succeeded() {
			t.Fatalf("bulk result %+v", r)
		}
	}
	calls.mu.Lock()
	reads := calls.n["/api/workorder"]
	calls.mu.Unlock()
	if reads > 2 {
		t.Fatalf("re-reading 60 work orders after a bulk accept cost the service %d calls, want 2", reads)
	}
	wos, err := ana.GetWorkOrders(ctx, ids[:50])
	if err != nil || len(wos) != 50 {
		t.Fatalf("the replica after the bulk accept: %d work orders, %v", len(wos), err)
	}
	for _, wo := range wos {
		if wo.Status != api.StatusAccepted {
			t.Fatalf("work order %d is %s in the replica", wo.WorkOrderId, wo.Status)
		}
	}
}

// A stored read whose refresh hangs at the service does not hold a
// write's answer beyond RefreshTimeout, and the next read of it asks the
// service again rather than serve what the write changed.
func TestAHangingRefreshDoesNotHoldTheWrite(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(func(opts *Options) { opts.RefreshTimeout = time.Second })
	ana, _ := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	id := newWorkOrder(t, o)
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.ListMessages(ctx, id); err != nil { // stored now
		t.Fatal(err)
	}
	hang := make(chan struct{})
	var hanging atomic.Bool
	hanging.Store(true)
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && r.URL.Path == "/api/messages" && hanging.Load() {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		}
		return false
	})
	defer close(hang)
	quick, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := ana.SendMessage(quick, &api.MessageRequest{WorkOrderId: id, Text: "on my way"}); err != nil {
		t.Fatalf("a write whose refresh hangs, after %v: %v", time.Since(start), err)
	}
	hanging.Store(false)
	msgs, err := ana.ListMessages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Text == "on my way" {
			return
		}
	}
	t.Fatalf("messages after the write whose refresh was cut: %+v", msgs)
}
