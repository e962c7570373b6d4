// Package pgtest starts a throwaway PostgreSQL cluster from the system's
// postgresql package for tests: initdb into a temporary folder (in memory
// when /dev/shm has room, see DirEnv), the server on a free loopback port
// with its unix socket in that folder, and a fresh database per test
// (copied from a template made once, see Template). PostgreSQL refuses to
// run as root, so when the tests run as root (CI) the cluster runs as the
// `postgres` user the package creates.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is one running PostgreSQL server.
type Cluster struct {
	Port int
	bin  string
	dir  string
	as   *owner // the unprivileged user the server runs as; nil = ourselves
	srv  *exec.Cmd
	done chan error
	seq  atomic.Int64
}

// binDir finds the newest installed server: PGTEST_BIN, else Debian's
// /usr/lib/postgresql/N/bin, else the PATH.
func binDir() (string, error) {
	if d := os.Getenv("PGTEST_BIN"); d != "" {
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no PostgreSQL server found (install the postgresql package, or set PGTEST_BIN)")
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// Start initialises and starts a cluster. Stop it with Stop.
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, done: make(chan error, 1)}
	parent := os.Getenv(DirEnv)
	if parent == "" {
		parent = memoryDir()
	}
	if os.Geteuid() == 0 {
		if c.as, err = postgresUser(); err != nil {
			return nil, err
		}
		// The test's own TMPDIR may sit under /root, which postgres cannot enter.
		if parent == "" {
			parent = "/tmp"
		}
	}
	removeAbandoned(parent)
	if c.dir, err = os.MkdirTemp(parent, "pgtest-"); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		c.cleanup()
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if c.as != nil {
		if err := os.Chown(c.dir, c.as.uid, c.as.gid); err != nil {
			c.cleanup()
			return nil, fmt.Errorf("pgtest: %w", err)
		}
	}
	data := filepath.Join(c.dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = runAs(c.as)
	if out, err := initdb.CombinedOutput(); err != nil {
		c.cleanup()
		return nil, fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	// A free port can be taken by someone else before the server binds it:
	// try a few.
	for attempt := 0; ; attempt++ {
		if err = c.start(bin, data); err == nil {
			return c, nil
		}
		if attempt == 4 {
			c.cleanup()
			return nil, err
		}
	}
}

// DirEnv names the folder clusters are made in; unset, /dev/shm when it
// is a roomy tmpfs (see memoryDir), else the temporary folder.
const DirEnv = "PGTEST_DIR"

// ownerFile, in a cluster's folder, holds the pid of the test binary that
// made it.
const ownerFile = "owner.pid"

// removeAbandoned removes the cluster folders in parent left by test
// binaries that were killed before they could (their server died with
// them): in memory, they would hold it until the machine restarts.
func removeAbandoned(parent string) {
	if parent == "" {
		parent = os.TempDir()
	}
	dirs, _ := filepath.Glob(filepath.Join(parent, "pgtest-*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue // being made, or not ours to judge
		}
		if pid, err := strconv.Atoi(string(b)); err == nil && !alive(pid) {
			os.RemoveAll(d)
		}
	}
}

// owner is a user to run the server as.
type owner struct{ uid, gid int }

func postgresUser() (*owner, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root needs the postgres user of the postgresql package: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &owner{uid, gid}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// start runs postgres in the foreground as a child that dies with the test
// binary (Pdeathsig), so a test killed by a timeout leaves no server behind.
func (c *Cluster) start(bin, data string) error {
	port, err := freePort()
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return c.startOn(bin, data, port)
}

// startOn runs postgres on port (see start).
func (c *Cluster) startOn(bin, data string, port int) error {
	logf, err := os.OpenFile(filepath.Join(c.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer logf.Close()
	c.Port = port
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", c.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=300", "-c", "shared_buffers=32MB",
		// Each database made copies a template through the WAL: recycle it
		// soon, so a cluster in memory stays small.
		"-c", "max_wal_size=128MB",
		// A container's small /dev/shm must not fail a query: no POSIX shared memory, no parallel workers.
		"-c", "dynamic_shared_memory_type=mmap", "-c", "max_parallel_workers_per_gather=0")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = serverAttr(c.as)
	started := make(chan error, 1)
	done := make(chan error, 1)
	// Pdeathsig fires when the forking thread exits, not the process: the
	// thread stays locked to this goroutine until the server is gone.
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		done <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			conn.Close(ctx)
			c.srv, c.done = cmd, done
			return nil
		}
		select {
		case werr := <-done:
			log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
			return fmt.Errorf("pgtest: postgres exited (%v): %s", werr, log)
		case <-ctx.Done():
			cmd.Process.Signal(syscall.SIGQUIT)
			<-done
			return fmt.Errorf("pgtest: postgres did not accept connections: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// URL is a connection URL for database name over TCP on loopback.
func (c *Cluster) URL(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.Port, name)
}

// Halt stops the server as an administrator would (a fast shutdown: every
// session ends, open transactions are rolled back) and keeps its data, for
// Resume: the database gone away, as a test of what depends on it needs.
func (c *Cluster) Halt() {
	if c.srv != nil {
		c.srv.Process.Signal(syscall.SIGINT)
		<-c.done
		c.srv = nil
	}
}

// Resume starts a halted server again, on the same port with its data.
func (c *Cluster) Resume() error {
	return c.startOn(c.bin, filepath.Join(c.dir, "data"), c.Port)
}

// Stop shuts the server down at once and removes its folder.
func (c *Cluster) Stop() {
	if c.srv != nil {
		c.srv.Process.Signal(syscall.SIGQUIT)
		<-c.done
		c.srv = nil
	}
	c.cleanup()
}

func (c *Cluster) cleanup() {
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// Dump is pg_dump's plain-text dump of the database at url: everything it
// holds, for tests that search it for what must never be stored.
func (c *Cluster) Dump(t testing.TB, url string) []byte {
	t.Helper()
	out, err := exec.Command(filepath.Join(c.bin, "pg_dump"), "--dbname", url).Output()
	if err != nil {
		t.Fatalf("pgtest: pg_dump: %v", err)
	}
	return out
}

// Restore loads dump (Dump's) into a new database for one test, as an
// office restores a backup, and returns its URL.
func (c *Cluster) Restore(t testing.TB, dump []byte) string {
	t.Helper()
	url := c.NewDB(t)
	cmd := exec.Command(filepath.Join(c.bin, "psql"), "--quiet", "--no-psqlrc", "--set", "ON_ERROR_STOP=1", "--dbname", url)
	cmd.Stdin = bytes.NewReader(dump)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pgtest: restoring a dump: %v\n%s", err, out)
	}
	return url
}

// NewDB creates an empty database for one test and returns its URL; it is
// dropped when the test ends.
func (c *Cluster) NewDB(t testing.TB) string {
	t.Helper()
	return c.NewDBFrom(t, "")
}

// NewDBFrom creates a database for one test as a copy of template (made
// with Template; "" = an empty database) and returns its URL; it is dropped
// when the test ends. Each test has a database of its own, so tests on one
// cluster can run in parallel.
func (c *Cluster) NewDBFrom(t testing.TB, template string) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%s", c.seq.Add(1), sanitize(t.Name()))
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer admin.Close(ctx)
	create := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		create += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	if _, err := admin.Exec(ctx, create); err != nil {
		t.Fatalf("pgtest: creating database: %v", err)
	}
	t.Cleanup(func() {
		admin, err := pgx.Connect(ctx, c.URL("postgres"))
		if err != nil {
			return
		}
		defer admin.Close(ctx)
		admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	return c.URL(name)
}

// Template makes a database called name with setup (given its URL), for
// NewDBFrom to copy: a schema migrated once for all of a package's tests,
// rather than in each test. Nobody may connect to it afterwards, since
// PostgreSQL copies a database only while nobody is connected to it.
func (c *Cluster) Template(name string, setup func(url string) error) error {
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer admin.Close(ctx)
	id := pgx.Identifier{name}.Sanitize()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+id); err != nil {
		return fmt.Errorf("pgtest: creating the template database: %w", err)
	}
	if err := setup(c.URL(name)); err != nil {
		return fmt.Errorf("pgtest: setting up the template database: %w", err)
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+id+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return nil
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if len(out) > 40 {
		out = out[:40]
	}
	return out
}

// RequiredEnv, set to anything (`make test` sets it), makes a cluster that
// cannot start fail the tests instead of skipping them, so a broken
// PostgreSQL install cannot pass as a green run.
const RequiredEnv = "PGTEST_REQUIRED"

func required() bool { return os.Getenv(RequiredEnv) != "" }

// Main runs a package's tests with one cluster, stored in *c before they
// start. Without a PostgreSQL server installed, *c stays nil and the tests
// that need one skip (see Require), unless RequiredEnv is set: then the
// run fails.
func Main(m *testing.M, c **Cluster) int {
	cl, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if required() {
			return 1
		}
	} else {
		*c = cl
		defer cl.Stop()
	}
	return m.Run()
}

// Require returns a fresh database's URL, or skips the test when no
// cluster could be started (fails it when RequiredEnv is set).
func Require(t testing.TB, c *Cluster) string {
	t.Helper()
	if c == nil {
		if required() {
			t.Fatal("no PostgreSQL cluster, and " + RequiredEnv + " is set (see the message printed before the tests)")
		}
		t.Skip("no PostgreSQL cluster (see the message printed before the tests)")
	}
	return c.NewDB(t)
}

// StartT starts a cluster for one test and stops it when the test ends;
// without one the test skips, or fails when RequiredEnv is set.
func StartT(t testing.TB) *Cluster {
	t.Helper()
	c, err := Start()
	if err != nil {
		if required() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	t.Cleanup(c.Stop)
	return c
}
