package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// SyncOptions tune a Syncer; the zero value is sensible.
type SyncOptions struct {
	// Progress is told how many of the work orders to fetch are stored so
	// far. It runs on a sync goroutine (the UI wraps it in fyne.Do); calls
	// are serialized and done only grows.
	Progress func(done, total int)
	// Overlap is subtracted from the high-water mark on each incremental
	// search, so changes stamped in the same instant as the last one seen
	// are not missed. 0 = 2 minutes.
	Overlap time.Duration
	// InvoiceProgress is told how many of the invoices of finished work
	// that FetchInvoices reads are read so far (done == total at the end,
	// also when it stops early). Same goroutine rules as Progress.
	InvoiceProgress func(done, total int)
	// Parallel is how many GET /api/workOrder calls are in flight. 0 = 4.
	Parallel int
	Logger   *slog.Logger
}

// Syncer keeps the replica in step with the service: it searches for work
// orders changed since the last successful sync and reads them in full, 50
// per call, a few calls at a time, each batch written in one transaction.
// Never two syncs at once. The window calls SyncNow on demand and on its
// own timer, so that each sync shows its progress.
type Syncer struct {
	s    *Store
	c    *api.Client
	opts SyncOptions
	log  *slog.Logger

	gate chan struct{} // holds one token while a sync runs
	tune syncTuning
	// handed, when set, hears each batch read and handed to the writer
	// (tests wait on it instead of guessing how long a read takes).
	handed func(seq int)
}

// syncTuning holds the sizes a sync works with; a test makes them small to
// reach their paths with a small world.
type syncTuning struct {
	// bulkMin is the fewest rows a bulk write (index rebuilt at the end) is for.
	bulkMin int
	// maxWaiting is how many fetched batches may wait for a slower one
	// before them (about 2 MB).
	maxWaiting int
	// commitRows is how many fetched work orders are committed together:
	// each commit flushes pages to the WAL, and most batches then share one.
	commitRows int
}

var defaultTuning = syncTuning{bulkMin: 1000, maxWaiting: 32, commitRows: 1000}

// NewSyncer returns a Syncer writing to store with client.
func NewSyncer(store *Store, client *api.Client, opts SyncOptions) *Syncer {
	if opts.Overlap <= 0 {
		opts.Overlap = 2 * time.Minute
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 4
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Syncer{s: store, c: client, opts: opts, log: opts.Logger.With("component", "sync"), gate: make(chan struct{}, 1), tune: defaultTuning}
}

// SyncNow runs one sync and returns when it is done. If a sync is already
// running it waits for it to end first (and then runs its own, which is
// cheap: incremental). The first sync reads everything; later ones read
// what changed since the last successful one. A failure keeps the batches
// already stored, and the next sync resumes where this one stopped.
func (y *Syncer) SyncNow(ctx context.Context) error {
	select {
	case y.gate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-y.gate }()
	return y.sync(ctx)
}

func (y *Syncer) sync(ctx context.Context) error {
	started := y.s.now()
	// How long it took is the wall clock's: the store's clock may be a
	// test's, days away from the one time.Since reads.
	began := time.Now()
	params := api.SearchParameters{}
	hw, hasHW, err := y.s.Setting(ctx, settingSyncHighWater)
	if err != nil {
		return err
	}
	var since time.Time
	if hasHW {
		if since, err = time.Parse(time.RFC3339Nano, hw); err != nil {
			y.log.Warn("unreadable sync high-water mark; reading everything", "value", hw)
			hasHW = false
		} else {
			from := since.Add(-y.opts.Overlap)
			params.LastUpdate = &api.DateRange{From: &from}
		}
	}
	found, err := y.c.SearchWorkOrders(ctx, params)
	if err != nil {
		return fmt.Errorf("sync: searching for changed work orders: %w", err)
	}
	seen := make([]int64, len(found))
	for i, wo := range found {
		seen[i] = wo.WorkOrderId
	}
	// Only the versions of the work orders the search named: an
	// incremental sync costs what changed, not what the replica holds.
	stored, err := y.s.lastUpdates(ctx, seen)
	if err != nil {
		return err
	}
	var need []int64
	var newest time.Time
	for _, wo := range found {
		if wo.LastUpdate.After(newest) {
			newest = wo.LastUpdate
		}
		// Already stored at this version: by an earlier, interrupted run of
		// this sync, or in the overlap window. Skipping it is what makes a
		// failed sync resume instead of restart.
		if lu, ok := stored[wo.WorkOrderId]; ok && !wo.LastUpdate.IsZero() && lu >= wo.LastUpdate.UnixNano() {
			continue
		}
		need = append(need, wo.WorkOrderId)
	}
	stored = nil
	y.log.Info("sync started", "incremental", hasHW, "changed", len(found), "toFetch", len(need))
	// The customers' settings are read while the work orders are: the
	// search names their customers, and the replica the stale ones.
	settingsRead := y.refreshSettingsWhile(ctx, found)
	found = nil // the search's answer is large at size; only the ids are kept
	bulk := false
	if len(need) >= y.tune.bulkMin { // the replica's size matters only then
		held, err := y.s.Count(ctx)
		if err != nil {
			return err
		}
		bulk = y.tune.bulk(len(need), held)
	}
	if bulk {
		// A rebuild after an earlier bulk write may still be under way.
		if err := y.s.waitFTS(ctx); err != nil {
			return err
		}
		if _, err := y.s.deferFTS(ctx); err != nil {
			return err
		}
		// The indexes are rebuilt once the sync returns (so that they do
		// not hold the writer while it finishes), even after a failure or
		// cancellation: stored batches must become searchable (see
		// search_deferred.go).
		defer y.s.resumeFTSLater()
		err = y.fetch(ctx, need)
	} else {
		err = y.fetch(ctx, need)
	}
	if err != nil {
		return err
	}
	if !settingsRead() {
		y.refreshCustomerSettings(ctx, seen) // the search named no customers: from the stored rows
	}
	y.refreshAssociates(ctx)
	// Only now, with every batch stored, may the next sync start later.
	mark := since
	switch {
	case newest.After(mark):
		mark = newest // service time: immune to a skewed local clock
	case newest.IsZero() && len(seen) > 0:
		// The search answer carries no LastUpdate: fall back on our clock,
		// which the overlap protects against small skew.
		mark = started
	}
	err = y.s.inTx(ctx, func(tx *sql.Tx) error {
		if !mark.IsZero() {
			if err := y.s.setSetting(ctx, tx, settingSyncHighWater, mark.UTC().Format(time.RFC3339Nano)); err != nil {
				return err
			}
		}
		return y.s.setSetting(ctx, tx, settingLastSync, y.s.now().UTC().Format(time.RFC3339Nano))
	})
	if err != nil {
		return err
	}
	y.log.Info("sync finished", "fetched", len(need), "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// bulk says whether writing n work orders into a replica holding stored is
// cheaper with the search index rebuilt once at the end than maintained row
// by row: a rebuild costs about what indexing a tenth of the rows one by one
// does, so it pays from 10% of the table, and from 1,000 rows at all.
func (t syncTuning) bulk(n, stored int) bool {
	return n >= t.bulkMin && n*10 >= n+stored
}

// fetch reads ids in batches of api.MaxReadBatch with opts.Parallel calls in
// flight; each batch is stored in its own transaction as soon as it arrives.
// The first failure stops the rest; stored batches stay.
func (y *Syncer) fetch(ctx context.Context, ids []int64) error {
	total := len(ids)
	if y.opts.Progress != nil {
		y.opts.Progress(0, total)
	}
	if total == 0 {
		return nil
	}
	// Fetching stops at the first failure; what was fetched before it is
	// still stored (with the caller's ctx), unless the caller cancelled.
	fetchCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Batches go out in ascending id order and are written in that order
	// (see below), so every insert appends to the tables instead of
	// splitting pages in their middle.
	ids = slices.Sorted(slices.Values(ids))
	type batch struct {
		seq int
		ids []int64
	}
	batches := make(chan batch)
	go func() {
		defer close(batches)
		for seq, start := 0, 0; start < total; seq, start = seq+1, start+api.MaxReadBatch {
			select {
			case batches <- batch{seq, ids[start:min(start+api.MaxReadBatch, total)]}:
			case <-fetchCtx.Done():
				return
			}
		}
	}()
	// Fetchers decode in parallel; one writer stores.
	type fetched struct {
		seq  int
		ids  []int64
		rows [][]any
		n    int // ids asked for
	}
	ready := make(chan fetched, y.opts.Parallel*2)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for range y.opts.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				wos, err := y.c.GetWorkOrders(fetchCtx, b.ids)
				if err != nil {
					fail(fmt.Errorf("sync: reading work orders: %w", err))
					return
				}
				f := fetched{seq: b.seq, n: len(b.ids)}
				for i := range wos {
					args, err := workOrderArgs(&wos[i], true)
					if err != nil {
						fail(err)
						return
					}
					f.rows = append(f.rows, args)
					f.ids = append(f.ids, wos[i].WorkOrderId)
				}
				select {
				case ready <- f:
				case <-fetchCtx.Done():
					return
				}
				if y.handed != nil {
					y.handed(b.seq)
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(ready)
	}()
	done := 0
	writeFailed := false // a fetch failure still lets fetched batches be stored
	write := func(group []fetched) {
		if len(group) == 0 || ctx.Err() != nil || writeFailed {
			return // cancelled, or a write failed: store no more, drain
		}
		var changed []int64
		batches := make([][][]any, len(group))
		for i, g := range group {
			changed = append(changed, g.ids...)
			batches[i] = g.rows
		}
		if err := y.s.storeBatches(ctx, batches, changed); err != nil {
			writeFailed = true
			fail(err)
			return
		}
		for _, g := range group {
			done += g.n
		}
		y.s.notify(changed)
		if y.opts.Progress != nil {
			y.opts.Progress(done, total)
		}
	}
	// Batches come back out of order; each waits in early until the ones
	// before it are in line, and the line is committed commitRows at a
	// time: every commit rewrites the last pages of each table it touches,
	// so one per batch cost more than the rows themselves. A slow call would
	// make the rest pile up in memory, so past maxWaiting they join the line
	// anyway, out of order.
	early := map[int]fetched{}
	written := map[int]bool{} // put in line ahead of next
	next := 0
	var line []fetched
	lineRows := 0
	enqueue := func(f fetched) {
		line = append(line, f)
		lineRows += f.n
	}
	for f := range ready {
		early[f.seq] = f
		for {
			if written[next] {
				delete(written, next)
			} else if g, ok := early[next]; ok {
				enqueue(g)
				delete(early, next)
			} else {
				break
			}
			next++
		}
		if len(early) > y.tune.maxWaiting {
			for _, seq := range slices.Sorted(maps.Keys(early)) {
				enqueue(early[seq])
				delete(early, seq)
				written[seq] = true
			}
		}
		if lineRows >= y.tune.commitRows {
			write(line)
			line, lineRows = nil, 0
		}
	}
	write(line)
	// After a failure the batches behind the failed one are still worth
	// storing: the next sync skips what is stored.
	for _, seq := range slices.Sorted(maps.Keys(early)) {
		write([]fetched{early[seq]})
	}
	if firstErr != nil {
		if errors.Is(firstErr, context.Canceled) && ctx.Err() != nil {
			// Report the caller's cancellation as such, not as a fetch error.
			return fmt.Errorf("sync: %w", context.Canceled)
		}
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}

// storeBatches writes fetched batches (rows of workOrderArgs) of the work
// orders ids in one transaction, each batch still all-or-nothing inside it:
// taking every batch that is ready at once commits (and so flushes pages
// to the WAL) far less often when the writer falls behind.
func (s *Store) storeBatches(ctx context.Context, batches [][][]any, ids []int64) error {
	list := idsJSON(ids)
	return s.inTx(ctx, func(tx *sql.Tx) error {
		all := make([][]any, 0, len(ids))
		for _, rows := range batches {
			if err := upsertRows(ctx, tx, s.upsertBatch, rows); err != nil {
				return err
			}
			all = append(all, rows...)
		}
		if err := putCrews(ctx, tx, all); err != nil {
			return fmt.Errorf("storage: writing %d work orders: %w", len(ids), err)
		}
		if err := logSearchChanges(ctx, tx, list); err != nil {
			return fmt.Errorf("storage: writing %d work orders: %w", len(ids), err)
		}
		return nil
	})
}

// lastUpdates maps each of ids that is stored to its LastUpdate (ns; 0
// when the service sent none).
func (s *Store) lastUpdates(ctx context.Context, ids []int64) (map[int64]int64, error) {
	out := make(map[int64]int64, min(len(ids), 1024))
	for start := 0; start < len(ids); start += lastUpdatesChunk {
		chunk := ids[start:min(start+lastUpdatesChunk, len(ids))]
		rows, err := s.r.QueryContext(ctx, `SELECT id, COALESCE(last_update, 0) FROM work_orders WHERE id IN (SELECT value FROM json_each(?))`, idsJSON(chunk))
		if err != nil {
			return nil, fmt.Errorf("storage: reading stored versions: %w", err)
		}
		for rows.Next() {
			var id, lu int64
			if err := rows.Scan(&id, &lu); err != nil {
				rows.Close()
				return nil, fmt.Errorf("storage: reading stored versions: %w", err)
			}
			out[id] = lu
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("storage: reading stored versions: %w", err)
		}
	}
	return out, nil
}

// lastUpdatesChunk is how many ids one read of stored versions names.
const lastUpdatesChunk = 10_000

// Refresh reads one work order and its details (messages, attachments and,
// where invoicing can see it, the invoice, price list and invoice
// attachments) into the replica: the on-demand fetch when a detail view
// opens. What fails keeps its cached data; the errors are returned joined.
func (y *Syncer) Refresh(ctx context.Context, woID int64) error {
	wo, err := y.c.GetWorkOrder(ctx, woID)
	if err != nil {
		return fmt.Errorf("refreshing work order %d: %w", woID, err)
	}
	before, errBefore := y.s.detailState(ctx, woID)
	if err := y.s.putQuiet(ctx, []api.WorkOrder{*wo}); err != nil {
		return err
	}
	now := func() int64 { return y.s.now().UnixMilli() }
	parts := []func() error{
		func() error {
			msgs, err := y.c.ListMessages(ctx, woID)
			if err != nil {
				return fmt.Errorf("messages: %w", err)
			}
			return putMessages(ctx, y.s.w, woID, msgs, now())
		},
		func() error {
			atts, err := y.c.ListAttachments(ctx, woID)
			if err != nil {
				return fmt.Errorf("attachments: %w", err)
			}
			return putAttachments(ctx, y.s.w, woID, attachmentsWorkOrder, atts, now())
		},
	}
	if wo.InvoiceVisible() {
		parts = append(parts,
			func() error {
				inv, err := y.c.GetInvoice(ctx, woID)
				if err != nil {
					return fmt.Errorf("invoice: %w", err)
				}
				if inv.WorkOrderId == 0 {
					inv.WorkOrderId = woID
				}
				return putInvoice(ctx, y.s.w, woID, inv, now())
			},
			func() error {
				pl, err := y.c.GetPriceList(ctx, woID)
				if err != nil {
					return fmt.Errorf("price list: %w", err)
				}
				return putPriceList(ctx, y.s.w, woID, wo.Customer.Id, pl, now())
			},
			func() error {
				atts, err := y.c.ListInvoiceAttachments(ctx, woID)
				if err != nil {
					return fmt.Errorf("invoice attachments: %w", err)
				}
				return putAttachments(ctx, y.s.w, woID, attachmentsInvoice, atts, now())
			})
	}
	parts = append(parts, func() error {
		// The internal note's history is a read the service may answer
		// under names we guessed wrong, or an older office hub not at all:
		// that must not keep the rest from the window.
		if _, err := y.s.rereadNote(ctx, y.c, woID); err != nil {
			y.log.Info("could not read the internal note", "workOrder", woID, "err", err)
		}
		return nil
	})
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = part()
		}()
	}
	wg.Wait()
	// Most opens find what the replica already had: telling the window
	// then drew the work order a second time and re-read the list and its
	// counts, on every open.
	if after, err := y.s.detailState(ctx, woID); errBefore != nil || err != nil || !slices.Equal(before, after) {
		y.s.notify([]int64{woID})
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("refreshing work order %d: %w", woID, err)
	}
	return nil
}

// detailState is what Refresh may change of a work order, the times each
// part was read aside: the record, its messages, attachments, invoice,
// price list and internal note, as stored.
func (s *Store) detailState(ctx context.Context, woID int64) ([]sql.NullString, error) {
	state := make([]sql.NullString, 7)
	err := s.r.QueryRowContext(ctx, `SELECT
 (SELECT json FROM work_order_json WHERE id = ?1),
 (SELECT json FROM messages WHERE work_order_id = ?1),
 (SELECT json FROM attachments WHERE work_order_id = ?1 AND kind = ?2),
 (SELECT json FROM attachments WHERE work_order_id = ?1 AND kind = ?3),
 (SELECT json FROM invoices WHERE work_order_id = ?1),
 (SELECT json FROM price_lists WHERE work_order_id = ?1),
 (SELECT json FROM internal_notes WHERE work_order_id = ?1)`, woID, attachmentsWorkOrder, attachmentsInvoice).
		Scan(&state[0], &state[1], &state[2], &state[3], &state[4], &state[5], &state[6])
	if err != nil {
		return nil, fmt.Errorf("storage: reading work order %d: %w", woID, err)
	}
	return state, nil
}
