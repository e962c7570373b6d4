package storage

import (
	"context"
	"fmt"
	"strings"
)

// listFilter is the WHERE of a list query: the FTS match expression ("" when
// not searching), the conditions and their arguments. The attention
// condition uses ?1 (now + AttentionWindow), which callers bind first.
func listFilter(q ListQuery) (match string, where []string, args []any) {
	match, numbers := splitSearch(q.Search)
	if match != "" {
		where = append(where, "w.id IN (SELECT rowid FROM work_orders_fts WHERE work_orders_fts MATCH ?)")
		args = append(args, match)
	}
	for _, n := range numbers {
		// People type the digits they read off a sheet ("73227" of
		// "KFU73227"), which full-text prefixes cannot find inside a token.
		where = append(where, "(w.id IN (SELECT rowid FROM work_orders_fts WHERE work_orders_fts MATCH ?) OR w.number LIKE ? ESCAPE '\\')")
		args = append(args, FTSQuery(n), likeFragment(n))
	}
	if len(numbers) > 0 {
		match = "" // not a pure full-text query: no FTS-only count or index plan
	}
	var filters []string
	if len(q.Statuses) > 0 {
		ph := strings.Repeat("?,", len(q.Statuses))
		filters = append(filters, "w.status IN ("+ph[:len(ph)-1]+")")
		for _, st := range q.Statuses {
			args = append(args, string(st))
		}
	}
	if q.NeedsAttention {
		filters = append(filters, "w.id IN ("+attentionIdsSQL+")")
	}
	if len(filters) > 0 {
		cond := strings.Join(filters, " AND ")
		if len(q.Keep) > 0 {
			cond = "(" + cond + " OR w.id IN (SELECT value FROM json_each(?)))"
			args = append(args, idsJSON(q.Keep))
		}
		where = append(where, cond)
	}
	if len(q.Held) > 0 {
		where = append(where, "w.id NOT IN (SELECT value FROM json_each(?))")
		args = append(args, idsJSON(q.Held))
	}
	if q.Assignee != 0 {
		where, args = append(where, assigneeWhere), append(args, max(q.Assignee, 0))
	}
	return match, where, args
}

// filterIDs returns those of ids (ascending) that q's statuses and
// attention filters keep, ascending: FTS5's answer to a filtered search.
func (s *Store) filterIDs(ctx context.Context, conn queryRower, q ListQuery, ids []int64) ([]int64, error) {
	if !q.filtered() || len(ids) == 0 {
		return ids, nil
	}
	q.Search = ""
	query, args := s.filteredQuery(q, "group_concat(w.id)", "w.id IN (SELECT value FROM json_each(?))", idsJSON(ids))
	return readIDList(ctx, conn, query, args...)
}

// filteredQuery is SELECT what of the work orders q's filters keep (its
// search, statuses and attention; not its sort or page) and that meet cond
// too ("" = no more), with the arguments, cond's first. ?1 (now +
// AttentionWindow, which the attention condition uses) comes first in the
// text so the bare ?s that follow number from 2, as in List; "?1 IS NOT
// NULL" is constant and costs nothing.
func (s *Store) filteredQuery(q ListQuery, what, cond string, condArgs ...any) (string, []any) {
	_, where, args := listFilter(q)
	if cond != "" {
		where = append([]string{cond}, where...)
	}
	query := "SELECT " + what + " FROM work_orders w WHERE ?1 IS NOT NULL"
	for _, w := range where {
		query += " AND " + w
	}
	all := append([]any{s.now().Add(AttentionWindow).UnixMilli()}, condArgs...)
	return query, append(all, args...)
}

// CountList is how many rows List would return for q without Limit: the
// table asks for its length first and then only for the pages it shows.
func (s *Store) CountList(ctx context.Context, q ListQuery) (int, error) {
	if m, digits, ok := searchQuery(q); ok {
		// The set List's pages are then read from (see findSearch).
		set, err := s.findSearch(ctx, q, m, digits)
		if err != nil {
			return 0, fmt.Errorf("storage: counting the work order list: %w", err)
		}
		return set.n, nil
	}
	if err := s.waitFTSFor(ctx, q); err != nil {
		return 0, err
	}
	query, args := s.filteredQuery(q, "COUNT(*)", "")
	var n int
	if err := s.r.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: counting the work order list: %w", err)
	}
	return n, nil
}

// ListAndCount returns the page q (Limit > 0) and how many rows the whole
// list has, as CountList and List would, from one search: what the window
// reads per keystroke.
func (s *Store) ListAndCount(ctx context.Context, q ListQuery) ([]Row, int, error) {
	if m, digits, ok := searchQuery(q); ok && q.Limit > 0 {
		if err := s.prepareSort(ctx, q.Sort); err != nil {
			return nil, 0, err
		}
		rows, n, err := s.searchRows(ctx, q, m, digits)
		if err != nil {
			return nil, 0, fmt.Errorf("storage: listing work orders: %w", err)
		}
		return rows, n, nil
	}
	if q.filtered() && q.Assignee == 0 && q.Limit > 0 {
		rows, n, ok, err := s.filteredRows(ctx, q)
		if err != nil {
			return nil, 0, fmt.Errorf("storage: listing work orders: %w", err)
		}
		if ok {
			return rows, n, nil
		}
	}
	n, err := s.CountList(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.List(ctx, q)
	return rows, n, err
}

// likeFragment is a LIKE pattern finding term anywhere, its wildcards literal.
func likeFragment(term string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(term) + "%"
}

// filteredRows answers a list under its status or attention filter with no
// search from the in-memory index, as a search is answered; ok is false
// while there is no index (SQL answers then).
func (s *Store) filteredRows(ctx context.Context, q ListQuery) (rows []Row, n int, ok bool, err error) {
	if err := s.prepareSort(ctx, q.Sort); err != nil {
		return nil, 0, false, err
	}
	set, err := s.findSearch(ctx, q, "", nil)
	if err != nil || set == nil {
		return nil, 0, false, err
	}
	page, ok := s.pageInMemory(set, q)
	if !ok {
		return nil, 0, false, nil
	}
	rows, err = s.rowsByID(ctx, page)
	return rows, set.n, err == nil, err
}
