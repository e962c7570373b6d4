// Package hub is the office hub: one server (any number of instances on one
// PostgreSQL database) that holds the company's only copy of the service's
// credentials, keeps the shared replica, receives the service's
// notifications, forwards the desktops' writes and records who did what.
package hub

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/workorderdesk/workdesk/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory lock key that serialises migrations of
// instances starting at once ("WODHUB-M" as a number).
const migrationLock = 0x574F444855422D4D

// DefaultPoolConns is the size of each of the hub's two connection pools
// (reads, sign-ins and streams; writes with the service) when the
// database URL sets no pool_max_conns. With the listener and the sync's
// connection, an instance opens at most 2*DefaultPoolConns+2 connections.
const DefaultPoolConns = 16

// DB is the hub's PostgreSQL database.
type DB struct {
	Pool *pgxpool.Pool
	// writes holds the forwarded writes' transactions (and their
	// advisory locks) for as long as the service takes; apart from Pool,
	// so that slow uploads never keep reads and sign-ins waiting for a
	// connection. Its size bounds the writes with the service at once.
	writes *pgxpool.Pool
}

// OpenDB connects to the database at url and brings its schema up to date.
func OpenDB(ctx context.Context, url string) (*DB, error) {
	if url == "" {
		return nil, errors.New("hub: no database given (--db, WORKDESK_DB or DATABASE_URL)")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx quotes the URL, password included, in its parse errors; a
		// file it names (sslrootcert, sslcert, sslkey) holds no secret.
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return nil, fmt.Errorf("hub: the database URL names a file that cannot be read: %w", pe)
		}
		return nil, errors.New("hub: the database URL cannot be read (expected postgres://user:password@host/dbname, " +
			"optionally ?sslmode=verify-full&sslrootcert=FILE; sslmode is disable, allow, prefer, require, verify-ca or verify-full)")
	}
	// pgxpool's own default is max(4, NumCPU): far too few for an office
	// whose reads, sign-ins and streams share the main pool while the
	// writes pool holds one connection per write the service is taking.
	given := strings.Contains(url, "pool_max_conns")
	if !given {
		cfg.MaxConns = DefaultPoolConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("hub: connecting to the database: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("hub: connecting to the database: %w", err)
	}
	wcfg := cfg.Copy()
	wcfg.MaxConns = DefaultPoolConns
	if given {
		wcfg.MaxConns = max(4, cfg.MaxConns/2)
	}
	writes, err := pgxpool.NewWithConfig(ctx, wcfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("hub: connecting to the database: %w", err)
	}
	db := &DB{Pool: pool, writes: writes}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Close closes every connection.
func (db *DB) Close() {
	db.Pool.Close()
	db.writes.Close()
}

// migrate applies every embedded migration newer than schema_version, each
// in one transaction with its version bump, holding a transaction-scoped
// advisory lock so two instances starting together do not both apply one.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrate.Read(migrationFiles)
	if err != nil {
		return err
	}
	for _, m := range ms {
		err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version int NOT NULL)`); err != nil {
				return err
			}
			var current int
			err := tx.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&current)
			if errors.Is(err, pgx.ErrNoRows) {
				_, err = tx.Exec(ctx, `INSERT INTO schema_version VALUES (0)`)
			}
			if err != nil {
				return err
			}
			if current > ms[len(ms)-1].Version {
				return fmt.Errorf("the database was written by a newer hub (schema %d, this hub knows %d)", current, ms[len(ms)-1].Version)
			}
			if m.Version <= current {
				return nil
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `UPDATE schema_version SET version = $1`, m.Version)
			return err
		})
		if err != nil {
			return fmt.Errorf("hub: migration %s: %w", m.Name, err)
		}
	}
	return nil
}

// SchemaVersion is the version of the applied schema.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := db.Pool.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("hub: reading the schema version: %w", err)
	}
	return v, nil
}
