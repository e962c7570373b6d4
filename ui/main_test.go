package ui

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// fixedNow pins the sandbox world and the UI clock so rendered text
// ("in 3 h") is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// testClock is the UI's clock (format.Now) in every test: fixedNow unless a
// test moves it with setClock. time.Local and format.Now are process-wide and
// read by goroutines a test leaves behind (an HTTP server's, a ticker's),
// so they are set once, here, before any test starts; a test changes the
// clock through this atomic instead.
var testClock atomic.Pointer[func() time.Time]

func fixedClock() time.Time { return fixedNow }

// setClock makes now the UI's clock until the test ends.
func setClock(t testing.TB, now func() time.Time) {
	testClock.Store(&now)
	t.Cleanup(func() {
		fixed := fixedClock
		testClock.Store(&fixed)
	})
}

// setNow stops the UI's clock at at until the test ends.
func setNow(t testing.TB, at time.Time) { setClock(t, func() time.Time { return at }) }

// templateDir holds the replica every harness starts from (see
// syncedTemplate); TestMain removes it.
var templateDir string

func TestMain(m *testing.M) {
	time.Local = time.UTC
	clock := fixedClock
	testClock.Store(&clock)
	format.Now = func() time.Time { return (*testClock.Load())() }
	dir, err := os.MkdirTemp("", "workdesk-ui-test-")
	if err != nil {
		panic(err)
	}
	templateDir = dir
	code := m.Run()
	if pgCluster != nil {
		pgCluster.Stop()
	}
	os.RemoveAll(templateDir)
	os.Exit(code)
}

// signingKey is the sandboxes' RSA key: generating a 2048-bit key costs
// more than the rest of a sandbox, and no test depends on keys differing.
var signingKey = sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) })

// demoSandbox is the demo world every harness runs against: seed 1, the
// clock at fixedNow.
func demoSandbox(tb testing.TB) *sandbox.Sandbox {
	tb.Helper()
	return demoSandboxIn(tb, sandbox.DialectPlain)
}

// demoSandboxIn is demoSandbox answering in dialect.
func demoSandboxIn(tb testing.TB, dialect sandbox.Dialect) *sandbox.Sandbox {
	tb.Helper()
	key, err := signingKey()
	if err != nil {
		tb.Fatal(err)
	}
	sb, err := sandbox.New(sandbox.Options{Seed: 1, Now: fixedClock, Key: key, Dialect: dialect})
	if err != nil {
		tb.Fatal(err)
	}
	return sb
}

// syncedTemplate is the path of a replica holding the first sync of the
// demo world, made once per test binary. A harness copies it instead of
// syncing: the sandbox generates the same world from the same seed and
// clock every time, and a sync changes nothing in it, so the copy is what
// a first sync against the harness's own sandbox would have written
// (TestACopiedReplicaIsAFirstSync holds that). A test of the first sync
// itself asks for one with harnessOptions.firstSync.
var syncedTemplate = sync.OnceValues(func() (string, error) {
	ctx := context.Background()
	key, err := signingKey()
	if err != nil {
		return "", err
	}
	sb, err := sandbox.New(sandbox.Options{Seed: 1, Now: fixedClock, Key: key})
	if err != nil {
		return "", err
	}
	defer sb.Close()
	srv := httptest.NewServer(sb.Handler())
	defer srv.Close()
	info := sb.InfoFor(srv.URL + "/")
	path := filepath.Join(templateDir, "replica.db")
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{
		Connection: api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret},
		Now:        fixedClock,
		ManualSend: true,
	})
	if err != nil {
		return "", err
	}
	defer eng.Close() // folds the WAL into the file: the replica is one file
	return path, eng.SyncNow(ctx, nil)
})

// copyTemplate writes a copy of the synced template replica at path.
func copyTemplate(tb testing.TB, path string) {
	tb.Helper()
	src, err := syncedTemplate()
	if err != nil {
		tb.Fatalf("the first sync of the template replica: %v", err)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// TestSetNowIsPutBackWhenTheTestEnds: a test that moves the window's clock
// moves it for itself only. Tests that assigned format.Now directly once left
// every later test on their clock (links read "13:59", back-dating began
// at 09:01).
func TestSetNowIsPutBackWhenTheTestEnds(t *testing.T) {
	later := fixedNow.Add(90 * time.Minute)
	t.Run("moved", func(t *testing.T) {
		setNow(t, later)
		if got := format.Now(); !got.Equal(later) {
			t.Fatalf("the window's clock reads %v after setNow(%v)", got, later)
		}
	})
	if got := format.Now(); !got.Equal(fixedNow) {
		t.Fatalf("after the test that moved it the clock reads %v, want %v", got, fixedNow)
	}
}
