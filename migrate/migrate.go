// Package migrate reads a schema's migrations: the files named
// NNNN_what.sql in an embedded migrations folder, in version order. The
// desktop's replica (SQLite) and the office hub's database (PostgreSQL)
// each apply their own with it.
package migrate

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Migration is one schema change, from a file named NNNN_what.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Read lists the files named NNNN_what.sql in fsys's migrations
// folder, in version order (the replica's and the hub's schemas both).
func Read(fsys fs.FS) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, "migrations")
	if err != nil {
		return nil, fmt.Errorf("reading embedded migrations: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration file %s is not named NNNN_name.sql", e.Name())
		}
		b, err := fs.ReadFile(fsys, "migrations/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	return ms, nil
}
