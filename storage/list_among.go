package storage

import (
	"context"
	"fmt"
	"slices"
)

// ListedAmong returns those of ids that List shows for q's search and
// filters (its sort and page aside), ascending: of the work orders a person
// ticked, those the list still shows them. A search, filtered or not, is
// judged by the set the list's count and pages come from (findSearch), so
// the two never disagree.
func (s *Store) ListedAmong(ctx context.Context, q ListQuery, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if m, digits, ok := searchQuery(q); ok {
		set, err := s.findSearch(ctx, q, m, digits)
		if err != nil {
			return nil, fmt.Errorf("storage: reading which ticked work orders are listed: %w", err)
		}
		return s.foundAmong(ctx, set, ids)
	}
	if err := s.waitFTSFor(ctx, q); err != nil {
		return nil, err
	}
	query, args := s.filteredQuery(q, "w.id", "w.id IN (SELECT value FROM json_each(?))", idsJSON(ids))
	rows, err := s.r.QueryContext(ctx, query+" ORDER BY w.id", args...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading which ticked work orders are listed: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: reading which ticked work orders are listed: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// foundAmong returns those of ids that set found, ascending.
func (s *Store) foundAmong(ctx context.Context, set *searchSet, ids []int64) ([]int64, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	if set.mem != nil {
		if out, ok := s.foundInMemory(set, ids); ok {
			return out, nil
		}
		// The index was dropped since (too far behind): FTS5 answers.
		found, err := s.findWithFTS(ctx, s.r, set.match, set.numbers)
		if err != nil {
			return nil, err
		}
		if found, err = s.filterIDs(ctx, s.r, set.q, found); err != nil {
			return nil, err
		}
		set = &searchSet{ids: found}
	}
	var out []int64
	for _, id := range ids {
		if _, ok := slices.BinarySearch(set.ids, id); ok {
			out = append(out, id)
		}
	}
	return out, nil
}

// foundInMemory returns those of ids (ascending) that set found in the
// in-memory index, finding it again if the index moved on since; ok is
// false when the index is gone.
func (s *Store) foundInMemory(set *searchSet, ids []int64) (out []int64, ok bool) {
	s.search.mu.Lock()
	defer s.search.mu.Unlock()
	x, hits, ok := s.currentHits(set)
	if !ok {
		return nil, false
	}
	for _, id := range ids {
		// Ordinals added since the search have no bit in its hits.
		if at, found := x.at(id); found && int(x.byID[at]) < len(hits.docs)*64 && hits.docs.has(x.byID[at]) {
			out = append(out, id)
		}
	}
	return out, true
}
