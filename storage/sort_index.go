package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// onDemandIndex defines the sort indexes made the first time a list is
// sorted by their column (migration 0007 says why). The others come with
// the schema.
var onDemandIndex = map[Column]string{
	SortNumber:         `CREATE INDEX IF NOT EXISTS work_orders_number ON work_orders(number)`,
	SortCustomer:       `CREATE INDEX IF NOT EXISTS work_orders_customer ON work_orders(customer_name COLLATE NOCASE)`,
	SortSite:           `CREATE INDEX IF NOT EXISTS work_orders_site ON work_orders(site COLLATE NOCASE)`,
	SortNte:            `CREATE INDEX IF NOT EXISTS work_orders_nte ON work_orders(CAST(nte_amount AS REAL))`,
	SortCurrency:       `CREATE INDEX IF NOT EXISTS work_orders_currency ON work_orders(currency)`,
	SortScheduledStart: `CREATE INDEX IF NOT EXISTS work_orders_scheduled ON work_orders(scheduled_start IS NULL, scheduled_start)`,
}

// ensureSortIndex makes the sort index of col if it is made on demand and
// missing. A bulk write in progress keeps it missing (deferFTS has the
// sort indexes off until it ends): the list then sorts without it, and the
// next list after the write makes it. Whether it is needed is read from a
// reader, so that a list never waits on a sync's writes for nothing. A
// failure only costs speed, so it is logged, not returned.
func (s *Store) ensureSortIndex(ctx context.Context, col Column) {
	ddl, ok := onDemandIndex[col]
	if !ok {
		return
	}
	if _, made := s.sortIndexes.Load(col); made {
		return
	}
	var bulk, exists bool
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM fts_deferred),
 EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?)`, sortIndex[col]).Scan(&bulk, &exists)
	if err == nil && !exists && !bulk {
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			// A bulk write may have begun since.
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM fts_deferred)`).Scan(&bulk); err != nil || bulk {
				return err
			}
			start := s.now()
			if _, err := tx.ExecContext(ctx, ddl); err != nil {
				return err
			}
			exists = true
			s.log.Info("sort index made on first use", "index", sortIndex[col], "took", s.now().Sub(start))
			return nil
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return // the list is not wanted any more; the next one tries again
		}
		s.log.Warn("could not make a sort index; sorting without it", "index", sortIndex[col], "err", err)
		return
	}
	if exists {
		s.sortIndexes.Store(col, true)
	}
}

// prepareSort checks that the list can be sorted by col and readies that
// order: the sort index made on first use, and the in-memory index's order
// put in the background for the next keystroke.
func (s *Store) prepareSort(ctx context.Context, col Column) error {
	if _, ok := sortExpr[col]; !ok {
		return fmt.Errorf("storage: unknown sort column %d", col)
	}
	s.ensureSortIndex(ctx, col)
	s.warmSearchOrder(col)
	return nil
}
