package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"golang.org/x/sync/errgroup"
)

// syncLock is the advisory lock key held by the instance that syncs
// ("WODHUB-S" as a number). It is a session lock on a connection of its own:
// when that instance dies, PostgreSQL ends the session and frees the lock.
const syncLock = 0x574F444855422D53

const keyHighWater = "sync_high_water"

// syncOverlap is subtracted from the high-water mark on each search, so a
// change stamped in the same instant as the last one seen is not missed.
const syncOverlap = 2 * time.Minute

// leaderLoop tries to become the syncing instance every LeaderPoll and,
// while it is, syncs every SyncEvery. Losing the lock's connection (the
// database restarted, the network dropped) makes it a follower again.
func (h *Hub) leaderLoop(ctx context.Context) {
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	for {
		if conn == nil {
			conn = h.tryLead(ctx)
		}
		wait := h.opts.LeaderPoll
		if conn != nil {
			if !h.leading.Swap(true) {
				h.leadingSince.Store(time.Now().UnixNano())
			}
			if err := h.SyncNow(ctx); err != nil && ctx.Err() == nil {
				h.log.Warn("sync failed", "err", err)
			}
			if err := h.settleOrphans(ctx); err != nil && ctx.Err() == nil {
				h.log.Warn("settling writes left in doubt", "err", err)
			}
			if err := conn.Ping(ctx); err != nil {
				if ctx.Err() == nil {
					h.log.Warn("lost the sync lock's connection; another instance may sync now", "err", err)
				}
				conn.Close(context.Background())
				conn = nil
				h.leading.Store(false)
			} else {
				wait = h.opts.SyncEvery
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-h.syncPoke:
		case <-time.After(wait):
		}
	}
}

// tryLead returns the connection holding the sync lock, or nil when another
// instance holds it.
func (h *Hub) tryLead(ctx context.Context) *pgx.Conn {
	defer h.leadTries.Add(1)
	conn, err := pgx.ConnectConfig(ctx, h.db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		if ctx.Err() == nil {
			h.log.Warn("connecting for the sync lock", "err", err)
		}
		return nil
	}
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, int64(syncLock)).Scan(&got); err != nil || !got {
		conn.Close(context.Background())
		return nil
	}
	h.log.Info("this instance syncs from the service now")
	return conn
}

// Leading reports whether this instance holds the sync lock.
func (h *Hub) Leading() bool { return h.leading.Load() }

// SyncNow searches the service for work orders changed since the last sync
// and reads them in full, 50 per call, a few calls at a time, each batch
// stored in one transaction. Only the instance holding the sync lock calls it
// on its own; calling it elsewhere is harmless (the writes are idempotent).
func (h *Hub) SyncNow(ctx context.Context) error {
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	params := api.SearchParameters{}
	var since time.Time
	var hw string
	err := h.db.Pool.QueryRow(ctx, `SELECT value FROM sync_state WHERE key = $1`, keyHighWater).Scan(&hw)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return fmt.Errorf("hub: reading the sync mark: %w", err)
	default:
		if since, err = time.Parse(time.RFC3339Nano, hw); err == nil {
			from := since.Add(-syncOverlap)
			params.LastUpdate = &api.DateRange{From: &from}
		}
	}
	found, err := h.client.SearchWorkOrders(ctx, params)
	if err != nil {
		return fmt.Errorf("hub: searching the service for changes: %w", err)
	}
	ids := make([]int64, len(found))
	for i, w := range found {
		ids[i] = w.WorkOrderId
	}
	stored, err := h.db.lastUpdates(ctx, ids)
	if err != nil {
		return err
	}
	var need []int64
	newest := since
	for _, w := range found {
		if w.LastUpdate.After(newest) {
			newest = w.LastUpdate
		}
		if t, ok := stored[w.WorkOrderId]; ok && !w.LastUpdate.IsZero() && !t.Before(w.LastUpdate) {
			continue
		}
		need = append(need, w.WorkOrderId)
	}
	// The search saw them change: a fetch of their reads from before is stale.
	if err := h.db.readsChanged(ctx, need); err != nil {
		h.log.Warn("marking the reads of changed work orders", "err", err)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for start := 0; start < len(need); start += api.MaxReadBatch {
		batch := need[start:min(start+api.MaxReadBatch, len(need))]
		g.Go(func() error {
			wos, err := h.client.GetWorkOrders(gctx, batch)
			if err != nil {
				return fmt.Errorf("hub: reading work orders: %w", err)
			}
			if err := h.db.StoreWorkOrders(gctx, wos); err != nil || since.IsZero() {
				return err
			}
			// Changes the customer's notifications are on their way about:
			// theirs still make an event (rereadNotified). Not those of the
			// first sync, which are no news.
			return h.db.markSynced(gctx, batch)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	// The answers stored about the work orders that changed, and those a
	// failed refresh left stale or no change refreshes (customer settings).
	h.refreshReads(ctx, need)
	if err := h.db.forgetOrphanReads(ctx); err != nil {
		h.log.Warn("forgetting stored answers", "err", err)
	}
	if due, err := h.db.readsDue(ctx, h.opts.ReadMaxAge); err != nil {
		h.log.Warn("listing stored answers due for a refresh", "err", err)
	} else {
		h.refreshAll(ctx, due)
	}
	h.lastSync.Store(time.Now().UnixNano())
	h.syncs.Add(1)
	if !newest.After(since) {
		return nil
	}
	if _, err := h.db.Pool.Exec(ctx, `INSERT INTO sync_state (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, keyHighWater, newest.UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("hub: saving the sync mark: %w", err)
	}
	return nil
}

// refreshWorkOrders re-reads work orders from the service into the
// replica, 50 per call, after a write or a notification, and returns the
// records as the service sent them; a work order the service no longer
// shows (recalled) is forgotten, and among gone. A record read but not
// stored (the database away) is returned all the same.
func (h *Hub) refreshWorkOrders(ctx context.Context, ids []int64) (records map[int64]json.RawMessage, gone []int64, err error) {
	records = map[int64]json.RawMessage{}
	var errs []error
	for start := 0; start < len(ids); start += api.MaxReadBatch {
		batch := ids[start:min(start+api.MaxReadBatch, len(ids))]
		wos, err := h.client.GetWorkOrders(ctx, batch)
		if api.IsNotFoundOrRecalled(err) {
			if len(batch) > 1 {
				// The refusal does not say which is gone: one at a time.
				for _, id := range batch {
					got, g, err := h.refreshWorkOrders(ctx, []int64{id})
					for k, v := range got {
						records[k] = v
					}
					gone = append(gone, g...)
					errs = append(errs, err)
				}
				continue
			}
			wos, err = nil, nil
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for i := range wos {
			if raw := wos[i].RawJSON(); raw != nil {
				records[wos[i].WorkOrderId] = raw
			} else if raw, err := json.Marshal(&wos[i]); err == nil {
				records[wos[i].WorkOrderId] = raw
			}
		}
		if err := h.db.StoreWorkOrders(ctx, wos); err != nil {
			errs = append(errs, err)
			continue
		}
		for _, id := range batch {
			if _, ok := records[id]; !ok {
				gone = append(gone, id)
				errs = append(errs, h.db.DeleteWorkOrder(ctx, id))
			}
		}
	}
	return records, gone, errors.Join(errs...)
}
