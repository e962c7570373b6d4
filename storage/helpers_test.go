package storage

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// testNow is the fixed "now" of store tests.
var testNow = time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC)

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// openTest opens a fresh replica in a temp dir with a fixed clock.
func openTest(t testing.TB) (*Store, *testClock) {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "replica.db"))
}

func openAt(t testing.TB, path string) (*Store, *testClock) {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	clk := &testClock{t: testNow}
	s.now = clk.Now
	t.Cleanup(func() { s.Close() })
	return s, clk
}

func tp(t time.Time) *time.Time { return &t }

// wo builds a work order the way the service describes one.
type woSpec struct {
	id       int64
	number   string
	status   api.WorkOrderStatus
	customer string
	site     string
	street   string
	nte      string
	currency string
	quote    api.QuoteStatus
	ack, on  time.Duration // from testNow; 0 = none
	due      time.Duration
	sched    time.Duration
	desc     string
	created  time.Time
	updated  time.Time
}

func mkWO(s woSpec) api.WorkOrder {
	if s.currency == "" {
		s.currency = "USD"
	}
	if s.nte == "" {
		s.nte = "0"
	}
	if s.status == "" {
		s.status = api.StatusNew
	}
	if s.created.IsZero() {
		s.created = testNow.Add(-48 * time.Hour)
	}
	if s.updated.IsZero() {
		s.updated = testNow.Add(-time.Hour)
	}
	w := api.WorkOrder{
		WorkOrderId:         s.id,
		WorkOrderNumber:     s.number,
		Status:              s.status,
		Created:             s.created,
		LastUpdate:          s.updated,
		AccompanyingMessage: s.desc,
		Currency:            s.currency,
		Customer:            api.Customer{Id: 7, Name: s.customer},
		Nte:                 api.Nte{Amount: api.MustMoney(s.nte, s.currency)},
		ServiceLocation:     &api.ServiceLocation{SpaceName: s.site, Address: &api.Address{Street1: s.street, City: "Springfield"}},
		Sla:                 &api.Sla{},
	}
	if s.quote != "" {
		w.Nte.Quote = &api.Quote{QuoteStatus: s.quote, Amount: api.MustMoney("100", s.currency)}
	}
	if s.ack != 0 {
		w.Sla.AcknowledgeBy = tp(testNow.Add(s.ack))
	}
	if s.on != 0 {
		w.Sla.OnSiteBy = tp(testNow.Add(s.on))
	}
	if s.due != 0 {
		w.Sla.DueDate = tp(testNow.Add(s.due))
	}
	if s.sched != 0 {
		w.Schedule = &api.Schedule{ScheduledStart: tp(testNow.Add(s.sched))}
	}
	return w
}

func put(t testing.TB, s *Store, specs ...woSpec) {
	t.Helper()
	wos := make([]api.WorkOrder, len(specs))
	for i, sp := range specs {
		wos[i] = mkWO(sp)
	}
	if err := s.PutWorkOrders(context.Background(), wos); err != nil {
		t.Fatalf("PutWorkOrders: %v", err)
	}
}

func ids(rows []Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.Id
	}
	return out
}

// everyUnderRace thins cases to every n-th under the race detector, for
// the comparisons that check one search path against another on a single
// goroutine: there the detector can find nothing, and it makes SQLite's
// transpiled C some 25 times slower. `make test` runs those tests again
// without it, over every case (the Makefile's unit target).
func everyUnderRace[T any](cases []T, n int) []T {
	if !raceDetector || n <= 1 {
		return cases
	}
	var out []T
	for i := 0; i < len(cases); i += n {
		out = append(out, cases[i])
	}
	return out
}

// waitFor polls ok until it holds or d passes and reports whether it held:
// a slow machine makes a test slower, never wrong. Safe off the test's
// goroutine (in a handler), unlike waitUntil.
func waitFor(d time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

func TestMain(m *testing.M) {
	// Keep test output readable; warnings and errors still show.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	os.Exit(m.Run())
}
