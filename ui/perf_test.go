package ui

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// syncedReplica fills a replica with n work orders of the sandbox world
// through a real first sync, and returns it (offline: no Online is wired).
func syncedReplica(tb testing.TB, n int) *storage.Store {
	tb.Helper()
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 7, WorkOrders: n})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	defer func() { srv.Close(); sb.Close() }()
	info := sb.InfoFor(srv.URL + "/")
	store, err := storage.Open(ctx, filepath.Join(tb.TempDir(), "replica.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	client, _ := api.NewClient(info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}))
	if err := storage.NewSyncer(store, client, storage.SyncOptions{}).SyncNow(ctx); err != nil {
		tb.Fatal(err)
	}
	return store
}

func offlineDesk(tb testing.TB, store *storage.Store) *Desk {
	a := test.NewApp()
	tb.Cleanup(a.Quit)
	d := New(a, Deps{Store: store, Service: "offline", Background: func(f func()) { f() }, Do: func(f func()) { f() }})
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.Window().Show()
	return d
}

// TestScrollingKeepsOnlyVisibleCells: scrolling through thousands of rows
// keeps only the cells that fit on screen alive. (Fyne parks scrolled-out
// cells in a sync.Pool, so a garbage collection may make it build a few
// again; the number alive at any moment is what bounds memory and work.)
func TestScrollingKeepsOnlyVisibleCells(t *testing.T) {
	store := syncedReplica(t, 2000)
	d := offlineDesk(t, store)
	live := func() int {
		n := 0
		walk(d.list.table, func(o fyne.CanvasObject) {
			if _, ok := o.(*cell); ok {
				n++
			}
		})
		return n
	}
	rowHeight := newCell().MinSize().Height
	// The rows the table's height shows, a partly shown row at each edge,
	// times the columns.
	fit := (int(d.list.table.Size().Height/rowHeight) + 2) * len(d.list.shown)
	most := 0
	// A person scrolls a few rows per wheel notch, sideways now and then.
	for y, i := float32(0), 0; y < float32(d.list.total)*rowHeight; y, i = y+4*rowHeight, i+1 {
		x := float32(0)
		if i%50 > 25 {
			x = 400
		}
		d.list.table.ScrollToOffset(fyne.NewPos(x, y))
		most = max(most, live())
	}
	t.Logf("at most %d cells alive while scrolling 2000 rows; %d fit", most, fit)
	if most == 0 || most > fit {
		t.Fatalf("up to %d cell widgets were alive while scrolling; only %d fit on screen", most, fit)
	}
}

// BenchmarkSearchKeystroke50k types words one keystroke at a time into the
// search box over 50,000 work orders; each keystroke queries the replica and
// refreshes the table. Reports the median per keystroke (target < 16 ms).
//
//	go test -tags migrated_fynedo -run '^$' -bench SearchKeystroke -benchtime 1x ./ui/
func BenchmarkSearchKeystroke50k(b *testing.B) {
	store := syncedReplica(b, 50000)
	d := offlineDesk(b, store)
	words := []string{"walk-in freezer", "harbor point", "NWR7", "lighting aisle", "Sakura", "O'Brien", "WO-4"}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, w := range words {
			for i := 1; i <= len(w); i++ {
				start := time.Now()
				d.list.search.SetText(w[:i])
				times = append(times, time.Since(start))
			}
			d.list.search.SetText("")
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/keystroke-median")
	b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms/keystroke-p90")
}

// BenchmarkOpenList50k builds the window over 50,000 work orders: the list
// query plus the first layout of the table.
func BenchmarkOpenList50k(b *testing.B) {
	store := syncedReplica(b, 50000)
	b.ResetTimer()
	for b.Loop() {
		offlineDesk(b, store).Window().Close()
	}
}
