package storage

import (
	"context"
	"fmt"
)

// ListedAmong returns those of ids that List shows for q's search and
// filters (its sort and page aside), ascending: of the work orders a person
// ticked, those the list still shows them.
func (s *Store) ListedAmong(ctx context.Context, q ListQuery, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	_, where, args := listFilter(q)
	// ?1 first, as in CountList, so the bare ?s number on from 2.
	query := "SELECT w.id FROM work_orders w WHERE ?1 IS NOT NULL AND w.id IN (SELECT value FROM json_each(?))"
	for _, w := range where {
		query += " AND " + w
	}
	query += " ORDER BY w.id"
	args = append([]any{s.now().Add(AttentionWindow).UnixMilli(), idsJSON(ids)}, args...)
	rows, err := s.r.QueryContext(ctx, query, args...)
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
