package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// storedRead is the stored answer of ref, if any. It is stale also when
// its work order changed since it was fetched and the refresh that
// followed did not store a newer one (it failed, or ran out of time).
func (db *DB) storedRead(ctx context.Context, ref readRef) (storedAnswer, bool, error) {
	var a storedAnswer
	var body string
	err := db.Pool.QueryRow(ctx, `SELECT r.status, r.body, r.stale OR r.version < coalesce(w.reads_after, 0), r.fetched
		FROM reads r LEFT JOIN work_orders w ON w.id = r.work_order_id WHERE r.kind = $1 AND r.key = $2`,
		ref.kind, ref.key).Scan(&a.status, &body, &a.stale, &a.fetched)
	if errors.Is(err, pgx.ErrNoRows) {
		return storedAnswer{}, false, nil
	}
	if err != nil {
		return storedAnswer{}, false, fmt.Errorf("hub: reading a stored answer: %w", err)
	}
	a.body = []byte(body)
	return a, true, nil
}

// nextReadVersion is taken before a fetch begins: see storeRead.
func (db *DB) nextReadVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := db.Pool.QueryRow(ctx, `SELECT nextval('reads_version')`).Scan(&v); err != nil {
		return 0, fmt.Errorf("hub: numbering a fetch: %w", err)
	}
	return v, nil
}

// storeRead keeps the answer of a fetch that began at version, unless a
// fetch that began later stored its answer already, or the work order
// changed after it began (readsChanged): a slow fetch from before a write
// never undoes the refresh that followed it, nor is it stored when that
// refresh found nothing stored yet. The work order's row is locked (shared)
// while the answer is stored, so a mark set meanwhile either waits for it,
// and the refresh that follows the mark sees the answer, or is seen by it.
func (db *DB) storeRead(ctx context.Context, ref readRef, version int64, status int, body []byte) error {
	var err error
	if ref.workOrder != 0 {
		_, err = db.Pool.Exec(ctx, `WITH w AS (SELECT id FROM work_orders WHERE id = $3 AND reads_after < $6 FOR SHARE)
			INSERT INTO reads (kind, key, work_order_id, status, body, version)
			SELECT $1, $2, w.id, $4, $5, $6 FROM w
			ON CONFLICT (kind, key) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body, version = EXCLUDED.version,
				stale = false, fetched = now()
			WHERE reads.version < EXCLUDED.version`, ref.kind, ref.key, ref.workOrder, status, string(body), version)
	} else {
		// Only the customers of work orders in the replica: a made-up
		// customer id is not worth a row.
		_, err = db.Pool.Exec(ctx, `INSERT INTO reads (kind, key, customer_id, status, body, version)
			SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM work_orders WHERE customer_id = $3)
			ON CONFLICT (kind, key) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body, version = EXCLUDED.version,
				stale = false, fetched = now()
			WHERE reads.version < EXCLUDED.version`, ref.kind, ref.key, ref.customer, status, string(body), version)
	}
	if err != nil {
		return fmt.Errorf("hub: storing an answer: %w", err)
	}
	return nil
}

// readsChanged marks the work orders ids changed now, after a write took
// effect, a notification said so or a sync saw it: a fetch of their reads
// that began before is not stored (see storeRead). Rows are locked in id
// order, as StoreWorkOrders does, so the two never deadlock.
func (db *DB) readsChanged(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := db.Pool.Exec(ctx, `UPDATE work_orders SET reads_after = nextval('reads_version')
		WHERE id IN (SELECT id FROM work_orders WHERE id = ANY($1) ORDER BY id FOR UPDATE)`, ids)
	if err != nil {
		return fmt.Errorf("hub: marking the reads of changed work orders: %w", err)
	}
	return nil
}

// markReadStale records that a fetch begun at version failed, unless a
// later one succeeded.
func (db *DB) markReadStale(ctx context.Context, ref readRef, version int64) error {
	_, err := db.Pool.Exec(ctx, `UPDATE reads SET stale = true, version = $3 WHERE kind = $1 AND key = $2 AND version < $3`,
		ref.kind, ref.key, version)
	return err
}

func scanRefs(rows pgx.Rows) ([]readRef, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (readRef, error) {
		var ref readRef
		var wo, cust *int64
		err := r.Scan(&ref.kind, &ref.key, &wo, &cust)
		if wo != nil {
			ref.workOrder = *wo
		}
		if cust != nil {
			ref.customer = *cust
		}
		return ref, err
	})
}

// storedReadsOf lists the stored answers about work orders ids.
func (db *DB) storedReadsOf(ctx context.Context, ids []int64) ([]readRef, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := db.Pool.Query(ctx, `SELECT kind, key, work_order_id, customer_id FROM reads WHERE work_order_id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("hub: listing stored answers: %w", err)
	}
	return scanRefs(rows)
}

// readsDue lists the stored answers a sync refreshes besides those of the
// work orders it saw change: the stale ones, and customer settings
// fetched longer than maxAge ago (no work order's change says they
// changed). Each half reads a partial index of its own.
func (db *DB) readsDue(ctx context.Context, maxAge time.Duration) ([]readRef, error) {
	rows, err := db.Pool.Query(ctx, `SELECT kind, key, work_order_id, customer_id FROM reads WHERE stale
		UNION ALL
		SELECT kind, key, work_order_id, customer_id FROM reads
		WHERE customer_id IS NOT NULL AND fetched < now() - $1::interval AND NOT stale`, maxAge)
	if err != nil {
		return nil, fmt.Errorf("hub: listing stale answers: %w", err)
	}
	return scanRefs(rows)
}

// forgetOrphanReads drops the customer settings of customers no work order
// in the replica has any more (the last one recalled), so that a sync does
// not keep refreshing them.
func (db *DB) forgetOrphanReads(ctx context.Context) error {
	_, err := db.Pool.Exec(ctx, `DELETE FROM reads r WHERE r.customer_id IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM work_orders w WHERE w.customer_id = r.customer_id)`)
	if err != nil {
		return fmt.Errorf("hub: forgetting the reads of customers gone: %w", err)
	}
	return nil
}

// customerSettingsReads lists the customers' settings the hub holds.
func (db *DB) customerSettingsReads(ctx context.Context) ([]readRef, error) {
	rows, err := db.Pool.Query(ctx, `SELECT kind, key, work_order_id, customer_id FROM reads WHERE customer_id IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("hub: listing customers' settings: %w", err)
	}
	return scanRefs(rows)
}
