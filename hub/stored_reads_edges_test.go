package hub

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// A desktop opens a tab the first time through instance B while a
// colleague's write goes through A: B's fetch began before the write and
// answers with the old list, and A found nothing stored to refresh. That
// old answer must not be stored as fresh: the next read shows the write.
func TestAFetchFromBeforeAWriteIsNotStoredAfterIt(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	firstSyncDone(t, a, b)
	ana, _ := o.person(a, "Ana Ruiz")
	bo, _ := o.person(b, "Bo Chen")
	ctx := context.Background()
	id := newWorkOrder(t, o)
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	fetched, release := make(chan struct{}), make(chan struct{})
	var held atomic.Bool
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodGet || !strings.EqualFold(r.URL.Path, "/api/messages") || !held.CompareAndSwap(false, true) {
			return false
		}
		// The service answers now; the answer reaches the hub later.
		rec := httptest.NewRecorder()
		o.sb.Handler().ServeHTTP(rec, r)
		close(fetched)
		<-release
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		return true
	})
	first := make(chan error, 1)
	go func() {
		_, err := bo.ListMessages(ctx, id)
		first <- err
	}()
	<-fetched
	if err := ana.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "sent meanwhile"}); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	msgs, err := bo.ListMessages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Text == "sent meanwhile" {
			return
		}
	}
	t.Fatalf("messages read through B after Ana's message through A: %+v", msgs)
}

// The reads table holds answers about the replica only: a desktop asking
// about work orders, customers or procedure steps that do not exist (made
// up, or a typo) costs the service a call each time, not a stored row each.
func TestSecurityReadsOfMadeUpIdsAreNotStored(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	firstSyncDone(t, a)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	ctx := context.Background()
	real, err := o.direct().SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil || len(real) == 0 {
		t.Fatal(len(real), err)
	}
	rows := func() (n int) {
		t.Helper()
		if err := o.db.Pool.QueryRow(ctx, `SELECT count(*) FROM reads`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := rows()
	for i := range 10 {
		made := strconv.Itoa(900000 + i)
		for _, p := range []string{
			"api/customerSettings?customerId=" + made,
			"api/messages?workOrderId=" + made,
			"api/procedure/step/attachments?workOrderId=" + strconv.FormatInt(real[0].WorkOrderId, 10) + "&procedureId=" + made + "&stepId=" + made,
		} {
			req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/"+p, nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Fatalf("%s: HTTP 200 for a made-up id", p)
			}
		}
	}
	if n := rows() - before; n != 0 {
		t.Fatalf("30 reads of made-up ids stored %d answers", n)
	}
}

// A desktop that gives up on a read the service is slow to answer (the
// hub fetches it the first time) is let go at once: the hub does not hold
// its connection until the fetch ends, which still goes on and is stored.
func TestADesktopGivingUpOnASlowReadIsLetGo(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	firstSyncDone(t, a)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	ctx := context.Background()
	found, err := o.direct().SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil || len(found) == 0 {
		t.Fatal(len(found), err)
	}
	id := found[0].WorkOrderId
	release, fetching := make(chan struct{}), make(chan struct{})
	defer close(release)
	var once sync.Once
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && r.URL.Path == "/api/messages" {
			once.Do(func() { close(fetching) })
			<-release
		}
		return false
	})
	port := a.srv.Listener.Addr().(*net.TCPAddr).Port
	before := serverConns(t, port)
	giveUp, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// The desktop gives up once the hub is fetching the read.
		select {
		case <-fetching:
		case <-giveUp.Done(): // the test is over
		case <-time.After(10 * time.Second):
			t.Error("the hub never asked the service for the read")
		}
		cancel()
	}()
	req, _ := http.NewRequestWithContext(giveUp, http.MethodGet, a.srv.URL+"/api/messages?workOrderId="+strconv.FormatInt(id, 10), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	if _, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req); err == nil {
		t.Fatal("the slow read answered")
	}
	waitFor(t, 10*time.Second, "release of the desktop's connection", func() bool { return serverConns(t, port) <= before })
}
