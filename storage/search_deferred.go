package storage

import (
	"context"
	"fmt"
	"sync"
)

// A bulk write (a first sync) leaves the FTS5 index and the sort indexes
// off, and they are rebuilt after the sync reports done rather than while
// the person waits for it: indexing was a fifth of the sync's work on top
// of downloading. Searches are answered from the in-memory index
// (search_live.go) meanwhile; whatever would read FTS5 waits for the
// rebuild (waitFTS), so no search ever answers from a half-built index.

// deferredIndex tracks the rebuild running in the background.
type deferredIndex struct {
	mu      sync.Mutex
	pending chan struct{} // closed when the rebuild under way ends; nil: none
	ctx     context.Context
	stop    context.CancelFunc // Close: the rebuild is rolled back, and Open redoes it
	wg      sync.WaitGroup
	// held, when set, is waited for before the rebuild starts (a test
	// searches in between).
	held chan struct{}
}

func (d *deferredIndex) init() {
	d.ctx, d.stop = context.WithCancel(context.Background())
}

// close cancels a rebuild under way and waits for it to end.
func (d *deferredIndex) close() {
	if d.stop == nil {
		return
	}
	d.mu.Lock()
	d.stop()
	d.mu.Unlock()
	d.wg.Wait()
}

// resumeFTSLater runs resumeFTS (rebuilding the search index) in the
// background. Rows written before its transaction are in its rebuild,
// rows written after are indexed by the triggers it recreates: nothing
// written meanwhile is missed. A failure leaves the bulk write marked
// unfinished, so the next bulk sync, or the next Open, rebuilds again.
func (s *Store) resumeFTSLater() {
	d := &s.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending != nil || d.ctx.Err() != nil {
		return // one is under way (it sees what was written since), or closing
	}
	done := make(chan struct{})
	d.pending = done
	d.wg.Add(1)
	held := d.held
	go func() {
		defer d.wg.Done()
		if held != nil {
			select {
			case <-held:
			case <-d.ctx.Done():
			}
		}
		err := s.resumeFTS(d.ctx, true)
		d.mu.Lock()
		d.pending = nil
		d.mu.Unlock()
		close(done)
		if err != nil && d.ctx.Err() == nil {
			s.log.Warn("rebuilding the search index after a bulk write failed; the next sync or start rebuilds it", "err", err)
		}
	}()
}

// Indexing returns a channel that is closed when the search index is
// complete: at once, unless a rebuild after a bulk write is under way.
// The window says "indexing…" until then.
func (s *Store) Indexing() <-chan struct{} {
	d := &s.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending != nil {
		return d.pending
	}
	done := make(chan struct{})
	close(done)
	return done
}

// waitFTS returns when nothing is left to add to the FTS5 index (see
// Indexing), or ctx is done.
func (s *Store) waitFTS(ctx context.Context) error {
	select {
	case <-s.Indexing():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitFTSFor is waitFTS for a list query that reads FTS5 (one that
// searches); others go on at once.
func (s *Store) waitFTSFor(ctx context.Context, q ListQuery) error {
	if match, numbers := splitSearch(q.Search); match == "" && len(numbers) == 0 {
		return nil
	}
	if err := s.waitFTS(ctx); err != nil {
		return fmt.Errorf("storage: searching: %w", err)
	}
	return nil
}
