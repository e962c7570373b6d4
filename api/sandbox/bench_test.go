package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The sizing target: with 100,000 work orders loaded, one search plus the
// full read of 10,000 of them (200 calls of 50) through api.Client in under a
// second on a 2-core machine, in under 500 MB of memory.
//
//	go test -run '^$' -bench SearchAndRead -benchtime 5x ./api/sandbox/
//
// Metrics: world-heapMB is the live heap of the loaded world after a GC;
// peak-heapMB and peak-totalMB are the highest heap (live and not yet
// collected objects) and the highest memory the Go runtime had mapped,
// sampled every millisecond during the timed work. Client and server share
// the process, so the peaks include the client's decoding too.

type bigWorld struct {
	sb     *Sandbox
	srv    *httptest.Server
	client *api.Client
	from   time.Time
	heapMB float64
}

// peakMemory samples runtime/metrics (no stop-the-world, unlike
// ReadMemStats) until stop is called, keeping the highest values seen.
type peakMemory struct {
	stop chan struct{}
	done chan struct{}
	heap uint64 // /memory/classes/heap/objects:bytes
	sys  uint64 // /memory/classes/total:bytes
}

func startPeakMemory() *peakMemory {
	p := &peakMemory{stop: make(chan struct{}), done: make(chan struct{})}
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	sample := func() {
		metrics.Read(samples)
		p.heap = max(p.heap, samples[0].Value.Uint64())
		p.sys = max(p.sys, samples[1].Value.Uint64())
	}
	sample()
	go func() {
		defer close(p.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				sample()
			case <-p.stop:
				sample()
				return
			}
		}
	}()
	return p
}

// report stops sampling and reports the peaks on b.
func (p *peakMemory) report(b *testing.B) {
	close(p.stop)
	<-p.done
	b.ReportMetric(float64(p.heap)/(1<<20), "peak-heapMB")
	b.ReportMetric(float64(p.sys)/(1<<20), "peak-totalMB")
}

func newBigWorld(tb testing.TB) *bigWorld {
	tb.Helper()
	sb, err := New(Options{WorkOrders: 100_000, Key: testKey(), Now: func() time.Time { return fixedNow }})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	tb.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	info := sb.InfoFor(srv.URL)
	creds := api.NewClientCredentials(api.CredentialsConfig{TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret, Now: sb.Clock().Now})
	client, _ := api.NewClient(info.BaseURL, srv.Client(), creds)
	idx := sb.st.byUpdate
	w := &bigWorld{sb: sb, srv: srv, client: client, from: time.Unix(0, idx[len(idx)-10_000].t).UTC()}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w.heapMB = float64(ms.HeapInuse) / (1 << 20)
	return w
}

// syncOnce is what the sync loop does: search by LastUpdate, then read the
// hits in full, 50 ids per call, `workers` calls at a time.
func (w *bigWorld) syncOnce(tb testing.TB, workers int) {
	ctx := context.Background()
	hits, err := w.client.SearchWorkOrders(ctx, api.SearchParameters{LastUpdate: &api.DateRange{From: &w.from}})
	if err != nil || len(hits) != 10_000 {
		tb.Fatalf("search: %d hits, %v", len(hits), err)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.WorkOrderId
	}
	batches := make(chan []int64)
	var wg sync.WaitGroup
	var mu sync.Mutex
	read := 0
	for range workers {
		wg.Go(func() {
			for b := range batches {
				wos, err := w.client.GetWorkOrders(ctx, b)
				if err != nil {
					tb.Error(err)
					return
				}
				mu.Lock()
				read += len(wos)
				mu.Unlock()
			}
		})
	}
	for i := 0; i < len(ids); i += api.MaxReadBatch {
		batches <- ids[i:min(i+api.MaxReadBatch, len(ids))]
	}
	close(batches)
	wg.Wait()
	if read != 10_000 {
		tb.Fatalf("read %d work orders", read)
	}
}

// syncRaw is the same traffic over plain HTTP, answers read but not
// decoded: the sandbox's own share of the cost.
func (w *bigWorld) syncRaw(tb testing.TB, workers int) {
	tok, err := w.sb.mintToken()
	if err != nil {
		tb.Fatal(err)
	}
	get := func(method, path string, body io.Reader, out any) {
		req, _ := http.NewRequest(method, w.srv.URL+path, body)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := w.srv.Client().Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			tb.Fatalf("%s %s: %d", method, path, resp.StatusCode)
		}
		if out == nil {
			io.Copy(io.Discard, resp.Body)
			return
		}
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			tb.Fatal(err)
		}
	}
	q, _ := json.Marshal(map[string]any{"Parameters": map[string]any{"LastUpdate": map[string]any{"From": w.from}}})
	var hits struct{ WorkOrders []struct{ WorkOrderId int64 } }
	if get(http.MethodPost, "/api/workOrder/search", bytes.NewReader(q), &hits); len(hits.WorkOrders) != 10_000 {
		tb.Fatalf("search: %d hits", len(hits.WorkOrders))
	}
	paths := make(chan string)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for p := range paths {
				get(http.MethodGet, p, nil, nil)
			}
		})
	}
	for i := 0; i < len(hits.WorkOrders); i += api.MaxReadBatch {
		v := url.Values{}
		for _, h := range hits.WorkOrders[i:min(i+api.MaxReadBatch, len(hits.WorkOrders))] {
			v.Add("ids", strconv.FormatInt(h.WorkOrderId, 10))
		}
		paths <- "/api/workOrder?" + v.Encode()
	}
	close(paths)
	wg.Wait()
}

func BenchmarkSearchAndRead100k(b *testing.B) {
	w := newBigWorld(b)
	b.Run("raw-http-serial", func(b *testing.B) {
		peak := startPeakMemory()
		for b.Loop() {
			w.syncRaw(b, 1)
		}
		peak.report(b)
		b.ReportMetric(w.heapMB, "world-heapMB")
	})
	for _, workers := range []int{1, 4} {
		b.Run(map[int]string{1: "serial", 4: "4-at-a-time"}[workers], func(b *testing.B) {
			peak := startPeakMemory()
			for b.Loop() {
				w.syncOnce(b, workers)
			}
			peak.report(b)
			b.ReportMetric(w.heapMB, "world-heapMB")
		})
	}
}
