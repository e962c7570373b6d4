package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
)

// writeLock marks the per-work-order advisory locks that make writes to one
// work order go to the service one at a time across instances. They use
// PostgreSQL's two-key form, which no other lock of the hub uses.
const writeLock = 0x574F4448

// workOrderLockKeys maps a work order id to its lock's two 32-bit keys
// without losing any of its 64 bits: the high half, marked by writeLock,
// and the low half.
func workOrderLockKeys(id int64) (int32, int32) {
	return int32(uint32(id>>32) ^ writeLock), int32(uint32(id))
}

// locked runs fn in a transaction holding the advisory locks of ids (in
// order, so two bulk writes never wait on each other crosswise). The locks
// end with the transaction, or with the session when an instance dies. It
// waits for its turn until wait ends, then runs with ctx. The transaction
// is on the writes' own pool: however many writes wait on slow uploads,
// reads and sign-ins keep the main pool.
func (h *Hub) locked(ctx, wait context.Context, ids []int64, fn func(pgx.Tx) error) error {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	release, err := h.turns.take(wait, sorted)
	if err != nil {
		return waited(err)
	}
	defer release()
	// All of them taken means the service is slow with as many writes: the
	// desktop is better told so (503, its outbox retries) than kept waiting.
	acquire, cancel := context.WithTimeout(wait, h.opts.WriteWait)
	conn, err := h.db.writes.Acquire(acquire)
	cancel()
	if err != nil {
		return waited(err)
	}
	defer conn.Release()
	// The transaction idles while the service takes the write: a server
	// that ends idle transactions would free the lock halfway through. The
	// timeout is lifted in the statement that begins it, so that not even
	// the moment between the two is exposed to it.
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{BeginQuery: `BEGIN; SET LOCAL idle_in_transaction_session_timeout = 0`})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	for _, id := range sorted {
		hi, lo := workOrderLockKeys(id)
		if _, err := tx.Exec(wait, `SELECT pg_advisory_xact_lock($1, $2)`, hi, lo); err != nil {
			return waited(fmt.Errorf("hub: waiting for work order %d: %w", id, err))
		}
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// errWaitedTooLong: a write waited for its turn or a database connection
// longer than WriteWait, or an upload longer than its body may stall; the
// desktop may be gone, and if not its outbox tries again.
var errWaitedTooLong = errors.New("waited too long for other writes to the work order")

func waited(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", errWaitedTooLong, err)
	}
	return err
}

// takeUploadSlot waits until wait ends for one of the upload slots:
// uploads keep the service longest, so at most half of the writes'
// connections go to them and other writes always find one. release gives
// the slot back.
func (h *Hub) takeUploadSlot(wait context.Context) (release func(), err error) {
	select {
	case h.uploads <- struct{}{}:
		return func() { <-h.uploads }, nil
	case <-wait.Done():
		return nil, waited(wait.Err())
	}
}
