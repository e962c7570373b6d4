package storage

import (
	"context"
	"fmt"
	"strings"
)

// eachPage is how many rows EachRow reads of a search at a time: pages
// from the set the search found, as the table reads them.
const eachPage = 2000

// EachRow calls fn with every row List would return for q without Limit
// and Offset, in the list's order, and stops at fn's first error, which it
// returns. It holds one row at a time (an export of 100,000 rows does not
// hold them all), reading a search the way the table does (pages of the
// set it found) so that what is exported is what the list shows.
func (s *Store) EachRow(ctx context.Context, q ListQuery, fn func(Row) error) error {
	q.Limit, q.Offset = 0, 0
	if _, _, ok := searchQuery(q); ok {
		for off := 0; ; off += eachPage {
			q.Limit, q.Offset = eachPage, off
			rows, err := s.List(ctx, q)
			if err != nil {
				return err
			}
			for _, r := range rows {
				if err := fn(r); err != nil {
					return err
				}
			}
			if len(rows) < eachPage {
				return nil
			}
		}
	}
	if err := s.waitFTSFor(ctx, q); err != nil {
		return err
	}
	_, where, args := listFilter(q)
	args = append([]any{s.now().Add(AttentionWindow).UnixMilli()}, args...)
	if err := s.prepareSort(ctx, q.Sort); err != nil {
		return err
	}
	var b strings.Builder
	// ?1 first, as in List: the attention filter uses it.
	b.WriteString(listColumns + ` FROM work_orders w WHERE ?1 IS NOT NULL`)
	for _, w := range where {
		b.WriteString(" AND " + w)
	}
	b.WriteString(listOrder(q))
	rows, err := s.r.QueryContext(ctx, b.String(), args...)
	if err != nil {
		return fmt.Errorf("storage: listing work orders: %w", err)
	}
	return eachListRow(rows, s.ruleNow(), fn)
}
