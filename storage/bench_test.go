package storage

// Benchmarks (go test -run '^$' -bench . -benchtime 3x ./storage/):
//   BenchmarkSync / BenchmarkFetchOnly: first sync of 10,000 work orders (WORKDESK_BENCH_N) from
//     the in-process sandbox into a fresh replica, against the same HTTP calls
//     with the answers decoded and thrown away. Target: sync ≤ 1.5× fetch-only,
//     which BenchmarkSyncOverFetchOnly measures in back-to-back pairs.
//   BenchmarkSyncWriter: what that sync's writer does with the 10,000
//     fetched work orders (bulk mode, commits of commitRows, index switched
//     back on), without the network: its CPU varies far less than the
//     pair's ratio on a busy machine, so a change to it shows.
//   BenchmarkSearchAsYouType: 100,000 work orders written directly; every
//     prefix of a set of typed words, each read as the window does (the
//     count and the first 50 rows), from FTS5 and from the in-memory index in
//     back-to-back pairs; reports medians and 90th percentiles.
//   BenchmarkSearchIndex100k: building the in-memory index, its heap.
//   BenchmarkOpenListForDisplay50k: CountList and the first 50 rows of 50,000,
//     by next deadline and by customer. Target 300 ms.
//   BenchmarkList50k: the unfiltered, default-sorted list of 50,000 rows.
//   BenchmarkList100k reports the size of a 100,000-work-order replica.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// syncBenchSize is how many work orders the sync benchmarks' world holds:
// WORKDESK_BENCH_N when set (to see how a sync's cost grows), else 10,000.
var syncBenchSize = func() int {
	if n, err := strconv.Atoi(os.Getenv("WORKDESK_BENCH_N")); err == nil && n >= 60 {
		return n
	}
	return 10_000
}()

var (
	benchSvcOnce sync.Once
	benchSvc     *benchService
)

type benchService struct {
	sb     *sandbox.Sandbox
	srv    *httptest.Server
	client func() *api.Client
}

func syncService(b *testing.B) *benchService {
	benchSvcOnce.Do(func() {
		sb, err := sandbox.New(sandbox.Options{Seed: 3, WorkOrders: syncBenchSize})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(sb.Handler())
		info := sb.InfoFor(srv.URL)
		benchSvc = &benchService{sb: sb, srv: srv, client: func() *api.Client {
			tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: info.TokenURL, ClientID: info.ClientID,
				ClientSecret: info.ClientSecret, HTTPClient: srv.Client()})
			c, err := api.NewClient(info.BaseURL, srv.Client(), tokens)
			if err != nil {
				panic(err)
			}
			return c
		}}
	})
	return benchSvc
}

// cpuTime is the process's user+system CPU time: on a shared machine it
// compares the work two benchmarks do better than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// syncOnce runs one first sync into a fresh replica and returns its wall
// and CPU time, and the time the checkpoint it leaves behind takes.
func syncOnce(b *testing.B, svc *benchService) (wall, cpu, indexing, checkpoint time.Duration) {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "bench-sync")
	defer os.RemoveAll(dir)
	s, err := Open(ctx, filepath.Join(dir, "replica.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c := svc.client()
	started, startCPU := time.Now(), cpuTime()
	if err := NewSyncer(s, c, SyncOptions{}).SyncNow(ctx); err != nil {
		b.Fatal(err)
	}
	wall, cpu = time.Since(started), cpuTime()-startCPU
	if n, _ := s.Count(ctx); n < syncBenchSize {
		b.Fatalf("synced %d work orders", n)
	}
	// The search index is rebuilt after the sync returns: not part of the
	// sync's time either, but reported, and waited for, so that it neither
	// hides nor runs into the next measurement.
	started = time.Now()
	if err := s.waitFTS(ctx); err != nil {
		b.Fatal(err)
	}
	indexing = time.Since(started)
	// The sync leaves its pages in the WAL (about 25 MB for 10,000 work
	// orders); folding them into the database happens later, when the WAL
	// passes wal_autocheckpoint or the app closes. Not part of the sync's
	// time, but reported, so that it is no hidden cost.
	started = time.Now()
	if _, err := s.w.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		b.Fatal(err)
	}
	return wall, cpu, indexing, time.Since(started)
}

// fetchOnce makes the calls a first sync makes (one search, then 50 ids per
// read, 4 in flight, as SyncOptions' default) and discards the decoded
// answers.
func fetchOnce(b *testing.B, svc *benchService) (wall, cpu time.Duration) {
	ctx := context.Background()
	c := svc.client()
	started, startCPU := time.Now(), cpuTime()
	found, err := c.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		b.Fatal(err)
	}
	ids := make(chan []int64)
	go func() {
		for i := 0; i < len(found); i += api.MaxReadBatch {
			batch := make([]int64, 0, api.MaxReadBatch)
			for _, wo := range found[i:min(i+api.MaxReadBatch, len(found))] {
				batch = append(batch, wo.WorkOrderId)
			}
			ids <- batch
		}
		close(ids)
	}()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range ids {
				if _, err := c.GetWorkOrders(ctx, batch); err != nil {
					panic(err)
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(started), cpuTime() - startCPU
}

func BenchmarkSyncWriter(b *testing.B) {
	ctx := context.Background()
	c := syncService(b).client()
	found, err := c.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]int64, len(found))
	for i, wo := range found {
		ids[i] = wo.WorkOrderId
	}
	slices.Sort(ids) // as the sync writes them
	wos, err := c.GetWorkOrders(ctx, ids)
	if err != nil {
		b.Fatal(err)
	}
	var batches [][][]any // of api.MaxReadBatch rows, as fetched
	for start := 0; start < len(wos); start += api.MaxReadBatch {
		var rows [][]any
		for i := start; i < min(start+api.MaxReadBatch, len(wos)); i++ {
			args, err := workOrderArgs(&wos[i], true)
			if err != nil {
				b.Fatal(err)
			}
			rows = append(rows, args)
		}
		batches = append(batches, rows)
	}
	var wall, cpu time.Duration
	for b.Loop() {
		dir, _ := os.MkdirTemp("", "bench-writer")
		s, err := Open(ctx, filepath.Join(dir, "replica.db"))
		if err != nil {
			b.Fatal(err)
		}
		started, startCPU := time.Now(), cpuTime()
		if _, err := s.deferFTS(ctx); err != nil {
			b.Fatal(err)
		}
		for start := 0; start < len(batches); {
			var group [][][]any
			var changed []int64
			for n := 0; n < defaultTuning.commitRows && start < len(batches); start++ {
				group = append(group, batches[start])
				for _, r := range batches[start] {
					changed = append(changed, r[0].(int64))
				}
				n += len(batches[start])
			}
			if err := s.storeBatches(ctx, group, changed); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.resumeFTS(ctx, true); err != nil {
			b.Fatal(err)
		}
		wall, cpu = wall+time.Since(started), cpu+cpuTime()-startCPU
		s.Close()
		os.RemoveAll(dir)
	}
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "write-ms/op")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

func BenchmarkSync(b *testing.B) {
	svc := syncService(b)
	var wall, cpu, indexing, checkpoint time.Duration
	for b.Loop() {
		w, c, ix, cp := syncOnce(b, svc)
		wall, cpu, indexing, checkpoint = wall+w, cpu+c, indexing+ix, checkpoint+cp
	}
	b.ReportMetric(float64(indexing.Milliseconds())/float64(b.N), "later-indexing-ms/op")
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "sync-ms/op")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(checkpoint.Milliseconds())/float64(b.N), "later-checkpoint-ms/op")
}

func BenchmarkFetchOnly(b *testing.B) {
	svc := syncService(b)
	var wall, cpu time.Duration
	for b.Loop() {
		w, c := fetchOnce(b, svc)
		wall, cpu = wall+w, cpu+c
	}
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "fetch-ms/op")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkSyncOverFetchOnly runs a fetch-only and a sync back to back, b.N
// times, and reports the median of their ratios: on a shared machine whose
// speed drifts from one second to the next, pairs compare like with like
// where two separate benchmarks, run a minute apart, may not. Target: 1.5.
func BenchmarkSyncOverFetchOnly(b *testing.B) {
	svc := syncService(b)
	var ratios []float64
	var syncs, fetches, indexings []time.Duration
	for b.Loop() {
		f, _ := fetchOnce(b, svc)
		s, _, ix, _ := syncOnce(b, svc)
		ratios = append(ratios, float64(s)/float64(f))
		syncs, fetches, indexings = append(syncs, s), append(fetches, f), append(indexings, ix)
	}
	slices.Sort(ratios)
	slices.Sort(syncs)
	slices.Sort(fetches)
	slices.Sort(indexings)
	b.ReportMetric(float64(indexings[len(indexings)/2].Milliseconds()), "median-later-indexing-ms")
	b.ReportMetric(ratios[len(ratios)/2], "median-sync/fetch")
	b.ReportMetric(float64(syncs[len(syncs)/2].Milliseconds()), "median-sync-ms")
	b.ReportMetric(float64(fetches[len(fetches)/2].Milliseconds()), "median-fetch-ms")
}

var (
	customersB = []string{"Northwind Retail", "Harbor Point Hotels", "Kensington Foods UK", "Sakura Mart Japan",
		"Rheinland Offices", "Lakeside Medical Group", "O'Brien Logistics", "Café Lumière", "Acme Industrial", "Blue Ridge Schools"}
	sitesB   = []string{"Store", "Hotel", "Warehouse", "Office", "Clinic", "Depot", "School", "Kitchen", "Plant", "Garage"}
	streetsB = []string{"Main St", "Harbor Blvd", "High Street", "Sakura-dori", "Rheinuferstraße", "Lake Shore Dr",
		"Market Sq", "Elm Ave", "Station Rd", "Industrial Pkwy"}
	tasksB = []string{"Leaking faucet in restroom", "HVAC not cooling", "Replace ceiling tiles", "Door closer broken",
		"Freezer alarm", "Parking lot light out", "Roof leak over aisle 4", "Elevator inspection", "Clogged drain",
		"Fire extinguisher service", "Repaint loading dock", "Generator test"}
	statusesB = []api.WorkOrderStatus{api.StatusNew, api.StatusAccepted, api.StatusAccepted, api.StatusCheckedIn,
		api.StatusPaused, api.StatusCheckedOut, api.StatusCheckedOut, api.StatusVerified, api.StatusOnHold, api.StatusRejected}
	currenciesB = []string{"USD", "USD", "EUR", "GBP", "JPY"}
)

// synthetic builds n realistic work orders without HTTP.
func synthetic(n int) []api.WorkOrder {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]api.WorkOrder, n)
	for i := range out {
		c := customersB[rng.IntN(len(customersB))]
		cur := currenciesB[rng.IntN(len(currenciesB))]
		created := base.Add(time.Duration(rng.IntN(365*24)) * time.Hour)
		ack, on, due := created.Add(4*time.Hour), created.Add(48*time.Hour), created.Add(7*24*time.Hour)
		w := api.WorkOrder{
			WorkOrderId:         int64(1_000_000 + i),
			WorkOrderNumber:     fmt.Sprintf("WO-%06d", 100000+i),
			Status:              statusesB[rng.IntN(len(statusesB))],
			Created:             created,
			LastUpdate:          created.Add(time.Hour),
			AccompanyingMessage: tasksB[rng.IntN(len(tasksB))],
			WorkType:            &api.WorkType{Name: "Maintenance"},
			Currency:            cur,
			Customer:            api.Customer{Id: int64(4100 + rng.IntN(10)), Name: c},
			Nte:                 api.Nte{Amount: api.MustMoney(fmt.Sprintf("%d", rng.IntN(5000)), cur)},
			ServiceLocation: &api.ServiceLocation{SpaceName: fmt.Sprintf("%s #%d", sitesB[rng.IntN(len(sitesB))], rng.IntN(900)),
				Address: &api.Address{Street1: fmt.Sprintf("%d %s", 1+rng.IntN(999), streetsB[rng.IntN(len(streetsB))]),
					City: "Springfield", State: "IL", PostalCode: "62701", Country: "US"}},
			Sla:     &api.Sla{AcknowledgeBy: &ack, OnSiteBy: &on, DueDate: &due, PriorityName: "NORMAL"},
			Contact: &api.Contact{FullName: "Pat Manager", Phones: []string{"+1 555 0100"}},
		}
		if rng.IntN(10) == 0 {
			w.Nte.Quote = &api.Quote{QuoteStatus: api.QuoteRequested, Amount: api.MustMoney("100", cur)}
		}
		if rng.IntN(3) == 0 {
			st := created.Add(30 * time.Hour)
			w.Schedule = &api.Schedule{ScheduledStart: &st}
		}
		out[i] = w
	}
	return out
}

var (
	bigMu  sync.Mutex
	bigDBs = map[int]string{}
)

// bigReplica returns a replica of n synthetic work orders, built once per run.
func bigReplica(b *testing.B, n int) *Store {
	bigMu.Lock()
	defer bigMu.Unlock()
	ctx := context.Background()
	path, ok := bigDBs[n]
	if !ok {
		dir, err := os.MkdirTemp("", "bench-replica")
		if err != nil {
			b.Fatal(err)
		}
		path = filepath.Join(dir, "replica.db")
		s, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		wos := synthetic(n)
		start := time.Now()
		for i := 0; i < n; i += 1000 {
			if err := s.PutWorkOrders(ctx, wos[i:min(i+1000, n)]); err != nil {
				b.Fatal(err)
			}
		}
		b.Logf("wrote %d work orders in %v", n, time.Since(start).Round(time.Millisecond))
		s.Close()
		bigDBs[n] = path
	}
	s, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	s.now = func() time.Time { return time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC) }
	b.Cleanup(func() { s.Close() })
	return s
}

// typedWords are what someone types, one keystroke at a time: words, a
// number, a customer with digits off a sheet.
var typedWords = []string{"northwind", "o'brien", "WO-1234", "faucet", "warehouse", "harbor", "café", "roof leak", "store #12",
	"main st", "lakeside 1012"}

func typedPrefixes() []string {
	var out []string
	for _, w := range typedWords {
		r := []rune(w)
		for i := 1; i <= len(r); i++ {
			out = append(out, string(r[:i]))
		}
	}
	return out
}

// listPage is the first page the window shows.
const listPage = 50

// ftsOnly runs f with the in-memory index set aside: searches go to FTS5
// as they did before it.
func ftsOnly(s *Store, f func()) {
	s.search.mu.Lock()
	idx := s.search.idx
	s.search.idx, s.search.off = nil, true
	s.search.mu.Unlock()
	defer func() {
		s.search.mu.Lock()
		s.search.idx, s.search.off = idx, false
		s.search.mu.Unlock()
	}()
	f()
}

// BenchmarkSearchAsYouType: per keystroke, the count and the first page of
// 50 rows (ListAndCount, as the window reads them) over 100,000 work
// orders, from FTS5 and number LIKE (the way before) and from the
// in-memory index, one right after the other (which first alternates), no
// answer kept from an earlier keystroke; sorted by next deadline and by
// customer, and under a status filter and "needs attention".
func BenchmarkSearchAsYouType(b *testing.B) {
	s := bigReplica(b, 100_000)
	ctx := context.Background()
	<-s.WarmSearch()
	for _, c := range []struct {
		name      string
		sort      Column
		statuses  []api.WorkOrderStatus
		attention bool
	}{
		{"deadline", SortNextDeadline, nil, false},
		{"customer", SortCustomer, nil, false},
		// Under a filter: the index narrows what it finds by status or by
		// the attention rule (search_filter.go); FTS5 by a query of the ids.
		{"status-filter", SortNextDeadline, []api.WorkOrderStatus{api.StatusAccepted, api.StatusCheckedIn}, false},
		{"needs-attention", SortNextDeadline, nil, true},
	} {
		sort := c.sort
		b.Run(c.name, func(b *testing.B) {
			s.ensureSortIndex(ctx, sort)
			s.search.mu.Lock()
			s.search.idx.order(sort) // made when the list was sorted so (warmSearchOrder)
			s.search.mu.Unlock()
			var fts, mem, ratios []float64
			timed := func(q ListQuery) float64 {
				s.searchMu.Lock()
				s.searchSets = nil
				s.searchMu.Unlock()
				start := time.Now()
				if _, _, err := s.ListAndCount(ctx, q); err != nil {
					b.Fatal(err)
				}
				return float64(time.Since(start).Microseconds()) / 1000
			}
			cpu := cpuTime()
			for b.Loop() {
				for i, p := range typedPrefixes() {
					q := ListQuery{Search: p, Limit: listPage, Sort: sort, Statuses: c.statuses, NeedsAttention: c.attention}
					var f, m float64
					if i%2 == 0 {
						ftsOnly(s, func() { f = timed(q) })
						m = timed(q)
					} else {
						m = timed(q)
						ftsOnly(s, func() { f = timed(q) })
					}
					fts, mem, ratios = append(fts, f), append(mem, m), append(ratios, m/f)
				}
			}
			reportCPU(b, cpu)
			pct := func(xs []float64, p int) float64 { slices.Sort(xs); return xs[len(xs)*p/100] }
			b.ReportMetric(pct(fts, 50), "ms-fts-median")
			b.ReportMetric(pct(fts, 90), "ms-fts-p90")
			b.ReportMetric(pct(mem, 50), "ms-memory-median")
			b.ReportMetric(pct(mem, 90), "ms-memory-p90")
			b.ReportMetric(pct(ratios, 50), "memory/fts-median")
			b.ReportMetric(float64(len(typedPrefixes())), "keystrokes/op")
		})
	}
}

// BenchmarkSearchIndex100k builds the in-memory search index of 100,000
// work orders and reports how long it took and the heap it holds.
func BenchmarkSearchIndex100k(b *testing.B) {
	s := bigReplica(b, 100_000)
	ctx := context.Background()
	var heap float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		x, err := s.buildSearchIndex(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(x)
	}
	b.ReportMetric(heap, "MB-heap")
}

// BenchmarkOpenListForDisplay50k: what opening the window costs, CountList
// and the first page, sorted by next deadline (the default) or by customer;
// customer-first-time is the first such list, which makes its sort index
// (see ensureSortIndex).
func BenchmarkOpenListForDisplay50k(b *testing.B) {
	for _, sc := range []struct {
		name  string
		sort  Column
		first bool
	}{{"deadline", SortNextDeadline, false}, {"customer", SortCustomer, false}, {"customer-first-time", SortCustomer, true}} {
		b.Run(sc.name, func(b *testing.B) {
			s := bigReplica(b, 50_000)
			ctx := context.Background()
			if !sc.first {
				s.ensureSortIndex(ctx, sc.sort) // made by the first time, timed below
			}
			cpu := cpuTime()
			defer func() { reportCPU(b, cpu) }()
			for b.Loop() {
				if sc.first {
					b.StopTimer()
					if _, err := s.w.ExecContext(ctx, "DROP INDEX IF EXISTS "+sortIndex[sc.sort]); err != nil {
						b.Fatal(err)
					}
					s.sortIndexes.Delete(sc.sort)
					b.StartTimer()
				}
				q := ListQuery{Sort: sc.sort, Limit: listPage}
				n, err := s.CountList(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				rows, err := s.List(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				if n != 50_000 || len(rows) != listPage {
					b.Fatalf("count %d, first page %d rows", n, len(rows))
				}
			}
		})
	}
}

func BenchmarkList50k(b *testing.B) {
	s := bigReplica(b, 50_000)
	ctx := context.Background()
	cpu := cpuTime()
	defer func() { reportCPU(b, cpu) }()
	for b.Loop() {
		rows, err := s.List(ctx, ListQuery{})
		if err != nil {
			b.Fatal(err)
		}
		if len(rows) != 50_000 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}

func BenchmarkList100kNeedsAttention(b *testing.B) {
	s := bigReplica(b, 100_000)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.NeedsAttentionCount(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := s.StatusCounts(ctx); err != nil {
			b.Fatal(err)
		}
	}
	fi, err := os.Stat(s.Path())
	if err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "MB-db-100k")
	}
}
