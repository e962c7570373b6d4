package storage

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

func TestSyncFirstThenIncremental(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s, _ := openTest(t)
	s.now = svc.sb.Clock().Now
	ctx := context.Background()
	var mu sync.Mutex
	var progress [][2]int
	y := NewSyncer(s, svc.client, SyncOptions{Progress: func(done, total int) {
		mu.Lock()
		progress = append(progress, [2]int{done, total})
		mu.Unlock()
	}})
	var heard atomic.Int64
	defer s.Subscribe(func(ch []int64) { heard.Add(int64(len(ch))) })()

	if err := y.SyncNow(ctx); err != nil {
		t.Fatalf("first sync: %v", err)
	}
	all, err := svc.client.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count(ctx); n != len(all) || n < 120 {
		t.Fatalf("replica holds %d work orders; the service has %d", n, len(all))
	}
	if last := progress[len(progress)-1]; last != [2]int{len(all), len(all)} {
		t.Errorf("final progress = %v; want %d of %d", last, len(all), len(all))
	}
	if heard.Load() != int64(len(all)) {
		t.Errorf("subscribers heard %d changes; want %d", heard.Load(), len(all))
	}
	if calls := svc.wire.calls(http.MethodGet, "/api/workorder"); len(calls) != (len(all)+49)/50 {
		t.Errorf("first sync made %d reads; want %d (50 ids each)", len(calls), (len(all)+49)/50)
	}
	if s.LastSync(ctx).IsZero() {
		t.Error("LastSync not recorded")
	}
	// A full record, not the search's basic data, is stored.
	some := pick(t, s, func(wo *api.WorkOrder) bool { return wo.ServiceLocation != nil && wo.Sla != nil })
	if some.Customer.Name == "" || some.Currency == "" {
		t.Errorf("stored work order lacks details: %+v", some)
	}

	// The customer changes one NTE; the next sync reads just that one.
	svc.wire.reset()
	target := pick(t, s, status(api.StatusAccepted))
	if err := svc.sb.SetNte(target.WorkOrderId, decimal.RequireFromString("4321")); err != nil {
		t.Fatal(err)
	}
	if err := y.SyncNow(ctx); err != nil {
		t.Fatalf("incremental sync: %v", err)
	}
	search := svc.wire.calls(http.MethodPost, "/api/workorder/search")
	if len(search) != 1 || !strings.Contains(string(search[0].Body), `"LastUpdate":{"From"`) {
		t.Errorf("incremental search body = %s", search)
	}
	if got := svc.wire.calls(http.MethodGet, "/api/workorder"); len(got) != 1 || countIds(got[0]) != 1 {
		t.Errorf("incremental sync read %v; want one call for one id", got)
	}
	wo, _ := s.WorkOrder(ctx, target.WorkOrderId)
	if wo.Nte.Amount.Amount.String() != "4321" {
		t.Errorf("NTE after sync = %s; want 4321", wo.Nte.Amount.Amount)
	}
}

func countIds(c recorded) int {
	q, err := url.ParseQuery(c.Query)
	if err != nil {
		return 0
	}
	return len(q["ids"])
}

func TestSyncFailureMidwayKeepsBatchesAndResumes(t *testing.T) {
	t.Parallel()
	svc := newService(t, 200)
	s, _ := openTest(t)
	s.now = svc.sb.Clock().Now
	ctx := context.Background()
	var reads atomic.Int32
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.Method == http.MethodGet && r.URL.Path == "/api/workOrder" && reads.Add(1) == 3 {
			return serverError
		}
		return pass
	})
	y := NewSyncer(s, svc.client, SyncOptions{Parallel: 1})
	err := y.SyncNow(ctx)
	if err == nil || !api.IsTemporary(err) {
		t.Fatalf("sync with a failing batch = %v; want the temporary error", err)
	}
	if n, _ := s.Count(ctx); n != 100 {
		t.Errorf("after failure the replica holds %d; want the 2 batches (100) read before it", n)
	}
	if !s.LastSync(ctx).IsZero() {
		t.Error("a failed sync was recorded as successful")
	}

	svc.wire.setFault(nil)
	svc.wire.reset()
	if err := y.SyncNow(ctx); err != nil {
		t.Fatalf("resumed sync: %v", err)
	}
	all, _ := svc.client.SearchWorkOrders(ctx, api.SearchParameters{})
	if n, _ := s.Count(ctx); n != len(all) {
		t.Errorf("after resume the replica holds %d; want %d", n, len(all))
	}
	asked := 0
	for _, c := range svc.wire.calls(http.MethodGet, "/api/workorder") {
		asked += countIds(c)
	}
	if asked != len(all)-100 {
		t.Errorf("resumed sync read %d work orders; want only the %d not stored yet", asked, len(all)-100)
	}
}

// TestSyncStoresBatchesAnsweredOutOfOrder: with several reads in flight a
// later batch can come back first. The sync writes batches in id order
// (appending is what keeps a first sync fast), so one waits for the other;
// nothing may be lost or counted twice, and when the early batch fails the
// later ones already read are still kept.
func TestSyncStoresBatchesAnsweredOutOfOrder(t *testing.T) {
	t.Parallel()
	svc := newService(t, 200)
	ctx := context.Background()
	all, err := svc.client.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	batches := (len(all) + api.MaxReadBatch - 1) / api.MaxReadBatch
	// The first batch is the one with the smallest id: it is answered only
	// once until() holds, and fails if fail says so.
	first := strconv.FormatInt(slices.MinFunc(all, func(a, b api.WorkOrder) int { return cmp.Compare(a.WorkOrderId, b.WorkOrderId) }).WorkOrderId, 10)
	isFirst := func(r *http.Request) bool {
		return r.Method == http.MethodGet && r.URL.Path == "/api/workOrder" && slices.Contains(r.URL.Query()["ids"], first)
	}
	firstWaitsFor := func(what string, until func() bool, fail bool) func(*http.Request, []byte) faultKind {
		return func(r *http.Request, _ []byte) faultKind {
			if !isFirst(r) {
				return pass
			}
			if !waitFor(10*time.Second, until) {
				t.Errorf("the first read waited 10 s for %s", what)
			}
			if fail {
				return serverError
			}
			return pass
		}
	}
	// othersAnswered: the service has answered every read but the first.
	othersAnswered := func() bool {
		n := 0
		for _, r := range svc.sb.Received(http.MethodGet, "/api/workOrder") {
			if r.Status != 0 && !slices.Contains(r.Query["ids"], first) {
				n++
			}
		}
		return n == batches-1
	}

	s, _ := openTest(t)
	var mu sync.Mutex
	var done []int
	y := NewSyncer(s, svc.client, SyncOptions{Parallel: 4, Progress: func(d, _ int) {
		mu.Lock()
		done = append(done, d)
		mu.Unlock()
	}})
	svc.sb.ResetRequests()
	svc.wire.setFault(firstWaitsFor("the other reads to be answered", othersAnswered, false))
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count(ctx); n != len(all) {
		t.Errorf("replica holds %d work orders; want %d", n, len(all))
	}
	if !slices.IsSorted(done) || done[len(done)-1] != len(all) {
		t.Errorf("progress went %v; want it to only grow, to %d", done, len(all))
	}

	// The batches behind a slow call do not all wait in memory: past a
	// limit they are written out of order, and the slow one still lands.
	s1, _ := openTest(t)
	var early atomic.Int32
	y1 := NewSyncer(s1, svc.client, SyncOptions{Parallel: 4, Progress: func(d, _ int) {
		if d > 0 && d < len(all) {
			early.Add(1)
		}
	}})
	y1.tune.maxWaiting, y1.tune.commitRows = 1, 50 // a small world: commit each batch
	svc.wire.setFault(firstWaitsFor("batches to be stored ahead of it", func() bool { return early.Load() > 0 }, false))
	if err := y1.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := s1.Count(ctx); n != len(all) || early.Load() == 0 {
		t.Errorf("with a slow first call the replica holds %d of %d, stored in %d steps before the end; want all, some stored while it was slow",
			n, len(all), early.Load())
	}

	// The first read fails once every other batch has been read: those
	// are kept, whether already written or still waiting for it.
	s2, _ := openTest(t)
	y2 := NewSyncer(s2, svc.client, SyncOptions{Parallel: 4})
	y2.tune.maxWaiting, y2.tune.commitRows = 1, 50
	var handed atomic.Int32
	y2.handed = func(int) { handed.Add(1) }
	svc.wire.setFault(firstWaitsFor("the other batches to be read", func() bool { return int(handed.Load()) == batches-1 }, true))
	if err := y2.SyncNow(ctx); err == nil {
		t.Fatal("sync whose first read failed succeeded")
	}
	kept, _ := s2.Count(ctx)
	if kept != len(all)-api.MaxReadBatch {
		t.Errorf("after the first batch failed the replica holds %d of %d; want every other batch", kept, len(all))
	}
	svc.wire.setFault(nil)
	svc.wire.reset()
	y2.handed = nil
	if err := y2.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, c := range svc.wire.calls(http.MethodGet, "/api/workorder") {
		asked += countIds(c)
	}
	if n, _ := s2.Count(ctx); n != len(all) || asked != len(all)-kept {
		t.Errorf("resumed sync read %d and holds %d; want %d read, %d held", asked, n, len(all)-kept, len(all))
	}
}

func TestSyncCancel(t *testing.T) {
	t.Parallel()
	svc := newService(t, 200)
	s, _ := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	y := NewSyncer(s, svc.client, SyncOptions{Parallel: 1, Progress: func(done, total int) {
		if done >= 50 {
			cancel() // the person pressed Cancel after the first batch
		}
	}})
	y.tune.commitRows = 50 // a commit per batch, so there is a moment between batches to cancel in
	err := y.SyncNow(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled sync = %v; want context.Canceled", err)
	}
	n, _ := s.Count(context.Background())
	if n == 0 || n%50 != 0 || n >= 200 {
		t.Errorf("after cancel the replica holds %d; want whole batches, fewer than all", n)
	}
	if !s.LastSync(context.Background()).IsZero() {
		t.Error("a cancelled sync was recorded as successful")
	}
}

func TestSyncNeverTwoAtOnce(t *testing.T) {
	t.Parallel()
	svc := newService(t, 100)
	s, _ := openTest(t)
	var inFlight, most atomic.Int32
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/workOrder/search" {
			n := inFlight.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
			inFlight.Add(-1)
		}
		return pass
	})
	y := NewSyncer(s, svc.client, SyncOptions{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := y.SyncNow(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d syncs ran at once", most.Load())
	}
}

func TestRefreshFetchesDetailsAndKeepsCacheOnFailure(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, func(wo *api.WorkOrder) bool { return wo.Status == api.StatusCheckedOut && wo.InvoiceVisible() })
	y := NewSyncer(s, svc.client, SyncOptions{})
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	if _, err := s.Invoice(ctx, wo.WorkOrderId); err != nil {
		t.Errorf("invoice not cached: %v", err)
	}
	pl, err := s.PriceList(ctx, wo.WorkOrderId)
	if err != nil || len(pl.Items) == 0 {
		t.Errorf("price list not cached: %+v, %v", pl, err)
	}
	for _, p := range []string{"/api/messages", "/api/attachments", "/api/invoice/attachments"} {
		if len(svc.wire.calls(http.MethodGet, p)) != 1 {
			t.Errorf("Refresh did not read %s", p)
		}
	}
	before, _ := s.PriceList(ctx, wo.WorkOrderId)

	// Offline: the error is returned and the cached data stays.
	svc.wire.setFault(func(*http.Request, []byte) faultKind { return dropBefore })
	if err := y.Refresh(ctx, wo.WorkOrderId); err == nil {
		t.Error("Refresh offline reported success")
	}
	after, err := s.PriceList(ctx, wo.WorkOrderId)
	if err != nil || len(after.Items) != len(before.Items) {
		t.Errorf("cached price list lost after a failed refresh: %v", err)
	}
}

// The bulk path (index rebuilt at the end) must leave search exactly as
// the row-by-row path does, also when the sync fails half-way or the app
// dies before the rebuild.
func TestBulkSyncKeepsSearchWorking(t *testing.T) {
	t.Parallel()
	svc := newService(t, 200)
	ctx := context.Background()
	s, _ := openTest(t)
	var reads atomic.Int32
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.Method == http.MethodGet && r.URL.Path == "/api/workOrder" && reads.Add(1) == 3 {
			return serverError
		}
		return pass
	})
	y := NewSyncer(s, svc.client, SyncOptions{Parallel: 1})
	y.tune.bulkMin, y.tune.commitRows = 1, 60 // several commits indexed while the download goes on
	if err := y.SyncNow(ctx); err == nil {
		t.Fatal("sync with a failing batch succeeded")
	}
	searchable := func(when string) {
		t.Helper()
		if err := s.waitFTS(ctx); err != nil { // the indexes are rebuilt after the sync returns
			t.Fatal(err)
		}
		var deferred int
		s.r.QueryRow(`SELECT COUNT(*) FROM fts_deferred`).Scan(&deferred)
		if deferred != 0 {
			t.Errorf("%s: the search index is still switched off", when)
		}
		// FTS5 checks its index against the work_orders rows it covers.
		if _, err := s.w.Exec(`INSERT INTO work_orders_fts(work_orders_fts) VALUES ('integrity-check')`); err != nil {
			t.Errorf("%s: the search index disagrees with the work orders: %v", when, err)
		}
		rows, err := s.List(ctx, ListQuery{Sort: SortNumber})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows[:min(len(rows), 30)] {
			found, err := s.List(ctx, ListQuery{Search: r.Number})
			if err != nil || !slices.Contains(ids(found), r.Id) {
				t.Errorf("%s: searching %q does not find it (%v)", when, r.Number, err)
			}
		}
	}
	searchable("after a failed bulk sync")
	svc.wire.setFault(nil)
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	searchable("after the resumed sync")

	// A bulk sync that rewrites rows the replica already holds: their old
	// words must leave the index.
	if _, err := s.w.Exec(`UPDATE work_orders SET description = 'obsolete wording', last_update = 0`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`DELETE FROM settings WHERE key = ?`, settingSyncHighWater); err != nil {
		t.Fatal(err)
	}
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	searchable("after a bulk sync over stored rows")
	if n, _ := s.CountList(ctx, ListQuery{Search: "obsolete"}); n != 0 {
		t.Errorf("%d work orders still found by words the service no longer sends", n)
	}

	// A later row-by-row write is indexed by the triggers again.
	w := mkWO(woSpec{id: 424242, number: "ZZ-1", customer: "Trigger Check Ltd"})
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{w}); err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.List(ctx, ListQuery{Search: "trigger check"}); len(rows) != 1 {
		t.Errorf("a single write after a bulk sync is not searchable: %v", ids(rows))
	}

	// The app dies between a bulk write and its rebuild: Open finishes it.
	path := s.Path()
	s.deferFTS(ctx)
	put(t, s, woSpec{id: 515151, number: "AFTER-CRASH", customer: "Phoenix"})
	s.Close()
	s2, _ := openAt(t, path)
	if rows, _ := s2.List(ctx, ListQuery{Search: "phoenix"}); len(rows) != 1 {
		t.Errorf("a row written while the index was off is not searchable after reopen: %v", ids(rows))
	}
}

// TestBulkSyncRestoresSchema: a bulk sync drops the work_orders triggers and
// sort indexes while it writes; afterwards exactly the same must be back.
func TestBulkSyncRestoresSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	schema := func() string {
		var out string
		err := s.r.QueryRowContext(ctx, `SELECT group_concat(type || ' ' || name || ' ' || sql, char(10)) FROM
			(SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'work_orders' AND sql IS NOT NULL ORDER BY name)`).Scan(&out)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The search index's merge policy (an FTS5 setting, 4 unless set) is
	// relaxed for the bulk write only: left at 16, everyday writes would
	// let small segments pile up and searches slow down.
	automerge := func() int {
		n := 4
		if err := s.r.QueryRowContext(ctx, `SELECT v FROM work_orders_fts_config WHERE k = 'automerge'`).Scan(&n); err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		return n
	}
	before := schema()
	if fresh, err := s.deferFTS(ctx); err != nil || !fresh {
		t.Fatalf("deferFTS = %v, %v; want a fresh deferral", fresh, err)
	}
	if during := schema(); during == before {
		t.Fatal("deferFTS dropped nothing")
	}
	if n := automerge(); n != 16 {
		t.Errorf("automerge during the bulk write = %d, want 16", n)
	}
	if fresh, err := s.deferFTS(ctx); err != nil || fresh { // twice, as a resumed sync does
		t.Fatalf("second deferFTS = %v, %v; want it to say the earlier one is unfinished", fresh, err)
	}
	// A broad search during the bulk write still lists (without the index).
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{{WorkOrderId: 7, WorkOrderNumber: "WO-7", Status: api.StatusNew}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx, ListQuery{Search: "w", Limit: 10}); err != nil {
		t.Fatal(err)
	}
	if err := s.resumeFTS(ctx, true); err != nil {
		t.Fatal(err)
	}
	if after := schema(); after != before {
		t.Fatalf("schema after the bulk write:\n%s\nbefore:\n%s", after, before)
	}
	if n := automerge(); n != 4 {
		t.Errorf("automerge after the bulk write = %d, want 4 again", n)
	}
	if n, err := s.CountList(ctx, ListQuery{Search: "wo-7"}); err != nil || n != 1 {
		t.Fatalf("search after rebuild: %d, %v", n, err)
	}
}
