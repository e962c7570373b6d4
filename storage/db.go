// Package storage is the local replica of the service: a SQLite file holding
// work orders and their caches, the event log, the outbox of pending actions
// and non-secret settings; the client secret in the OS keyring; the sync loop
// and the sender that keep the replica and the service in step.
//
// The UI reads only from here and hands every action to a Store method, so it
// opens instantly with the last known data and keeps working offline.
// storage imports api for its types and client, and nothing from ui or Fyne.
package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/migrate"
	_ "modernc.org/sqlite" // registers the "sqlite" driver (pure Go, FTS5 built in)
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// AppID names the application to the OS (keyring service, config folder).
const AppID = "com.workorderdesk.workdesk"

// Store is the open replica. It is safe for concurrent use: writes go through
// one connection (SQLite allows one writer; queueing them in database/sql
// instead of in SQLite's busy handler keeps them fair and deadlock-free) and
// reads through a pool that WAL lets run beside the writer.
type Store struct {
	path  string
	spool string
	w     *sql.DB
	r     *sql.DB
	log   *slog.Logger
	now   func() time.Time

	upsertBatch *batchStmts // see putRows

	subMu   sync.Mutex
	subs    map[int]func(changed []int64)
	nextSub int

	kickMu sync.Mutex
	kicks  []func()

	searchMu   sync.Mutex
	searchSets []*searchSet // the last searches, newest last (see findSearch)
	search     liveSearch   // the in-memory search index (see search_live.go)

	sortIndexes sync.Map // Column → true: its on-demand sort index exists (see ensureSortIndex)

	deferred deferredIndex // the search index's rebuild after a bulk write (see search_deferred.go)
}

// The writer's page cache, in KiB as cache_size takes it (negative), and
// what it is during a bulk write (deferFTS to resumeFTS). A bulk write
// appends every page once and never reads it again (readers have their
// own connections): a big cache only kept them all, each a fresh
// allocation, which cost a first sync of 10,000 work orders about 20 ms of
// CPU; a small one recycles the pages it has written out. Outside a bulk
// write 8 MB holds the pages the incremental writes come back to (the
// tables' last pages, the indexes' upper levels); at 32 MB it grew, over
// the invoice fetch after a first sync, into memory the window kept.
const (
	writerCacheKiB = -8192
	bulkCacheKiB   = -4096
)

// Open opens (creating if needed) the replica at path, applies pending schema
// migrations and returns the Store. Files to upload are spooled in a folder
// named after the database (PATH-spool), so replicas sharing a folder never
// touch each other's queued uploads.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("storage: no database path given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("storage: creating %s: %w", dir, err)
	}
	if err := checkReplicaFile(abs); err != nil {
		return nil, err
	}
	s := &Store{
		path:  abs,
		spool: abs + spoolSuffix,
		log:   slog.Default().With("component", "storage"),
		now:   time.Now,
		subs:  map[int]func([]int64){},
	}
	s.search.init()
	s.deferred.init()
	// synchronous=NORMAL in WAL mode loses at most the last commits on power
	// loss, never consistency; an outbox row is still on disk before any
	// send because the OS has it even if the process dies.
	writerDSN := dsn(abs, "_txlock=immediate",
		"_pragma=busy_timeout(10000)", "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)",
		"_pragma=foreign_keys(1)", fmt.Sprintf("_pragma=cache_size(%d)", writerCacheKiB), "_pragma=temp_store(MEMORY)",
		// Checkpoint every ~32 MB of WAL rather than 4 MB: a first sync then
		// copies pages into the database a few times instead of dozens.
		"_pragma=wal_autocheckpoint(8192)")
	if s.w, err = sql.Open("sqlite", writerDSN); err != nil {
		return nil, fmt.Errorf("storage: opening %s: %w", abs, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	if err := s.migrate(ctx); err != nil {
		s.w.Close()
		return nil, err
	}
	if err := s.resumeFTS(ctx, true); err != nil { // a bulk write the last run left unfinished
		s.w.Close()
		return nil, err
	}
	rowsSQL, jsonSQL := upsertSQL(api.MaxReadBatch)
	s.upsertBatch = &batchStmts{}
	if s.upsertBatch.rows, err = s.w.PrepareContext(ctx, rowsSQL); err == nil {
		s.upsertBatch.json, err = s.w.PrepareContext(ctx, jsonSQL)
	}
	if err != nil {
		s.w.Close()
		return nil, fmt.Errorf("storage: preparing statements: %w", err)
	}
	// No mmap: each of the four readers mapped the replica on its own, and
	// every page one of them had read counted in the window's resident
	// memory once per mapping (453 MB of a 280 MB replica at 100,000 work
	// orders). Reads come from the OS's page cache through each reader's
	// own small cache instead (4 MB: SQLite's own, a copy of what the OS
	// already holds, counted as the window's memory four times over).
	readerDSN := dsn(abs, "_pragma=busy_timeout(10000)", "_pragma=query_only(1)", "_pragma=foreign_keys(1)",
		"_pragma=cache_size(-4096)", "_pragma=mmap_size(0)")
	if s.r, err = sql.Open("sqlite", readerDSN); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("storage: opening %s for reading: %w", abs, err)
	}
	s.r.SetMaxOpenConns(4)
	s.r.SetMaxIdleConns(4)
	if err := s.r.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("storage: opening %s for reading: %w", abs, err)
	}
	if err := os.MkdirAll(s.spool, 0o700); err != nil {
		s.Close()
		return nil, fmt.Errorf("storage: creating the upload spool: %w", err)
	}
	s.sweepSpool(ctx)
	return s, nil
}

// dsn builds a file: URI so that any character in the path (spaces, '?',
// '#') reaches SQLite intact.
func dsn(path string, params ...string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive paths: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: strings.Join(params, "&")}
	return u.String()
}

// Close closes both connection pools. Pending outbox rows stay on disk.
func (s *Store) Close() error {
	var errs []error
	s.deferred.close()
	s.search.close()
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.upsertBatch != nil {
		for _, st := range []*sql.Stmt{s.upsertBatch.rows, s.upsertBatch.json} {
			if st != nil {
				st.Close()
			}
		}
	}
	if s.w != nil {
		// Fold the WAL back into the main file so a closed replica is one file.
		if _, err := s.w.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			s.log.Debug("checkpoint on close failed", "err", err)
		}
		errs = append(errs, s.w.Close())
	}
	return errors.Join(errs...)
}

// walFoldBytes is the WAL's size past which a long background write (the
// invoice fetch) folds it back into the replica. SQLite's own checkpoint
// (wal_autocheckpoint) copies pages back but can start the WAL over only
// at a moment no reader is in it, and with the window reading beside a
// fetch of tens of thousands of invoices that moment did not come: the
// WAL grew past 1 GB, and every read got slower with it.
const walFoldBytes = 32 << 20

// foldWAL copies the WAL into the replica and empties it once it is over
// walFoldBytes. It waits a moment for the readers in the WAL to finish,
// never long: the writer is held meanwhile, and a person's action may be
// waiting for it. Not done now is done at the next call.
func (s *Store) foldWAL(ctx context.Context) {
	if fi, err := os.Stat(s.path + "-wal"); err != nil || fi.Size() < walFoldBytes {
		return
	}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = 250"); err != nil {
		return
	}
	var busy, frames, copied int
	if err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied); err != nil || busy != 0 {
		s.log.Debug("the WAL could not be folded back yet", "err", err)
	}
	if _, err := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA busy_timeout = 10000"); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn }) // not back into the pool with a short timeout
	}
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

var profileUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// DemoProfile names the replica used with the built-in sandbox.
const DemoProfile = "demo"

// ProfileForBaseURL derives a profile name from a live service address, so
// each service (and the demo) has its own replica and they never mix:
// "https://am-api.corrigopro.com/Direct/" → "am-api.corrigopro.com_Direct".
func ProfileForBaseURL(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		return "live_" + profileUnsafe.ReplaceAllString(baseURL, "_")
	}
	name := u.Host + "_" + strings.Trim(u.Path, "/")
	name = strings.Trim(profileUnsafe.ReplaceAllString(name, "_"), "_.")
	if strings.EqualFold(name, DemoProfile) {
		name = "live_" + name
	}
	return name
}

// DefaultPath is where the replica of a profile lives:
// <dataFolder>/workdesk/<profile>/replica.db.
func DefaultPath(profile string) (string, error) {
	if profile == "" || profile != profileUnsafe.ReplaceAllString(profile, "_") || strings.Trim(profile, ".") == "" {
		return "", fmt.Errorf("storage: %q is not a usable profile name", profile)
	}
	base, err := userDataFolder()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "workdesk", profile, "replica.db"), nil
}

// migrate applies every embedded migration newer than schema_version, each
// in its own transaction with the version bump, so a crash never leaves a
// half-applied schema.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("storage: preparing migrations: %w", err)
	}
	var current int
	err := s.w.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.w.ExecContext(ctx, `INSERT INTO schema_version(version) VALUES (0)`); err != nil {
			return fmt.Errorf("storage: preparing migrations: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("storage: reading the schema version: %w", err)
	}
	ms, err := migrate.Read(migrationFiles)
	if err != nil {
		return err
	}
	if len(ms) > 0 && current > ms[len(ms)-1].Version {
		return fmt.Errorf("storage: the replica was written by a newer version of the app (schema %d, this app knows %d)",
			current, ms[len(ms)-1].Version)
	}
	for _, m := range ms {
		if m.Version <= current {
			continue
		}
		tx, err := s.w.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("storage: migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			tx.Rollback()
			return fmt.Errorf("storage: migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, m.Version); err != nil {
			tx.Rollback()
			return fmt.Errorf("storage: migration %s: %w", m.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("storage: migration %s: %w", m.Name, err)
		}
		s.log.Info("applied schema migration", "name", m.Name)
	}
	return nil
}

// SchemaVersion is the version of the applied schema.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.r.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("storage: reading the schema version: %w", err)
	}
	return v, nil
}

// Subscribe registers fn to be told which work orders changed after a sync
// batch, an outbox result or an event. fn runs on a storage goroutine (the
// UI wraps it in fyne.Do) and must not block for long. cancel unregisters.
func (s *Store) Subscribe(fn func(changed []int64)) (cancel func()) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	return func() {
		s.subMu.Lock()
		defer s.subMu.Unlock()
		delete(s.subs, id)
	}
}

// notify calls the subscribers outside any lock, so a subscriber may call
// back into the Store.
func (s *Store) notify(changed []int64) {
	if len(changed) == 0 {
		return
	}
	s.subMu.Lock()
	fns := make([]func([]int64), 0, len(s.subs))
	for _, fn := range s.subs {
		fns = append(fns, fn)
	}
	s.subMu.Unlock()
	for _, fn := range fns {
		fn(append([]int64(nil), changed...))
	}
}

// onEnqueue registers a function run after every new or retried outbox row
// (the Sender's Kick).
func (s *Store) onEnqueue(fn func()) {
	s.kickMu.Lock()
	defer s.kickMu.Unlock()
	s.kicks = append(s.kicks, fn)
}

func (s *Store) kickSenders() {
	s.kickMu.Lock()
	fns := append([]func(){}, s.kicks...)
	s.kickMu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// inTx runs fn in one write transaction and commits it, or rolls back on error.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storage: starting a transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storage: committing: %w", err)
	}
	return nil
}

// ms converts a time to the integer milliseconds stored in the schema; the
// zero time is NULL ("none").
func ms(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// nanos is for LastUpdate, the sync's version stamp: the service stamps
// changes finer than a millisecond apart, and a coarser copy would make two
// versions look the same.
func nanos(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

func msPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ms(*t)
}

// fromMs is the inverse of ms.
func fromMs(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64).UTC()
}
