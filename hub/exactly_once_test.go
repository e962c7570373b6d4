package hub

import (
	"context"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/hub/pgtest"
)

// hubSocket is the listening socket hub instances in processes of their
// own take turns to serve.
func hubSocket(t *testing.T) *net.TCPListener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.(*net.TCPListener)
}

// twoDesktops are Ana's and Bo's desktops at the hub at url, each with
// perDesktop New work orders of its own to visit.
func twoDesktops(t *testing.T, o *office, url string, perDesktop int) (clients []*api.Client, plans [][][]plannedWrite) {
	t.Helper()
	for _, name := range []string{"Ana Ruiz", "Bo Chen"} {
		creds, err := o.db.AddPerson(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, desktopAt(t, url, creds))
		var mine [][]plannedWrite
		for range perDesktop {
			mine = append(mine, visitPlan(name, newWorkOrder(t, o)))
		}
		plans = append(plans, mine)
	}
	return clients, plans
}

// runDesktops sends every plan, each work order's writes in order (the
// work orders of a desktop at once, as its outbox does), until answered
// or ctx ends; done closes when all are through. answered collects the
// writes answered 200.
func runDesktops(ctx context.Context, t *testing.T, clients []*api.Client, plans [][][]plannedWrite) (done chan struct{}, answered func() []plannedWrite) {
	var mu sync.Mutex
	var ok []plannedWrite
	var wg sync.WaitGroup
	for i, c := range clients {
		for _, plan := range plans[i] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := sendUntilAnswered(ctx, t, c, plan)
				mu.Lock()
				ok = append(ok, got...)
				mu.Unlock()
			}()
		}
	}
	done = make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done, func() []plannedWrite {
		mu.Lock()
		defer mu.Unlock()
		return append([]plannedWrite(nil), ok...)
	}
}

func flatten(plans [][][]plannedWrite) [][]plannedWrite {
	var out [][]plannedWrite
	for _, p := range plans {
		out = append(out, p...)
	}
	return out
}

// The hub, in a process of its own, is killed (kill -9) five times while
// two desktops make 240 writes: three times while the service takes a
// write (its answer is lost with the hub), twice while the hub re-reads
// what a write changed (the service answered; nothing is recorded yet).
// Each time it is started again in its place. The desktops send each
// write again with its MessageId until answered, as their outboxes do;
// the service, counted as it receives them, and applying every repeat,
// gets every write once, none missing, each work order's in order; and
// every write has its audit row and its event.
func TestHubExactlyOnceWhenKilled(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{NoMessageIdDedup: true})
	sock := hubSocket(t)
	var current atomic.Pointer[child]
	current.Store(o.startKillable(t, sock))
	kills := make(chan struct{}, 16)
	kill := func() {
		current.Load().kill()
		kills <- struct{}{}
	}
	loseAt := map[int]bool{30: true, 90: true, 150: true}
	rereadAfter := map[int]bool{60: true, 120: true}
	var rereadKill atomic.Bool
	served := o.logWrites(func(r *http.Request, n int) serviceFault {
		switch {
		case loseAt[n]:
			return serviceFault{loseAnswer: true, then: kill}
		case rereadAfter[n]:
			rereadKill.Store(true)
		case n == 0 && r.Method == http.MethodGet && serve.Route(r.URL.Path) == "/api/workorder" && rereadKill.CompareAndSwap(true, false):
			return serviceFault{loseAnswer: true, then: kill}
		}
		return serviceFault{}
	})
	clients, plans := twoDesktops(t, o, "http://"+sock.Addr().String(), 15)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	done, answered := runDesktops(ctx, t, clients, plans)
	restarts := 0
	for running := true; running; {
		select {
		case <-kills:
			current.Store(o.startKillable(t, sock))
			restarts++
		case <-done:
			running = false
		}
	}
	t.Logf("%d writes, the hub killed and started again %d times", served.count(), restarts)
	if restarts < 3 {
		t.Fatalf("the hub was killed %d times mid-burst, want at least 3", restarts)
	}
	checkSentOnce(t, flatten(plans), served.all())
	checkRecorded(t, o, answered())
}

// pgStopFor is how long PostgreSQL stays stopped in the test below: the
// office's 30 s (WORKDESK_TEST_PG_STOP=30s) behaves as the default's few
// seconds do, only slower.
func pgStopFor(t *testing.T) time.Duration {
	if v := os.Getenv("WORKDESK_TEST_PG_STOP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("WORKDESK_TEST_PG_STOP: %v", err)
		}
		return d
	}
	return 5 * time.Second
}

// The service takes every seventh write and its answer is lost (the
// connection cut before it), and PostgreSQL is stopped mid-burst while the
// service takes a write, for a while, then started again. The desktops
// send each write again with its MessageId until answered: every write
// reaches the service once, none missing, each work order's in order, and
// every write answered 200 has its audit row and its event.
func TestHubExactlyOnceWhenAnswersAreLostAndPostgresStops(t *testing.T) {
	t.Parallel()
	pg := pgtest.StartT(t)
	o := newOfficeAt(t, pg.NewDB(t), sandbox.Options{NoMessageIdDedup: true})
	a := o.start(nil)
	stop := pgStopFor(t)
	var resumed sync.WaitGroup
	served := o.logWrites(func(r *http.Request, n int) serviceFault {
		switch {
		case n == 80:
			// The service takes this write while PostgreSQL goes away.
			pg.Halt()
			resumed.Add(1)
			go func() {
				defer resumed.Done()
				time.Sleep(stop) // how long the database is away, not an order of events
				if err := pg.Resume(); err != nil {
					t.Error(err)
				}
			}()
		case n > 0 && n%7 == 0:
			return serviceFault{loseAnswer: true}
		}
		return serviceFault{}
	})
	clients, plans := twoDesktops(t, o, a.srv.URL, 15)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	done, answered := runDesktops(ctx, t, clients, plans)
	<-done
	resumed.Wait()
	t.Logf("%d writes; PostgreSQL stopped for %v", served.count(), stop)
	if served.count() < 80 {
		t.Fatalf("only %d writes reached the service: PostgreSQL was never stopped", served.count())
	}
	checkSentOnce(t, flatten(plans), served.all())
	checkRecorded(t, o, answered())
}
