package storage

import (
	"context"
	"testing"
)

// rewindSchema makes a replica written by this version look like one
// written before migration version+1, so that a test can open it as an
// upgrade: the schema version goes back, and what the migrations since then
// added that cannot be added twice (a column) goes too.
func rewindSchema(t testing.TB, s *Store, version int) {
	t.Helper()
	ctx := context.Background()
	var undo []string
	if version < 10 {
		undo = append(undo,
			`DROP INDEX IF EXISTS work_orders_deadline`,
			`ALTER TABLE work_orders DROP COLUMN deadline`,
			`ALTER TABLE work_orders DROP COLUMN invoice_deadline`,
			`CREATE INDEX work_orders_deadline ON work_orders(next_deadline IS NULL, next_deadline)`,
			// A bulk write left unfinished saved the new index's definition.
			`UPDATE bulk_deferred_schema SET sql = 'CREATE INDEX work_orders_deadline ON work_orders(next_deadline IS NULL, next_deadline)' WHERE name = 'work_orders_deadline'`)
	}
	undo = append(undo, `UPDATE schema_version SET version = ?`)
	for _, q := range undo {
		var args []any
		if q == undo[len(undo)-1] {
			args = []any{version}
		}
		if _, err := s.w.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("rewinding the schema to version %d: %s: %v", version, q, err)
		}
	}
}
