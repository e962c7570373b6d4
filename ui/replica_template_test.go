package ui

import (
	"database/sql"
	"fmt"
	"reflect"
	"testing"
)

// TestACopiedReplicaIsAFirstSync holds what every harness relies on: the
// template replica it copies (syncedTemplate) is, table by table and row by
// row, what a first sync of its own sandbox writes. Should the sandbox's
// world stop being the same for the same seed and clock, this fails rather
// than the other tests quietly running on another world.
func TestACopiedReplicaIsAFirstSync(t *testing.T) {
	copied := newHarness(t)
	synced := newHarnessWith(t, harnessOptions{firstSync: true})
	a, b := dumpReplica(t, copied.store.Path()), dumpReplica(t, synced.store.Path())
	if len(a) < 10 {
		t.Fatalf("the replica holds only %d tables", len(a))
	}
	for table, rows := range b {
		if !reflect.DeepEqual(a[table], rows) {
			t.Errorf("table %s: the copied replica holds %d rows, a first sync %d, and they differ", table, len(a[table]), len(rows))
		}
	}
	for table := range a {
		if _, ok := b[table]; !ok {
			t.Errorf("table %s is only in the copied replica", table)
		}
	}
}

// dumpReplica reads every row of every table of the replica at path.
func dumpReplica(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	out := map[string][]string{}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `" ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprintf("%q", vals))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return out
}
