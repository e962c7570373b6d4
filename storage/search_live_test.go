package storage

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestCloseWhileASearchStartsTheIndex: a search that starts building the
// in-memory index as the store closes is either done with it before Close
// waits, or sees the store closing and starts nothing; never a build that
// Close does not wait for, reading a closed replica (run with -race: the
// detector reports the WaitGroup added to while it was waited on).
func TestCloseWhileASearchStartsTheIndex(t *testing.T) {
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
