package storage

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCloseWhileASearchStartsTheIndex: a search that starts building the
// in-memory index as the store closes is either done with it before Close
// waits, or sees the store closing and starts nothing; never a build that
// Close does not wait for, reading a closed replica (run with -race: the
// detector reports the WaitGroup added to while it was waited on).
func TestCloseWhileASearchStartsTheIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	for i := range 30 {
		s, err := Open(ctx, filepath.Join(dir, "replica.db"))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			put(t, s, woSpec{id: 1, number: "WO-1", customer: "Northwind Retail"})
		}
		started := make(chan struct{})
		done := make(chan struct{})
		go func() {
			close(started)
			s.WarmSearch()
			close(done)
		}()
		<-started
		// No synchronisation with the search beyond this point: Close alone
		// must order itself after what the search started.
		time.Sleep(time.Duration(i%5) * 100 * time.Microsecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		<-done
	}
}

// TestSearchOutlivesAnIndexThatCannotFollow: when the in-memory index
// cannot read what was written since it was built, searches are answered
// by the replica's full-text index instead of failing on every keystroke,
// and the trouble is logged once.
func TestSearchOutlivesAnIndexThatCannotFollow(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	put(t, s, woSpec{id: 1, number: "WO-1", customer: "Northwind Retail"}, woSpec{id: 2, number: "WO-2", customer: "Harbor Point Hotels"})
	<-s.WarmSearch()
	var logged strings.Builder
	s.log = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// What the index follows the replica by can no longer be read.
	if _, err := s.w.ExecContext(ctx, `ALTER TABLE search_changes RENAME TO search_changes_gone`); err != nil {
		t.Fatal(err)
	}
	for _, search := range []string{"north", "northw", "harbor"} {
		rows, n, err := s.ListAndCount(ctx, ListQuery{Search: search, Limit: 50})
		if err != nil {
			t.Fatalf("search %q: %v", search, err)
		}
		if n != 1 || len(rows) != 1 {
			t.Errorf("search %q found %d (%d rows), want 1", search, n, len(rows))
		}
	}
	if got := strings.Count(logged.String(), "level=WARN"); got != 1 {
		t.Errorf("%d warnings logged, want 1:\n%s", got, logged.String())
	}
}
