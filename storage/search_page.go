package storage

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Search as you type reads, per keystroke, the length of the list and its
// first page. Both need the set of work orders the search finds; for a
// broad prefix ("s", "main") that set is most of the table, and evaluating
// the full-text match twice (once to count, once more as an IN set SQLite
// builds into a temporary b-tree to test the rows of the sort index
// against) was most of the cost. So the set is found once, by the
// in-memory index (search_index.go) or else FTS5, kept for the next call,
// and both the count and the pages are computed from it.

// searchSet is what one search found: the in-memory index's hits, or the
// ids FTS5 found, ascending.
type searchSet struct {
	// conn is the reader connection the set was read on and version its
	// PRAGMA data_version then: the pair changes whenever any connection,
	// in this process or another, commits a change to the database. The
	// cache holds conn, so no other connection can take its address.
	conn    any
	version int64
	search  string
	match   string
	numbers []string
	// The list's filters the set was narrowed by (ListQuery.filtered), as
	// filterKey writes them, and what the attention rule was judged with.
	filter string
	q      ListQuery
	lists  attentionLists
	now    time.Time

	n    int
	ids  []int64      // FTS5's answer
	mem  *searchIndex // or the index's, as it was at seq
	seq  int64
	hits searchHits
}

// searchSetCache is how many searches are remembered: the count and the
// pages of the current one, and a step back (a Backspace).
const searchSetCache = 4

// searchQuery reports whether the list's search is answered by a search
// set, and returns the search as splitSearch does. Its statuses and
// attention filters, if any, narrow the set the search finds (findSearch),
// as fast as the search alone; a filter by technician, which the in-memory
// index does not hold, is left to the whole list's query.
func searchQuery(q ListQuery) (match string, numbers []string, ok bool) {
	if q.Assignee != 0 {
		return "", nil, false
	}
	match, numbers = splitSearch(q.Search)
	return match, numbers, match != "" || len(numbers) > 0
}

// filterKey tells the sets of one search under different filters apart:
// the statuses, the attention filter (judged to the minute) and the work
// order kept in view.
func filterKey(q ListQuery, now time.Time) string {
	if !q.filtered() {
		return ""
	}
	var b strings.Builder
	for _, st := range q.Statuses {
		b.WriteString(string(st) + ",")
	}
	if q.NeedsAttention {
		b.WriteString("attention@" + strconv.FormatInt(now.Unix()/60, 10))
	}
	b.WriteString("|keep:" + idsJSON(q.Keep))
	b.WriteString("|held:" + idsJSON(q.Held))
	return b.String()
}

// findSearch returns what the search of q finds, under q's filters: those
// work orders the full-text match finds that, for each number term, match
// it or hold it in their number (listFilter's condition), and that its
// statuses and attention filters keep. The set is shared: read only.
func (s *Store) findSearch(ctx context.Context, q ListQuery, match string, numbers []string) (*searchSet, error) {
	search := q.Search
	now := s.ruleNow()
	filter := filterKey(q, now)
	conn, err := s.r.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	defer conn.Close()
	var dc any
	if err := conn.Raw(func(c any) error { dc = c; return nil }); err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	var version int64
	if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&version); err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	s.searchMu.Lock()
	for _, e := range s.searchSets {
		if e.conn == dc && e.version == version && e.match == match && slices.Equal(e.numbers, numbers) && e.filter == filter {
			s.searchMu.Unlock()
			return e, nil
		}
	}
	s.searchMu.Unlock()

	set := &searchSet{conn: dc, version: version, search: search, match: match, numbers: numbers, filter: filter, q: q, now: now}
	if q.NeedsAttention {
		if set.lists, err = readAttentionLists(ctx, conn); err != nil {
			return nil, fmt.Errorf("storage: searching: %w", err)
		}
	}
	ok, err := s.findInMemory(ctx, conn, set)
	if err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	if !ok {
		if match == "" && len(numbers) == 0 {
			return nil, nil // filters alone: without the index, SQL lists them
		}
		if set.ids, err = s.findWithFTS(ctx, conn, match, numbers); err != nil {
			return nil, err
		}
		if set.ids, err = s.filterIDs(ctx, conn, q, set.ids); err != nil {
			return nil, err
		}
		set.n = len(set.ids)
	}
	s.searchMu.Lock()
	s.searchSets = append(s.searchSets, set)
	if len(s.searchSets) > searchSetCache {
		s.searchSets = slices.Delete(s.searchSets, 0, len(s.searchSets)-searchSetCache)
	}
	s.searchMu.Unlock()
	return set, nil
}

// searchPageIDs returns the ids of one page (q.Offset, q.Limit > 0) of
// what set found, in list order.
func (s *Store) searchPageIDs(ctx context.Context, q ListQuery, set *searchSet) ([]int64, error) {
	if set.mem != nil {
		if page, ok := s.pageInMemory(set, q); ok {
			return page, nil
		}
		// The index was dropped since (too far behind): FTS5 answers.
		ids, err := s.findWithFTS(ctx, s.r, set.match, set.numbers)
		if err != nil {
			return nil, err
		}
		if ids, err = s.filterIDs(ctx, s.r, set.q, ids); err != nil {
			return nil, err
		}
		set = &searchSet{ids: ids, n: len(ids)}
	}
	return s.searchPage(ctx, q, set.ids)
}

// findWithFTS is findSearch's answer from the replica's FTS5 index.
func (s *Store) findWithFTS(ctx context.Context, conn queryRower, match string, numbers []string) ([]int64, error) {
	if err := s.waitFTS(ctx); err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	var ids []int64
	var err error
	if match != "" {
		// One aggregate row costs far less than a row per id through
		// database/sql.
		if ids, err = readIDList(ctx, conn, `SELECT group_concat(rowid) FROM work_orders_fts WHERE work_orders_fts MATCH ?`, match); err != nil {
			return nil, err
		}
	}
	for i, n := range numbers {
		found, err := readIDList(ctx, conn, `SELECT group_concat(rowid) FROM work_orders_fts WHERE work_orders_fts MATCH ?`, FTSQuery(n))
		if err != nil {
			return nil, err
		}
		like, err := readIDList(ctx, conn, `SELECT group_concat(id) FROM work_orders WHERE number LIKE ? ESCAPE '\'`, likeFragment(n))
		if err != nil {
			return nil, err
		}
		found = append(found, like...)
		slices.Sort(found)
		found = slices.Compact(found)
		if i == 0 && match == "" {
			ids = found
		} else {
			ids = intersectSorted(ids, found)
		}
	}
	return ids, nil
}

// intersectSorted is the ids in both ascending lists, ascending.
func intersectSorted(a, b []int64) []int64 {
	var out []int64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// readIDList runs a query answering one comma-separated list of ids (or
// NULL for none) and returns them sorted.
func readIDList(ctx context.Context, conn queryRower, query string, args ...any) ([]int64, error) {
	var list sql.NullString
	if err := conn.QueryRowContext(ctx, query, args...).Scan(&list); err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	if !list.Valid || list.String == "" {
		return nil, nil
	}
	ids, err := parseIDList(list.String)
	if err != nil {
		return nil, fmt.Errorf("storage: searching: %w", err)
	}
	if !slices.IsSorted(ids) {
		slices.Sort(ids)
	}
	return ids, nil
}

// parseIDList reads "12,7,300": a hand-written loop, as strconv.ParseInt
// per id took a fifth of reading 100,000 of them.
func parseIDList(list string) ([]int64, error) {
	ids := make([]int64, 0, strings.Count(list, ",")+1)
	var id int64
	start, digits, neg := 0, 0, false
	for i := 0; i <= len(list); i++ {
		if i == len(list) || list[i] == ',' {
			switch {
			case digits == 0:
				return nil, fmt.Errorf("reading an id list at byte %d: not an id", i)
			case digits > 18: // might not fit: let strconv check
				var err error
				if id, err = strconv.ParseInt(list[start:i], 10, 64); err != nil {
					return nil, fmt.Errorf("reading an id list: %w", err)
				}
			case neg:
				id = -id
			}
			ids = append(ids, id)
			id, start, digits, neg = 0, i+1, 0, false
			continue
		}
		c := list[i]
		if c == '-' && digits == 0 && !neg {
			neg = true
			continue
		}
		if c < '0' || c > '9' {
			return nil, fmt.Errorf("reading an id list at byte %d: %q is not a digit", i, c)
		}
		id = id*10 + int64(c-'0')
		digits++
	}
	return ids, nil
}

// idsJSON is ids as a JSON array, for json_each.
func idsJSON(ids []int64) string {
	b := make([]byte, 0, len(ids)*8+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

// queryRower is a *sql.DB or a *sql.Conn.
type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// searchPage returns the ids of one page (q.Offset, q.Limit > 0) of the
// sorted list of ids, in list order.
func (s *Store) searchPage(ctx context.Context, q ListQuery, ids []int64) ([]int64, error) {
	need := q.Offset + q.Limit
	if len(ids) <= q.Offset {
		return nil, nil
	}
	order := listOrder(q)
	dated := q.Sort == SortNextDeadline || q.Sort == SortScheduledStart
	if !(dated && q.Desc) {
		// Walk the sort index and keep the rows in the set: about
		// need × table/len(ids) rows for a page, cheap when the set is a
		// good part of the table. Past 3 × len(ids) rows, sorting the set
		// costs less (a narrow search whose rows sort late), so give up.
		page, ok, err := s.walkSortIndex(ctx, q, order, ids, need, 3*len(ids)+need)
		if err != nil || ok {
			return page, err
		}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT w.id FROM work_orders w NOT INDEXED
 WHERE w.id IN (SELECT value FROM json_each(?))`+order+` LIMIT ? OFFSET ?`, idsJSON(ids), q.Limit, q.Offset)
	if err != nil {
		return nil, fmt.Errorf("storage: listing work orders: %w", err)
	}
	page, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("storage: listing work orders: %w", err)
	}
	return page, nil
}

// walkSortIndex reads rows in list order from the sort index and keeps those
// in ids until it has need of them (ok) or has read budget rows.
func (s *Store) walkSortIndex(ctx context.Context, q ListQuery, order string, ids []int64, need, budget int) (page []int64, ok bool, err error) {
	rows, err := s.r.QueryContext(ctx, `SELECT w.id FROM work_orders w INDEXED BY `+sortIndex[q.Sort]+order)
	if err != nil {
		if strings.Contains(err.Error(), "no such index") {
			return nil, false, nil // a bulk sync has the sort indexes off (deferFTS)
		}
		return nil, false, fmt.Errorf("storage: listing work orders: %w", err)
	}
	defer rows.Close()
	found, read := 0, 0
	for rows.Next() {
		if read++; read > budget {
			return nil, false, nil
		}
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, false, fmt.Errorf("storage: listing work orders: %w", err)
		}
		if _, in := slices.BinarySearch(ids, id); !in {
			continue
		}
		if found >= q.Offset {
			page = append(page, id)
		}
		if found++; found == need || found == len(ids) {
			return page, true, nil
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("storage: listing work orders: %w", err)
	}
	return page, true, nil // the whole index read: a short last page
}

// scanIDs reads a query's single column of ids and closes the rows.
func scanIDs(rows *sql.Rows) ([]int64, error) {
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
