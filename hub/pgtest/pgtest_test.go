package pgtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
)

var cluster *Cluster

func TestMain(m *testing.M) { os.Exit(Main(m, &cluster)) }

// Each test gets its own database: a table made in one is not in the other.
func TestDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a, err := pgx.Connect(ctx, Require(t, cluster))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(ctx)
	b, err := pgx.Connect(ctx, cluster.NewDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	if _, err := a.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("a table made in one test's database shows in another's")
	}
}

// A database made from a template holds what the template was set up
// with, and what one test does to its copy stays out of the next copy.
func TestDatabasesFromATemplate(t *testing.T) {
	Require(t, cluster)
	ctx := context.Background()
	exec := func(url, sql string) {
		t.Helper()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	tables := func(url string) (n int) {
		t.Helper()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := cluster.Template("tmpl_test", func(url string) error {
		exec(url, "CREATE TABLE from_template (x int)")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	first := cluster.NewDBFrom(t, "tmpl_test")
	if n := tables(first); n != 1 {
		t.Fatalf("a copy of the template has %d tables, want its one", n)
	}
	exec(first, "CREATE TABLE only_in_first (x int)")
	if n := tables(cluster.NewDBFrom(t, "tmpl_test")); n != 1 {
		t.Fatalf("the next copy has %d tables, want the template's one", n)
	}
}

// The folder of a cluster whose test binary was killed is removed by the
// next one to start; a folder whose binary still runs is left alone.
func TestAbandonedClustersAreRemoved(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("whether a process runs is asked of Linux only")
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	parent := t.TempDir()
	for dir, pid := range map[string]int{"pgtest-live": os.Getpid(), "pgtest-dead": gone.Process.Pid} {
		if err := os.MkdirAll(filepath.Join(parent, dir, "data"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(parent, dir, ownerFile), []byte(strconv.Itoa(pid)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeAbandoned(parent)
	if _, err := os.Stat(filepath.Join(parent, "pgtest-dead")); !os.IsNotExist(err) {
		t.Errorf("the folder of a dead test binary is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(parent, "pgtest-live", "data")); err != nil {
		t.Errorf("the folder of a running test binary was removed: %v", err)
	}
}
