package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// CustomerSettings is the stored copy of what a customer requires of a visit,
// or ErrNotFound when no sync has read it yet (then the service judges).
func (s *Store) CustomerSettings(ctx context.Context, customerID int64) (*api.CustomerSettings, error) {
	var cs api.CustomerSettings
	found, err := s.readJSON(ctx, `SELECT json FROM customer_settings WHERE customer_id = ?`, &cs, customerID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("settings of customer %d: %w", customerID, ErrNotFound)
	}
	return &cs, nil
}

// PutCustomerSettings stores a customer's settings as the service gave them.
func (s *Store) PutCustomerSettings(ctx context.Context, cs *api.CustomerSettings) error {
	return putCustomerSettings(ctx, s.w, cs, s.now().UnixMilli())
}

func putCustomerSettings(ctx context.Context, tx execer, cs *api.CustomerSettings, at int64) error {
	raw, err := json.Marshal(cs)
	if err != nil {
		return fmt.Errorf("storage: encoding the settings of customer %d: %w", cs.CustomerId, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO customer_settings(customer_id, fetched_at, json) VALUES (?,?,?)
ON CONFLICT(customer_id) DO UPDATE SET fetched_at=excluded.fetched_at, json=excluded.json`, cs.CustomerId, at, string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing the settings of customer %d: %w", cs.CustomerId, err)
	}
	return nil
}

// knownCustomers lists every customer of the stored work orders.
func (s *Store) knownCustomers(ctx context.Context) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT customer_id FROM work_orders WHERE customer_id > 0 ORDER BY customer_id`)
	if err != nil {
		return nil, fmt.Errorf("storage: reading customers: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: reading customers: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// settingsOf is the settings of wo's customer, nil when not known: the
// client's rules then leave the judgement to the service.
func (s *Store) settingsOf(ctx context.Context, wo *api.WorkOrder) (*api.CustomerSettings, error) {
	cs, err := s.CustomerSettings(ctx, wo.Customer.Id)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return cs, err
}

// SettingsMaxAge is how long a customer's stored settings are trusted
// without a change to its work orders: a customer that tightens its rules
// (forbids back-dating, asks a new question) sends no notification, and a
// quiet customer would otherwise keep its old rules in the replica for ever.
// Customers are few, so an hourly read of each costs little.
const SettingsMaxAge = time.Hour

// customersOf lists the distinct customers of the stored work orders ids,
// those whose settings were never read, and those read longer ago than
// SettingsMaxAge.
func (s *Store) customersOf(ctx context.Context, ids []int64) ([]int64, error) {
	// Customers never read yet (a replica from before customer settings
	// existed) are refreshed too, whether or not their work orders changed.
	// Every customer held is found by stepping through the customer index
	// (work_orders_by_customer) from one to the next, a seek each: a
	// DISTINCT over the table read every stored work order on every sync.
	rows, err := s.r.QueryContext(ctx, `WITH RECURSIVE held(id) AS (
   SELECT MIN(customer_id) FROM work_orders WHERE customer_id > 0
   UNION ALL
   SELECT (SELECT MIN(customer_id) FROM work_orders WHERE customer_id > held.id) FROM held WHERE held.id IS NOT NULL)
 SELECT customer_id FROM work_orders WHERE id IN (SELECT value FROM json_each(?1)) AND customer_id > 0
 UNION
 SELECT id FROM held WHERE id IS NOT NULL AND (id NOT IN (SELECT customer_id FROM customer_settings)
   OR id IN (SELECT customer_id FROM customer_settings WHERE fetched_at < ?2))
 ORDER BY 1`,
		idsJSON(ids), s.now().Add(-SettingsMaxAge).UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("storage: reading customers: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: reading customers: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// refreshSettingsWhile starts reading, beside the sync's fetch, the
// settings of the customers the search named and of those whose stored
// settings are missing or stale; the function it returns waits for that
// and reports whether the search named any customer (if not, the caller
// reads them from the stored rows once they are there).
func (y *Syncer) refreshSettingsWhile(ctx context.Context, found []api.Found) func() bool {
	var named []int64
	for _, wo := range found {
		if id := wo.Customer.Id; id > 0 && !slices.Contains(named, id) {
			named = append(named, id)
		}
	}
	if len(named) == 0 {
		return func() bool { return false }
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		stale, err := y.s.customersOf(ctx, nil)
		if err != nil {
			y.log.Warn("could not list the customers to refresh", "err", err)
		}
		for _, id := range stale {
			if !slices.Contains(named, id) {
				named = append(named, id)
			}
		}
		y.readSettings(ctx, named)
	}()
	return func() bool {
		<-done
		return true
	}
}

// refreshCustomerSettings reads the settings of every customer of the work
// orders a sync saw. The endpoint's query key and schema are guesses
// (api.CustomerSettings), so a failure is logged, not returned: a wrong
// guess must not stop the sync, and the replica keeps what it had.
func (y *Syncer) refreshCustomerSettings(ctx context.Context, seen []int64) {
	customers, err := y.s.customersOf(ctx, seen)
	if err != nil {
		y.log.Warn("could not list the customers to refresh", "err", err)
		return
	}
	y.readSettings(ctx, customers)
}

// readSettings reads and stores each customer's settings, a few at a time.
func (y *Syncer) readSettings(ctx context.Context, customers []int64) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, id := range customers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			y.readSettingsOf(ctx, id)
		}()
	}
	wg.Wait()
}

func (y *Syncer) readSettingsOf(ctx context.Context, id int64) {
	cs, err := y.c.GetCustomerSettings(ctx, id)
	if err == nil {
		err = y.s.PutCustomerSettings(ctx, cs)
	}
	if err != nil {
		y.log.Warn("could not refresh a customer's settings; keeping the stored ones", "customer", id, "err", err)
	}
}
