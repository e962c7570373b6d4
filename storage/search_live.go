package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// The in-memory search index (search_index.go) is made the first time
// someone searches (or WarmSearch asks for it), in the background, and
// follows the replica through search_changes: each search first applies
// what was written since the last one. Until it is ready, and for what it
// cannot answer, searches go to FTS5 as before.

// searchChangesKept is how many search_changes entries logSearchChanges
// keeps: an index that fell further behind is built again.
const searchChangesKept = 100_000

// searchCatchUp is the most changes a search applies before answering; an
// index further behind is built again in the background.
const searchCatchUp = 5_000

// logSearchChanges records, inside the transaction writing them, that the
// work orders ids (an idsJSON array) were written.
func logSearchChanges(ctx context.Context, tx *sql.Tx, ids string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_changes(id) SELECT value FROM json_each(?)`, ids); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM search_changes WHERE seq <= (SELECT max(seq) FROM search_changes) - ?`, searchChangesKept)
	return err
}

// rowsQueryer is a *sql.DB or a *sql.Conn.
type rowsQueryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// liveSearch holds the Store's in-memory search index.
type liveSearch struct {
	mu       sync.Mutex
	idx      *searchIndex  // nil until built, and while rebuilt after a gap
	building chan struct{} // closed when the build under way ends; nil: none
	off      bool          // the replica holds text the index cannot read as FTS5 does
	failing  bool          // building or following the replica failed: said once, until an index is ready
	tok      *tokenizer
	catchUp  int             // searchCatchUp; a test makes it small to pass it with few writes
	ctx      context.Context // cancelled by Close
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// SearchIndexEnv, set to "off", keeps the in-memory search index from
// being built: searches use the replica's FTS5 index only, slower on a
// large replica, with about 11 MB less memory per 50,000 work orders
// (make measure-memory).
const SearchIndexEnv = "WORKDESK_SEARCH_INDEX"

func (l *liveSearch) init() {
	l.tok = newTokenizer()
	l.catchUp = searchCatchUp
	l.ctx, l.stop = context.WithCancel(context.Background())
	l.off = os.Getenv(SearchIndexEnv) == "off"
}

// close stops the index's goroutines and waits for them. Cancelling under
// mu orders it with the searches that start one (they check l.ctx and Add
// under mu), so none is added while Wait runs or after it returns.
func (l *liveSearch) close() {
	l.mu.Lock()
	l.stop()
	l.mu.Unlock()
	l.wg.Wait()
}

// WarmSearch builds the in-memory search index in the background, so that
// the first keystroke of a search finds it ready; the window calls it when
// it opens. The channel is closed when the index is ready (or cannot be
// built: searches then use FTS5).
func (s *Store) WarmSearch() <-chan struct{} {
	s.search.mu.Lock()
	defer s.search.mu.Unlock()
	if s.search.idx == nil {
		s.buildSearchIndexLocked()
	}
	if s.search.building != nil {
		return s.search.building
	}
	done := make(chan struct{})
	close(done)
	return done
}

// findInMemory fills set from the in-memory index; ok is false when that
// index cannot answer (not built yet, or a search it cannot answer exactly
// as FTS5 does).
func (s *Store) findInMemory(ctx context.Context, conn rowsQueryer, set *searchSet) (ok bool, err error) {
	l := &s.search
	l.mu.Lock()
	defer l.mu.Unlock()
	x := l.idx
	if x == nil {
		s.buildSearchIndexLocked()
		return false, nil
	}
	caught, err := catchUp(ctx, conn, x, l.catchUp)
	switch {
	case err == nil:
	case errors.Is(err, errOddText):
		s.searchIndexOff(err)
		return false, nil
	case ctx.Err() != nil:
		return false, err // the search is not wanted any more
	default:
		// The index cannot follow the replica now: rather than fail every
		// keystroke, FTS5 answers, and the next search builds it again.
		l.idx = nil
		if !l.failing {
			l.failing = true
			s.log.Warn("the in-memory search index could not follow the replica; searching with the full-text index", "err", err)
		}
		return false, nil
	}
	if !caught {
		l.idx = nil
		s.buildSearchIndexLocked()
		return false, nil
	}
	if x.dead > len(x.byID)+10_000 || len(x.ids) > 2*len(x.byID)+10_000 {
		// Text changed under many work orders, or many left: a fresh index
		// drops what is no longer used; this one answers until it is ready.
		s.buildSearchIndexLocked()
	}
	if set.hits, ok = x.hitsOf(set); ok {
		set.hits = x.filter(set.hits, set.q, set.lists, set.now)
		set.mem, set.seq, set.n = x, x.seq, set.hits.n
	}
	return ok, nil
}

// pageInMemory returns the page q of what set found in the in-memory
// index, finding it again if the index moved on since; ok is false when
// the index is gone.
func (s *Store) pageInMemory(set *searchSet, q ListQuery) (page []int64, ok bool) {
	s.search.mu.Lock()
	defer s.search.mu.Unlock()
	x, hits, ok := s.currentHits(set)
	if !ok {
		return nil, false
	}
	return x.page(hits, q.Sort, q.Desc, q.Offset, q.Limit), true
}

// currentHits returns the in-memory index and what set found in it,
// finding it again if the index moved on since; ok is false when the
// index is gone. The caller holds s.search.mu.
func (s *Store) currentHits(set *searchSet) (x *searchIndex, hits searchHits, ok bool) {
	x = s.search.idx
	if x == nil {
		return nil, hits, false
	}
	hits = set.hits
	if x != set.mem || x.seq != set.seq {
		if hits, ok = x.hitsOf(set); !ok {
			return nil, hits, false
		}
		hits = x.filter(hits, set.q, set.lists, set.now)
	}
	return x, hits, true
}

func (s *Store) searchIndexOff(err error) {
	s.search.idx, s.search.off = nil, true
	s.log.Warn("searching with the replica's full-text index only", "why", err)
}

// buildSearchIndexLocked starts building a new index unless one is being
// built; the caller holds s.search.mu.
func (s *Store) buildSearchIndexLocked() {
	l := &s.search
	if l.building != nil || l.off || l.ctx.Err() != nil {
		return
	}
	done := make(chan struct{})
	l.building = done
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer close(done)
		start := s.now()
		x, err := s.buildSearchIndex(l.ctx)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.building = nil
		if err == nil {
			// Whatever was written meanwhile; the lock keeps searches out.
			var caught bool
			if caught, err = catchUp(l.ctx, s.r, x, l.catchUp); err == nil && !caught {
				err = errors.New("fell behind the replica's writes while building")
			}
		}
		switch {
		case errors.Is(err, errOddText):
			s.searchIndexOff(err)
		case err != nil:
			if l.ctx.Err() == nil && !l.failing {
				l.failing = true
				s.log.Warn("could not build the in-memory search index; searching with the full-text index", "err", err)
			}
		default:
			l.idx, l.failing = x, false
			s.log.Info("search index ready", "workOrders", len(x.byID), "took", s.now().Sub(start).Round(time.Millisecond))
		}
	}()
}

// buildSearchIndex reads every work order's searched columns into a new
// index, and catches it up with the writes made while it read, until
// little is left to apply.
func (s *Store) buildSearchIndex(ctx context.Context) (*searchIndex, error) {
	// Its own connection, without the readers' memory map: reading every
	// row through the map left the whole table resident in the window
	// (70 MB at 50,000 work orders) after the index was built.
	db, err := sql.Open("sqlite", dsn(s.path, "_pragma=busy_timeout(10000)", "_pragma=query_only(1)", "_pragma=mmap_size(0)"))
	if err != nil {
		return nil, fmt.Errorf("storage: building the search index: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	x := newSearchIndex(s.search.tok)
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(max(seq), 0) FROM search_changes`).Scan(&x.seq); err != nil {
		return nil, fmt.Errorf("storage: building the search index: %w", err)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM work_orders`).Scan(&n); err != nil {
		return nil, fmt.Errorf("storage: building the search index: %w", err)
	}
	x.reserve(n)
	// Rows written after that are read twice, which does no harm.
	rows, err := db.QueryContext(ctx, `SELECT `+indexRowColumns+` FROM work_orders w ORDER BY w.id`)
	if err != nil {
		return nil, fmt.Errorf("storage: building the search index: %w", err)
	}
	defer rows.Close()
	// Customers, sites, addresses and descriptions repeat: a text met
	// before needs no tokenizing.
	seen := [searchColumnCount]map[string]uint32{}
	for c := range seen {
		seen[c] = map[string]uint32{}
	}
	var r indexRow
	var toks []uint32
	for rows.Next() {
		if err := scanIndexRow(rows, &r); err != nil {
			return nil, fmt.Errorf("storage: building the search index: %w", err)
		}
		var vals [searchColumnCount]uint32
		for c, text := range r.text {
			if v, ok := seen[c][text]; ok && c > 0 {
				x.valRefs[v]++
				vals[c] = v
				continue
			}
			if toks, err = x.tokenize(text, toks[:0]); err != nil {
				return nil, err
			}
			if c == 0 {
				vals[c] = x.numberValue(text, toks)
			} else {
				vals[c] = x.sharedValue(toks)
				seen[c][text] = vals[c]
			}
		}
		x.byID = append(x.byID, x.appendDoc(r.id, vals, x.sortKeysOf(&r, nil)))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: building the search index: %w", err)
	}
	x.sortDictionary()
	x.order(SortNextDeadline) // the list's first order
	for range 3 {
		if caught, err := catchUp(ctx, db, x, s.search.catchUp); err != nil || !caught {
			return x, err
		}
	}
	return x, nil
}

// catchUp applies to x the writes logged since x.seq; caught is false when
// they are more than limit, too many to apply now, or no longer all logged.
func catchUp(ctx context.Context, db rowsQueryer, x *searchIndex, limit int) (caught bool, err error) {
	rows, err := db.QueryContext(ctx, `SELECT seq, id FROM search_changes WHERE seq > ? ORDER BY seq LIMIT ?`, x.seq, limit+1)
	if err != nil {
		return false, fmt.Errorf("storage: reading the search changes: %w", err)
	}
	var ids []int64
	last := x.seq
	for rows.Next() {
		var seq, id int64
		if err := rows.Scan(&seq, &id); err != nil {
			rows.Close()
			return false, fmt.Errorf("storage: reading the search changes: %w", err)
		}
		if seq != last+1 {
			rows.Close()
			return false, nil // trimmed away (searchChangesKept) before this index saw them
		}
		last = seq
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("storage: reading the search changes: %w", err)
	}
	if len(ids) == 0 {
		return true, nil
	}
	if len(ids) > limit {
		return false, nil
	}
	if err := applySearchChanges(ctx, db, x, ids); err != nil {
		return false, err
	}
	x.seq = last
	x.sortDictionary()
	return true, nil
}

// applySearchChanges reads the searched columns of the work orders ids
// into x (forgetting those no longer in the replica).
func applySearchChanges(ctx context.Context, db rowsQueryer, x *searchIndex, ids []int64) error {
	rows, err := db.QueryContext(ctx, `SELECT `+indexRowColumns+` FROM work_orders w WHERE w.id IN (SELECT value FROM json_each(?))`, idsJSON(ids))
	if err != nil {
		return fmt.Errorf("storage: reading the search changes: %w", err)
	}
	defer rows.Close()
	present := make(map[int64]bool, len(ids))
	var r indexRow
	for rows.Next() {
		if err := scanIndexRow(rows, &r); err != nil {
			return fmt.Errorf("storage: reading the search changes: %w", err)
		}
		present[r.id] = true
		if err := x.put(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: reading the search changes: %w", err)
	}
	for _, id := range ids {
		if !present[id] {
			x.remove(id)
		}
	}
	return nil
}

// warmSearchOrder puts col's order in the in-memory index in the
// background when the list is sorted by it, so that the next keystroke
// does not wait for it.
func (s *Store) warmSearchOrder(col Column) {
	l := &s.search
	l.mu.Lock()
	defer l.mu.Unlock()
	x := l.idx
	if x == nil || x.orders[col] != nil || l.ctx.Err() != nil {
		return
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.idx == x {
			x.order(col)
		}
	}()
}
