package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// A database restored from a backup has lost the intents of the writes
// made after the backup: a desktop retrying one of them (its answer lost in
// the failure that called for the restore) would look new to the hub. So
// for RestoredCare after a restore, every write the hub does not know is
// first checked with the service (settle) before it is sent.
//
// The hub notices a restore it can see: the database is another one than
// it was (another PostgreSQL cluster, database or timeline, as after
// pg_restore into a new database or a point-in-time recovery). A restore
// of the same files it cannot see is told with Options.Restored
// (`workdesk hub serve --restored`).

// RestoredCare is how long writes the hub does not know are checked with
// the service after a restore: desktops send what waited in their outbox
// within minutes of reaching the hub again, and keep trying for days only
// when offline that long.
const RestoredCare = 24 * time.Hour

// restoredEventIdGap is how far the event log's ids jump after a restore:
// more events than an office's hub writes between a backup and a restore.
const restoredEventIdGap = 1 << 32

const (
	keyIdentity     = "db_identity"
	keyRestoredCare = "restored_care_until"
)

// identity names the database the hub writes to: its cluster, database
// and timeline where the server lets the hub read them.
func (db *DB) identity(ctx context.Context) (string, error) {
	var oid uint32
	if err := db.Pool.QueryRow(ctx, `SELECT oid FROM pg_database WHERE datname = current_database()`).Scan(&oid); err != nil {
		return "", err
	}
	id := fmt.Sprintf("database %d", oid)
	// These need the pg_monitor role or more; without it the database's
	// own id must do.
	var system int64
	if db.Pool.QueryRow(ctx, `SELECT system_identifier FROM pg_control_system()`).Scan(&system) == nil {
		id += fmt.Sprintf(", cluster %d", system)
	}
	var timeline int
	if db.Pool.QueryRow(ctx, `SELECT timeline_id FROM pg_control_checkpoint()`).Scan(&timeline) == nil {
		id += fmt.Sprintf(", timeline %d", timeline)
	}
	return id, nil
}

// checkRestore starts the care after a restore when opts.Restored says so
// or the database is not the one the hub last wrote to, and takes up the
// care another instance started.
func (h *Hub) checkRestore(ctx context.Context) error {
	id, err := h.db.identity(ctx)
	if err != nil {
		return fmt.Errorf("hub: reading the database's identity: %w", err)
	}
	var until time.Time
	err = pgx.BeginFunc(ctx, h.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return err
		}
		var was, care string
		err := tx.QueryRow(ctx, `SELECT value FROM sync_state WHERE key = $1`, keyIdentity).Scan(&was)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		moved := err == nil && was != id
		if err := tx.QueryRow(ctx, `SELECT value FROM sync_state WHERE key = $1`, keyRestoredCare).Scan(&care); err == nil {
			until, _ = time.Parse(time.RFC3339Nano, care)
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if moved || h.opts.Restored {
			if moved {
				h.log.Warn("the database is not the one this office's hub last wrote to (restored from a backup?): "+
					"writes it does not know are checked with the service before they are sent", "was", was, "now", id, "for", RestoredCare)
			}
			// Desktops saw events the restored log lacks, and resume
			// after the newest of them: the log's ids continue far beyond
			// any id given out before, or the first events after the
			// restore would take ids those desktops think they have.
			if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('events', 'id'),
				(SELECT coalesce(max(id), 0) FROM events) + $1)`, restoredEventIdGap); err != nil {
				return err
			}
			until = time.Now().Add(RestoredCare)
			if _, err := tx.Exec(ctx, `INSERT INTO sync_state (key, value) VALUES ($1, $2)
				ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, keyRestoredCare, until.UTC().Format(time.RFC3339Nano)); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO sync_state (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, keyIdentity, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("hub: checking for a restored database: %w", err)
	}
	if until.After(time.Now()) {
		h.restoredUntil.Store(until.UnixNano())
	}
	return nil
}

// restoredCare reports whether writes the hub does not know are checked
// with the service first (after a restore).
func (h *Hub) restoredCare() bool {
	until := h.restoredUntil.Load()
	return until != 0 && time.Now().UnixNano() < until
}
