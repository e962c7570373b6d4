package main

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// benchSize is how many work orders a benchmark's replica holds:
// WORKDESK_BENCH_N when set (make perf runs the first frame at 10,000,
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

// BenchmarkStartupFirstFrame starts the real binary on a replica of 50,000
// work orders (WORKDESK_BENCH_N; filled by a real sync from the sandbox)
// and reads how long the process ran before its first frame. Needs a
// display (Xvfb) and the built binary; `make measure-startup` does both.
// Target: median under 400 ms at 50,000, under 500 ms at 200,000.
func BenchmarkStartupFirstFrame(b *testing.B) {
	bin := os.Getenv("WORKDESK_BIN")
	if bin == "" || os.Getenv("DISPLAY") == "" {
		b.Skip("set WORKDESK_BIN and run under a display: make measure-startup")
	}
	// WORKDESK_BENCH_REPLICA keeps the seeded replica there (and reuses
	// it when it exists), to profile a start over it: perf record -g --
	// workdesk --replica FILE --startup-probe.
	replica := os.Getenv("WORKDESK_BENCH_REPLICA")
	if replica == "" {
		replica = filepath.Join(b.TempDir(), "replica.db")
	}
	if _, err := os.Stat(replica); err != nil {
		seedReplica(b, replica, benchSize(b, 50_000))
	}
	// WORKDESK_FLOOR_BIN (probe/floor, a window of one label) is started
	// before each start of ours: what a bare window takes on this machine,
	// back to back with the window's.
	floor := os.Getenv("WORKDESK_FLOOR_BIN")
	var ms, floors []int
	for b.Loop() {
		if floor != "" {
			floors = append(floors, firstFrame(b, floor))
		}
		ms = append(ms, firstFrame(b, bin, "--replica", replica, "--startup-probe", "--window-size", "1280x800"))
	}
	b.ReportMetric(median(ms), "ms-to-first-frame-median")
	b.ReportMetric(float64(slices.Max(ms)), "ms-to-first-frame-max")
	if floor != "" {
		b.ReportMetric(median(floors), "ms-floor-median")
	}
}

var firstFrameLine = regexp.MustCompile(`first frame after (\d+) ms`)

// firstFrame runs bin with args and returns the first frame it printed.
func firstFrame(b *testing.B, bin string, args ...string) int {
	out, err := exec.Command(bin, args...).CombinedOutput()
	m := firstFrameLine.FindSubmatch(out)
	if err != nil || m == nil {
		b.Fatalf("%s: %v\n%s", filepath.Base(bin), err, out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func median(ms []int) float64 {
	s := slices.Sorted(slices.Values(ms))
	return float64(s[len(s)/2])
}

func seedReplica(b *testing.B, path string, n int) {
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 7, WorkOrders: n})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	defer func() { srv.Close(); sb.Close() }()
	info := sb.InfoFor(srv.URL + "/")
	store, err := storage.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	client, _ := api.NewClient(info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}))
	if err := storage.NewSyncer(store, client, storage.SyncOptions{}).SyncNow(ctx); err != nil {
		b.Fatal(err)
	}
}
