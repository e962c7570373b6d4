package hub

import (
	"context"
	"net/http"
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
	o := newOffice(t, sandbox.Options{})
	ctx := context.Background()
	var name string
	if err := o.db.Pool.QueryRow(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := o.db.Pool.Exec(ctx, `ALTER DATABASE `+pgx.Identifier{name}.Sanitize()+
		` SET idle_in_transaction_session_timeout = '1s'`); err != nil {
		t.Fatal(err)
	}
	a, b := o.start(nil), o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	bo, _ := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	var svc atService
	var first atomic.Bool
	anaThere := make(chan struct{})
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if !isWrite(r) {
			return false
		}
		defer svc.enter()()
		if first.CompareAndSwap(false, true) {
			close(anaThere)
			time.Sleep(2500 * time.Millisecond)
		}
		return false
	})
	accepted := make(chan error, 1)
	go func() { accepted <- ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}) }()
	<-anaThere
	time.Sleep(1500 * time.Millisecond) // past the session timeout
	if err := bo.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "I can take this one"}); err != nil {
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
	if err := ana.Accept(ctx, req); err != nil {
		t.Fatalf("the accept the service took: %v", err)
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
	quick, cancel := context.WithTimeout(ctx, 5*time.Second)
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
