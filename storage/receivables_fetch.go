package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The invoices of finished work are fetched in the background, after a
// sync and never inside it: the first sync reads tens of thousands of work
// orders and must not wait for one invoice call per finished one. A few
// calls at a time, each waiting while a sync runs, so the receivables fill
// in behind whatever the person is doing.

// invoiceFetchParallel is how many invoice calls are in flight at once.
const invoiceFetchParallel = 2

// invoicesToFetch lists the finished work orders (CheckedOut, Verified)
// whose invoice the replica lacks or read before the work order's last
// change: the invoice may have moved with it. Among only the work orders
// ids when ids is not nil.
func (s *Store) invoicesToFetch(ctx context.Context, ids []int64) ([]int64, error) {
	q := `SELECT w.id FROM work_orders w LEFT JOIN invoices i ON i.work_order_id = w.id
WHERE w.status IN (?,?) AND (i.work_order_id IS NULL OR i.fetched_at * 1000000 < w.last_update)`
	args := []any{string(api.StatusCheckedOut), string(api.StatusVerified)}
	if ids != nil {
		q += ` AND w.id IN (SELECT value FROM json_each(?))`
		args = append(args, idsJSON(ids))
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY w.last_update DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: listing the invoices to fetch: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: listing the invoices to fetch: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// invoiceWatch lets a run of FetchInvoices after one that read the whole
// list of finished work look only at the work orders written since
// (Store.Subscribe): at 200,000 work orders that list cost every sync a
// read of some 58,000 rows, whatever changed. A run that stopped, the
// first in a process, and one wholeInvoiceListEvery after the last whole
// read, read the whole list again.
type invoiceWatch struct {
	mu       sync.Mutex
	watching bool
	whole    time.Time // when the last whole read that was fetched in full began; zero: read it next
	changed  map[int64]bool
}

const wholeInvoiceListEvery = time.Hour

// next lists the invoices the next run fetches, and whether it read the
// whole list.
func (w *invoiceWatch) next(ctx context.Context, s *Store) (ids []int64, whole bool, err error) {
	w.mu.Lock()
	if !w.watching {
		w.watching, w.changed = true, map[int64]bool{}
		s.Subscribe(func(changed []int64) {
			w.mu.Lock()
			defer w.mu.Unlock()
			for _, id := range changed {
				w.changed[id] = true
			}
		})
	}
	whole = w.whole.IsZero() || time.Since(w.whole) >= wholeInvoiceListEvery
	changed := w.changed
	w.changed = map[int64]bool{}
	w.mu.Unlock()
	if whole {
		ids, err = s.invoicesToFetch(ctx, nil)
		return ids, true, err
	}
	if len(changed) == 0 {
		return nil, false, nil
	}
	named := make([]int64, 0, len(changed))
	for id := range changed {
		named = append(named, id)
	}
	for start := 0; start < len(named); start += lastUpdatesChunk {
		more, err := s.invoicesToFetch(ctx, named[start:min(start+lastUpdatesChunk, len(named))])
		if err != nil {
			return nil, false, err
		}
		ids = append(ids, more...)
	}
	return ids, false, nil
}

// ran records how a run that began at began ended: one that stopped has
// the next read the whole list (what it had to fetch is in no other).
func (w *invoiceWatch) ran(began time.Time, whole, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case !ok:
		w.whole = time.Time{}
	case whole:
		w.whole = began
	}
}

// waitIdle returns once no sync runs (at once when none does).
func (y *Syncer) waitIdle(ctx context.Context) error {
	select {
	case y.gate <- struct{}{}:
		<-y.gate
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// FetchInvoices reads the invoices of finished work the replica lacks or
// holds older than their work order, invoiceFetchParallel calls at a time,
// each after any running sync. What comes back is written in groups, one
// transaction each, and the window hears of them at most once a second
// (Store.Subscribe): at 100,000 work orders a transaction and a reload of
// the window per few invoices made the fetch cost more per invoice the
// larger the replica, and kept both cores busy for minutes. The WAL is
// folded back into the replica as it goes. A work order the service no
// longer shows is skipped; another failure stops the run, and the next
// sync's run tries again with what is still missing (what was stored is
// not read again). It returns how many invoices it stored.
func (y *Syncer) FetchInvoices(ctx context.Context) (int, error) {
	began := time.Now()
	ids, whole, err := y.invoices.next(ctx, y.s)
	if err != nil || len(ids) == 0 {
		y.invoices.ran(began, whole, err == nil)
		return 0, err
	}
	total := len(ids)
	y.log.Info("fetching the invoices of finished work", "count", total)
	progress := y.opts.InvoiceProgress
	if progress == nil {
		progress = func(int, int) {}
	}
	progress(0, total)
	var (
		mu       sync.Mutex
		firstErr error
	)
	failed := func(err error) bool {
		mu.Lock()
		defer mu.Unlock()
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return firstErr != nil
	}
	next := make(chan int64)
	got := make(chan fetchedInvoice, invoiceWriteGroup)
	var wg sync.WaitGroup
	for range invoiceFetchParallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range next {
				inv, err := y.readInvoice(ctx, id)
				if failed(err) {
					continue
				}
				got <- fetchedInvoice{id: id, inv: inv}
			}
		}()
	}
	go func() {
		defer close(next)
		for _, id := range ids {
			if y.waitIdle(ctx) != nil || failed(nil) {
				return
			}
			select {
			case next <- id:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(got)
	}()
	stored, done := 0, 0
	var group []fetchedInvoice
	var heard []int64
	told := time.Now()
	writeFailed := false // a failed read still lets those read before it be stored
	write := func() {
		if len(group) > 0 && !writeFailed {
			n, err := y.s.putInvoices(ctx, group)
			writeFailed = failed(err) && err != nil
			if err == nil {
				stored += n
				for _, g := range group {
					if g.inv != nil {
						heard = append(heard, g.id)
					}
				}
			}
		}
		done += len(group)
		group = group[:0]
		if time.Since(told) >= invoiceTellEvery || done == total {
			y.s.notify(heard)
			heard, told = nil, time.Now()
			progress(done, total)
			y.s.foldWAL(ctx)
		}
	}
	// A group is written when full, or when a quarter second has passed:
	// a transaction per invoice cost more than the invoice.
	tick := time.NewTicker(invoiceWriteEvery)
	defer tick.Stop()
read:
	for {
		select {
		case g, ok := <-got:
			if !ok {
				break read
			}
			group = append(group, g)
			if len(group) >= invoiceWriteGroup {
				write()
			}
		case <-tick.C:
			write()
		}
	}
	write()
	y.s.notify(heard)
	if done < total {
		progress(total, total) // stopped: the window says nothing more of it
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	y.invoices.ran(began, whole, firstErr == nil && done == total)
	y.log.Info("fetched the invoices of finished work", "stored", stored, "of", total, "err", firstErr)
	if total >= bigInvoiceFetch {
		// Thousands of invoices decoded and written leave tens of
		// megabytes of freed heap, which Go hands back to the system only
		// over minutes; the window then idles for hours. Give it back now,
		// at the cost of one collection.
		debug.FreeOSMemory()
	}
	return stored, firstErr
}

// bigInvoiceFetch is the fetch after which the freed heap is handed back
// at once (a first sync's, at tens of thousands of work orders).
const bigInvoiceFetch = 1000

// invoiceWriteGroup is the most invoices written in one transaction,
// invoiceWriteEvery the longest one waits to be written, and
// invoiceTellEvery how often the window hears of those written.
const (
	invoiceWriteGroup = 100
	invoiceWriteEvery = 250 * time.Millisecond
	invoiceTellEvery  = time.Second
)

// fetchedInvoice is one invoice read; inv is nil when the service no
// longer shows the work order.
type fetchedInvoice struct {
	id  int64
	inv *api.Invoice
}

// putInvoices writes the invoices read in one transaction and returns how
// many it wrote.
func (s *Store) putInvoices(ctx context.Context, group []fetchedInvoice) (int, error) {
	n := 0
	at := s.now().UnixMilli()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n = 0
		for _, g := range group {
			if g.inv == nil {
				continue
			}
			if err := putInvoice(ctx, tx, g.id, g.inv, at); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// readInvoice reads one invoice. A work order the service refuses as not
// found (3005) is left as it is: nil and no error.
func (y *Syncer) readInvoice(ctx context.Context, woID int64) (*api.Invoice, error) {
	inv, err := y.c.GetInvoice(ctx, woID)
	var apiErr *api.Error
	if errors.As(err, &apiErr) && apiErr.Code == api.CodeNotFoundOrRecalled {
		y.log.Info("invoice not found for a finished work order; skipped", "workOrder", woID)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fetching the invoice of work order %d: %w", woID, err)
	}
	if inv.WorkOrderId == 0 {
		inv.WorkOrderId = woID
	}
	return inv, nil
}
