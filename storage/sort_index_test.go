package storage

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// indexExists reports whether the replica has the named index now.
func indexExists(t *testing.T, s *Store, name string) bool {
	t.Helper()
	var n int
	if err := s.r.QueryRowContext(context.Background(),
		`SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// queryPlan is how SQLite would read the first page of the unfiltered list
// sorted as q asks.
func queryPlan(t *testing.T, s *Store, q ListQuery) string {
	t.Helper()
	rows, err := s.r.QueryContext(context.Background(), `EXPLAIN QUERY PLAN SELECT w.id FROM work_orders w`+listOrder(q)+` LIMIT 50`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}

func TestSortIndexIsMadeTheFirstTimeItsColumnIsSorted(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	put(t, s,
		woSpec{id: 1, number: "WO-3", customer: "beta Foods", site: "Depot", nte: "1000", currency: "USD", sched: 5 * time.Hour},
		woSpec{id: 2, number: "WO-1", customer: "Acme", site: "clinic", nte: "900", currency: "EUR"},
		woSpec{id: 3, number: "WO-2", customer: "Café Lumière", site: "Annex", nte: "25", currency: "GBP", sched: 2 * time.Hour},
	)
	want := map[Column][]int64{
		SortNumber:         {2, 3, 1},
		SortCustomer:       {2, 1, 3}, // case does not count
		SortSite:           {3, 2, 1},
		SortNte:            {3, 2, 1}, // numeric: 900 before 1000
		SortCurrency:       {2, 3, 1},
		SortScheduledStart: {3, 1, 2}, // none last
	}
	if len(want) != len(onDemandIndex) {
		t.Fatalf("the test covers %d on-demand indexes of %d", len(want), len(onDemandIndex))
	}
	for col, order := range want {
		name := sortIndex[col]
		if indexExists(t, s, name) {
			t.Fatalf("a fresh replica already has %s: a first sync would build it", name)
		}
		q := ListQuery{Sort: col, Limit: 50}
		rows, err := s.List(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(rows); !slices.Equal(got, order) {
			t.Errorf("sorted by %s: %v, want %v", name, got, order)
		}
		if !indexExists(t, s, name) {
			t.Errorf("sorting by its column did not make %s", name)
		}
		// Made as the list's ORDER BY needs it, or it would only cost space.
		if plan := queryPlan(t, s, q); !strings.Contains(plan, name) || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("the list sorted by %s reads %q, not that index", name, plan)
		}
	}
}

func TestSortIndexWaitsForABulkWriteToEnd(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	put(t, s, woSpec{id: 1, customer: "Beta"}, woSpec{id: 2, customer: "alpha"})
	ctx := context.Background()
	if _, err := s.deferFTS(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := s.List(ctx, ListQuery{Sort: SortCustomer, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(rows); !slices.Equal(got, []int64{2, 1}) {
		t.Errorf("sorted by customer during a bulk write: %v, want [2 1]", got)
	}
	if indexExists(t, s, "work_orders_customer") {
		t.Fatal("an index was made in the middle of a bulk write, which keeps sort indexes off")
	}
	// Meanwhile the sync holds the writer, commit after commit: a list
	// sorted by customer must not queue behind it (search as you type would
	// stall at every keystroke).
	writer, err := s.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writer.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	soon, cancel := context.WithTimeout(ctx, 2*time.Second)
	_, err = s.List(soon, ListQuery{Sort: SortCustomer, Search: "alpha", Limit: 10})
	cancel()
	if err != nil {
		t.Errorf("a list sorted by customer during a bulk write waited for the writer: %v", err)
	}
	if _, err := writer.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	writer.Close()
	if err := s.resumeFTS(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx, ListQuery{Sort: SortCustomer, Limit: 10}); err != nil {
		t.Fatal(err)
	}
	if !indexExists(t, s, "work_orders_customer") {
		t.Error("the first list after the bulk write did not make the sort index")
	}
}

// A replica from before migration 0007 had all nine sort indexes; after the
// upgrade it keeps only the schema's three, also when a crash left a bulk
// write unfinished (whose end would otherwise bring all nine back).
func TestUpgradeLeavesOnDemandIndexesToFirstUse(t *testing.T) {
	t.Parallel()
	for _, crashed := range []bool{false, true} {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "replica.db")
		s, _ := openAt(t, path)
		for _, ddl := range onDemandIndex {
			if _, err := s.w.ExecContext(ctx, ddl); err != nil {
				t.Fatal(err)
			}
		}
		if crashed {
			if _, err := s.deferFTS(ctx); err != nil {
				t.Fatal(err)
			}
		}
		rewindSchema(t, s, 6)
		s.Close()

		s2, _ := openAt(t, path)
		for col, name := range sortIndex {
			_, onDemand := onDemandIndex[col]
			if got := indexExists(t, s2, name); got == onDemand {
				t.Errorf("crashed mid-bulk %v: after the upgrade %s exists = %v, want %v", crashed, name, got, !onDemand)
			}
		}
	}
}
