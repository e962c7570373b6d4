package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"

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
// change: the invoice may have moved with it.
func (s *Store) invoicesToFetch(ctx context.Context) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT w.id FROM work_orders w LEFT JOIN invoices i ON i.work_order_id = w.id
WHERE w.status IN (?,?) AND (i.work_order_id IS NULL OR i.fetched_at * 1000000 < w.last_update)
ORDER BY w.last_update DESC`, string(api.StatusCheckedOut), string(api.StatusVerified))
	if err != nil {
		return nil, fmt.Errorf("storage: listing the invoices to fetch: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: listing the invoices to fetch: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
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
// each after any running sync; the window hears of them in groups
// (Store.Subscribe). A work order the service no longer shows is skipped;
// another failure stops the run, and the next sync's run tries again.
// It returns how many invoices it stored.
func (y *Syncer) FetchInvoices(ctx context.Context) (int, error) {
	ids, err := y.s.invoicesToFetch(ctx)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	y.log.Info("fetching the invoices of finished work", "count", len(ids))
	var (
		mu       sync.Mutex
		stored   int
		changed  []int64
		firstErr error
	)
	flush := func(force bool) {
		mu.Lock()
		batch := changed
		if !force && len(batch) < 20 {
			mu.Unlock()
			return
		}
		changed = nil
		mu.Unlock()
		if len(batch) > 0 {
			y.s.notify(batch)
		}
	}
	next := make(chan int64)
	var wg sync.WaitGroup
	for range invoiceFetchParallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range next {
				ok, err := y.fetchInvoice(ctx, id)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				if !ok {
					continue
				}
				mu.Lock()
				stored++
				changed = append(changed, id)
				mu.Unlock()
				flush(false)
			}
		}()
	}
feed:
	for _, id := range ids {
		if err := y.waitIdle(ctx); err != nil {
			break
		}
		mu.Lock()
		failed := firstErr != nil
		mu.Unlock()
		if failed {
			break
		}
		select {
		case next <- id:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	flush(true)
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	y.log.Info("fetched the invoices of finished work", "stored", stored, "of", len(ids), "err", firstErr)
	return stored, firstErr
}

// fetchInvoice reads one invoice into the replica. A work order the
// service refuses as not found (3005) is left as it is.
func (y *Syncer) fetchInvoice(ctx context.Context, woID int64) (stored bool, err error) {
	inv, err := y.c.GetInvoice(ctx, woID)
	var apiErr *api.Error
	if errors.As(err, &apiErr) && apiErr.Code == api.CodeNotFoundOrRecalled {
		y.log.Info("invoice not found for a finished work order; skipped", "workOrder", woID)
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("fetching the invoice of work order %d: %w", woID, err)
	}
	if inv.WorkOrderId == 0 {
		inv.WorkOrderId = woID
	}
	return true, putInvoice(ctx, y.s.w, woID, inv, y.s.now().UnixMilli())
}
