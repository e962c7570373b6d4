package ui

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	// Written straight into the replica: the rows are what matters here,
	// not how they came (a sync of 2,000 under -race takes tens of seconds).
	store := generatedReplica(t, 2000)
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
	fit := (int(d.list.table.Size().Height/rowHeight) + 2) * len(d.list.cols)
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

// typingScripts are what people type into the search box: words growing
// letter by letter (their first one and two letters match tens of
// thousands of work orders), a customer and digits off a sheet, pieces of
// numbers, words taken back with Backspace ("\b") and retyped, and Esc
// ("\x1b") to clear the search, which shows every work order again.
var typingScripts = []string{
	"harbor point\b\b\b\b\binner\x1b",
	"sakura 3264\x1b",
	"nwr7320\b\b\b\b\b\b\b",
	"door panic\x1b",
	"lighting\b\b\b\b\b\b\b\b",
	"kfu 73\x1b",
	"3264\b\b\b\b",
	"ceiling tile\b\b\b\b\bstain\x1b",
	"main lobby\x1b",
	"rheinland\b\b\b\b\b\b\b\b\b",
	"st\b\bo\b",
}

// benchSize is how many work orders a benchmark's replica holds:
// WORKDESK_BENCH_N when set (make perf runs the benchmarks at 10,000,
// 100,000 and 200,000 to show how the cost grows), else def.
func benchSize(tb testing.TB, def int) int {
	v := os.Getenv("WORKDESK_BENCH_N")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 60 {
		tb.Fatalf("WORKDESK_BENCH_N=%q: want a number of work orders, at least 60", v)
	}
	return n
}

// BenchmarkSearchKeystroke types typingScripts into the search box of the
// window over 100,000 work orders (WORKDESK_BENCH_N), one keystroke at a time, as the app
// runs it: the query in the background (Background is a goroutine), its
// answer handed to the main goroutine (Do), where the table is refreshed.
// Each keystroke is timed from the key reaching the search box to the table
// showing the first page of the answer and the count above it. Reports the
// median, the 90th percentile and the slowest keystroke (target: p90 under
// 16 ms, one frame at 60 Hz), sorted by next deadline (the default) and by
// customer, and under a status filter and "needs attention".
//
//	go test -tags migrated_fynedo -run '^$' -bench SearchKeystroke -benchtime 3x ./ui/
func BenchmarkSearchKeystroke(b *testing.B) {
	store := syncedReplica(b, benchSize(b, 100_000))
	onMain := make(chan func(), 64)
	a := test.NewApp()
	b.Cleanup(a.Quit)
	d := New(a, Deps{Store: store, Service: "offline", Background: func(f func()) { go f() }, Do: func(f func()) { onMain <- f }})
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.Window().Show()
	l := d.list
	// Runs what the background handed the main goroutine until the table
	// shows the answer to the newest query.
	settle := func() {
		for l.lister.shown != l.lister.gen.Load() {
			(<-onMain)()
		}
	}
	settle()
	<-store.WarmSearch() // the person starts typing a moment after the window opens
	for _, c := range []struct {
		name      string
		sort      storage.Column
		statuses  []api.WorkOrderStatus
		attention bool
	}{
		{columnName(storage.SortNextDeadline), storage.SortNextDeadline, nil, false},
		{columnName(storage.SortCustomer), storage.SortCustomer, nil, false},
		// A search under a filter, as a coordinator narrows the list first.
		{"status-filter", storage.SortNextDeadline, []api.WorkOrderStatus{api.StatusAccepted, api.StatusCheckedIn}, false},
		{"needs-attention", storage.SortNextDeadline, nil, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			l.query.Sort = c.sort
			l.query.Statuses = c.statuses
			l.query.NeedsAttention = c.attention
			l.requery()
			settle()
			var times []time.Duration
			keystrokes := 0
			for b.Loop() {
				for _, script := range typingScripts {
					for _, key := range script {
						start := time.Now()
						switch key {
						case '\b':
							l.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
						case '\x1b':
							l.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
						default:
							l.search.TypedRune(key)
						}
						settle()
						times = append(times, time.Since(start))
						keystrokes++
					}
				}
			}
			slices.Sort(times)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(times[len(times)/2]), "ms/keystroke-median")
			b.ReportMetric(ms(times[len(times)*9/10]), "ms/keystroke-p90")
			b.ReportMetric(ms(times[len(times)-1]), "ms/keystroke-max")
			b.ReportMetric(float64(keystrokes)/float64(b.N), "keystrokes/op")
		})
	}
}

func columnName(c storage.Column) string {
	for _, col := range columns {
		if col.sort == c && col.title != "" {
			return strings.ReplaceAll(strings.ToLower(col.title), " ", "-")
		}
	}
	return fmt.Sprint(int(c))
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
