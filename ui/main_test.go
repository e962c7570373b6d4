package ui

import (
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// fixedNow pins the sandbox world and the UI clock so rendered text
// ("in 3 h") is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// testClock is the UI's clock (nowFunc) in every test: fixedNow unless a
// test moves it with setClock. time.Local and nowFunc are process-wide and
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

func TestMain(m *testing.M) {
	time.Local = time.UTC
	clock := fixedClock
	testClock.Store(&clock)
	nowFunc = func() time.Time { return (*testClock.Load())() }
	code := m.Run()
	if pgCluster != nil {
		pgCluster.Stop()
	}
	os.Exit(code)
}
