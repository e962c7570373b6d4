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
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The sizing target: with 100,000 work orders loaded, one search plus the
// full read of 10,000 of them (200 calls of 50) through api.Client in under a
// second on a 2-core machine, in under 500 MB of heap.
//
//	go test -run '^$' -bench SearchAndRead -benchtime 5x ./api/sandbox/

type bigWorld struct {
	sb     *Sandbox
	srv    *httptest.Server
	client *api.Client
	from   time.Time
	heapMB float64
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
		for b.Loop() {
			w.syncRaw(b, 1)
		}
		b.ReportMetric(w.heapMB, "heapMB")
	})
	for _, workers := range []int{1, 4} {
		b.Run(map[int]string{1: "serial", 4: "4-at-a-time"}[workers], func(b *testing.B) {
			for b.Loop() {
				w.syncOnce(b, workers)
			}
			b.ReportMetric(w.heapMB, "heapMB")
		})
	}
}
