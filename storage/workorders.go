package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// ErrNotFound means the replica holds no such record (it may simply not be
// synced yet).
var ErrNotFound = errors.New("not in the local replica")

// upsertWorkOrderSQL writes one work order's row columns and full JSON.
const upsertWorkOrderSQL = `INSERT INTO work_orders (
    id, number, status, customer_id, customer_name, site, address, currency, nte_amount,
    quote_status, scheduled_start, acknowledge_by, on_site_by, due_date, last_update, description, json)
VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
ON CONFLICT(id) DO UPDATE SET
    number=excluded.number, status=excluded.status, customer_id=excluded.customer_id,
    customer_name=excluded.customer_name, site=excluded.site, address=excluded.address,
    currency=excluded.currency, nte_amount=excluded.nte_amount, quote_status=excluded.quote_status,
    scheduled_start=excluded.scheduled_start, acknowledge_by=excluded.acknowledge_by,
    on_site_by=excluded.on_site_by, due_date=excluded.due_date, last_update=excluded.last_update,
    description=excluded.description, json=excluded.json`

// putWorkOrders writes work orders inside tx with one prepared statement.
func putWorkOrders(ctx context.Context, tx *sql.Tx, wos []api.WorkOrder) error {
	if len(wos) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, upsertWorkOrderSQL)
	if err != nil {
		return fmt.Errorf("storage: preparing the work order write: %w", err)
	}
	defer st.Close()
	for i := range wos {
		if err := putWorkOrder(ctx, st, &wos[i]); err != nil {
			return err
		}
	}
	return nil
}

func putWorkOrder(ctx context.Context, st *sql.Stmt, wo *api.WorkOrder) error {
	if wo.WorkOrderId == 0 {
		return errors.New("storage: a work order without WorkOrderId cannot be stored")
	}
	raw, err := json.Marshal(wo)
	if err != nil {
		return fmt.Errorf("storage: encoding work order %d: %w", wo.WorkOrderId, err)
	}
	var ack, onSite, due *time.Time
	if wo.Sla != nil {
		ack, onSite, due = wo.Sla.AcknowledgeBy, wo.Sla.OnSiteBy, wo.Sla.DueDate
	}
	quote := ""
	if wo.Nte.Quote != nil {
		quote = string(wo.Nte.Quote.QuoteStatus)
	}
	address := ""
	if wo.ServiceLocation != nil && wo.ServiceLocation.Address != nil {
		a := wo.ServiceLocation.Address
		address = joinNonEmpty(", ", a.Street1, a.Street2, a.City, a.State, a.PostalCode, a.Country)
	}
	workType := ""
	if wo.WorkType != nil {
		workType = wo.WorkType.Name
	}
	_, err = st.ExecContext(ctx,
		wo.WorkOrderId, wo.WorkOrderNumber, string(wo.Status), wo.Customer.Id, wo.Customer.Name,
		wo.SiteName(), address, wo.Currency, wo.Nte.Amount.Amount.String(), quote,
		ms(wo.ScheduledStart()), msPtr(ack), msPtr(onSite), msPtr(due), nanos(wo.LastUpdate),
		joinNonEmpty(" — ", workType, wo.AccompanyingMessage), string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing work order %d: %w", wo.WorkOrderId, err)
	}
	return nil
}

func joinNonEmpty(sep string, parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// PutWorkOrders writes work orders into the replica in one transaction and
// tells subscribers. Sync uses it per batch; tests and demo seeding may too.
func (s *Store) PutWorkOrders(ctx context.Context, wos []api.WorkOrder) error {
	if err := s.inTx(ctx, func(tx *sql.Tx) error { return putWorkOrders(ctx, tx, wos) }); err != nil {
		return err
	}
	ids := make([]int64, len(wos))
	for i, wo := range wos {
		ids[i] = wo.WorkOrderId
	}
	s.notify(ids)
	return nil
}

// WorkOrder returns the full stored record, or an error wrapping ErrNotFound.
func (s *Store) WorkOrder(ctx context.Context, id int64) (*api.WorkOrder, error) {
	return getWorkOrder(ctx, s.r, id)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func getWorkOrder(ctx context.Context, q queryer, id int64) (*api.WorkOrder, error) {
	var raw string
	err := q.QueryRowContext(ctx, `SELECT json FROM work_orders WHERE id = ?`, id).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("work order %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading work order %d: %w", id, err)
	}
	var wo api.WorkOrder
	if err := json.Unmarshal([]byte(raw), &wo); err != nil {
		return nil, fmt.Errorf("storage: decoding work order %d: %w", id, err)
	}
	return &wo, nil
}

// Column is what the list can be sorted by.
type Column int

// The zero Column sorts by the next deadline, soonest first: the order in
// which work has to be done.
const (
	SortNextDeadline Column = iota
	SortNumber
	SortCustomer
	SortSite
	SortStatus
	SortNte
	SortCurrency
	SortQuoteStatus
	SortScheduledStart
)

// sortExpr is the ORDER BY key of each column; each matches an index of the
// schema so that a sorted, limited list does not sort the whole table.
var sortExpr = map[Column]string{
	SortNextDeadline:   "w.next_deadline",
	SortNumber:         "w.number",
	SortCustomer:       "w.customer_name COLLATE NOCASE",
	SortSite:           "w.site COLLATE NOCASE",
	SortStatus:         "w.status",
	SortNte:            "CAST(w.nte_amount AS REAL)", // numeric order: 900 before 1000
	SortCurrency:       "w.currency",
	SortQuoteStatus:    "w.quote_status",
	SortScheduledStart: "w.scheduled_start",
}

// ListQuery selects and orders the rows of the work order list.
type ListQuery struct {
	Search         string                // what the person typed; matched as word prefixes
	Statuses       []api.WorkOrderStatus // empty = every status
	NeedsAttention bool                  // only rows that need attention
	Sort           Column
	Desc           bool
	Limit          int // 0 = no limit
}

// Row is one line of the work order list: only what the list shows.
type Row struct {
	Id                int64
	Number            string
	Customer          string
	Site              string
	Status            api.WorkOrderStatus
	Nte               api.Money // with the work order's currency; zero = no limit
	QuoteStatus       api.QuoteStatus
	ScheduledStart    time.Time // zero when not scheduled
	NextDeadline      time.Time // zero when nothing is due in this status
	NextDeadlineLabel string    // "Acknowledge by", "On site by", "Due" or ""
	Attention         bool
}

// DeadlineLabel names the SLA date that matters in a status, as the list's
// NextDeadline column is labelled.
func DeadlineLabel(st api.WorkOrderStatus) string {
	switch st {
	case api.StatusNew:
		return "Acknowledge by"
	case api.StatusAccepted, api.StatusPaused:
		return "On site by"
	case api.StatusCheckedIn, api.StatusOnHold, api.StatusNeedsCompletionDetails:
		return "Due"
	}
	return ""
}

// AttentionWindow is how close a deadline must be for a work order to need attention.
const AttentionWindow = 24 * time.Hour

// attentionExpr is true for a work order that needs attention: the customer
// requested a quote, a deadline is within AttentionWindow (or passed), one of
// its outbox rows failed, or its invoice exceeds a non-zero NTE while the
// customer can still refuse it. The IN subqueries are not correlated, so
// SQLite evaluates each once per statement, not once per row. ?1 = now+window.
const attentionExpr = `COALESCE((w.quote_status = 'Requested' AND w.status NOT IN ('Rejected','Recalled'))
 OR w.next_deadline < ?1
 OR w.id IN (SELECT t.work_order_id FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id WHERE o.state = 'failed')
 OR w.id IN (` + invoiceOverNteSQL + `), 0)`

// invoiceOverNteSQL lists work orders whose invoice total exceeds their
// non-zero NTE. Authorized and paid invoices are settled and need nothing.
const invoiceOverNteSQL = `SELECT i.work_order_id FROM invoices i JOIN work_orders n ON n.id = i.work_order_id
 WHERE i.status NOT IN ('Authorized','Paid') AND CAST(n.nte_amount AS REAL) > 0
   AND CAST(i.total AS REAL) > CAST(n.nte_amount AS REAL)`

// attentionIdsSQL is the same set as attentionExpr, built from indexed
// lookups so that counting it does not scan the table. ?1 = now+window.
const attentionIdsSQL = `SELECT id FROM work_orders WHERE quote_status = 'Requested' AND status NOT IN ('Rejected','Recalled')
 UNION SELECT id FROM work_orders WHERE next_deadline < ?1
 UNION SELECT t.work_order_id FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id WHERE o.state = 'failed'
 UNION ` + invoiceOverNteSQL

// List returns the list rows matching q, sorted as asked (ties by id). It
// reads only the row columns, never the JSON, so a 50,000-row list opens fast.
func (s *Store) List(ctx context.Context, q ListQuery) ([]Row, error) {
	soon := s.now().Add(AttentionWindow).UnixMilli()
	var where []string
	args := []any{soon}
	if match := FTSQuery(q.Search); match != "" {
		where = append(where, "w.id IN (SELECT rowid FROM work_orders_fts WHERE work_orders_fts MATCH ?)")
		args = append(args, match)
	}
	if len(q.Statuses) > 0 {
		ph := strings.Repeat("?,", len(q.Statuses))
		where = append(where, "w.status IN ("+ph[:len(ph)-1]+")")
		for _, st := range q.Statuses {
			args = append(args, string(st))
		}
	}
	if q.NeedsAttention {
		where = append(where, "w.id IN ("+attentionIdsSQL+")")
	}
	key, ok := sortExpr[q.Sort]
	if !ok {
		return nil, fmt.Errorf("storage: unknown sort column %d", q.Sort)
	}
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	var b strings.Builder
	b.WriteString(`SELECT w.id, w.number, w.customer_name, w.site, w.status, w.nte_amount, w.currency,
 w.quote_status, w.scheduled_start, w.next_deadline, ` + attentionExpr + ` FROM work_orders w`)
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	// Rows with no date sort after those with one, whichever the direction:
	// "nothing due" is never the most urgent nor the least.
	if q.Sort == SortNextDeadline || q.Sort == SortScheduledStart {
		b.WriteString(" ORDER BY " + key + " IS NULL, " + key + dir + ", w.id" + dir)
	} else {
		b.WriteString(" ORDER BY " + key + dir + ", w.id" + dir)
	}
	if q.Limit > 0 {
		b.WriteString(" LIMIT ?")
		args = append(args, q.Limit)
	}
	rows, err := s.r.QueryContext(ctx, b.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("storage: listing work orders: %w", err)
	}
	defer rows.Close()
	out := make([]Row, 0, max(q.Limit, 64))
	var (
		r                    Row
		status, nte, cur, q2 string
		sched, deadline      sql.NullInt64
	)
	for rows.Next() {
		if err := rows.Scan(&r.Id, &r.Number, &r.Customer, &r.Site, &status, &nte, &cur, &q2, &sched, &deadline, &r.Attention); err != nil {
			return nil, fmt.Errorf("storage: reading the work order list: %w", err)
		}
		r.Status = api.WorkOrderStatus(status)
		r.QuoteStatus = api.QuoteStatus(q2)
		amount, err := decimal.NewFromString(nte)
		if err != nil {
			amount = decimal.Zero
		}
		r.Nte = api.Money{Amount: amount, Currency: cur}
		r.ScheduledStart = fromMs(sched)
		r.NextDeadline = fromMs(deadline)
		r.NextDeadlineLabel = ""
		if deadline.Valid {
			r.NextDeadlineLabel = DeadlineLabel(r.Status)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the work order list: %w", err)
	}
	return out, nil
}

// StatusCounts counts the work orders of each status in the replica.
func (s *Store) StatusCounts(ctx context.Context) (map[api.WorkOrderStatus]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT status, COUNT(*) FROM work_orders GROUP BY status`)
	if err != nil {
		return nil, fmt.Errorf("storage: counting work orders: %w", err)
	}
	defer rows.Close()
	out := map[api.WorkOrderStatus]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("storage: counting work orders: %w", err)
		}
		out[api.WorkOrderStatus(st)] = n
	}
	return out, rows.Err()
}

// NeedsAttentionCount is how many work orders List{NeedsAttention: true} returns.
func (s *Store) NeedsAttentionCount(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_orders WHERE id IN (`+attentionIdsSQL+`)`,
		s.now().Add(AttentionWindow).UnixMilli()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("storage: counting work orders that need attention: %w", err)
	}
	return n, nil
}

// Count is the number of work orders in the replica.
func (s *Store) Count(ctx context.Context) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_orders`).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: counting work orders: %w", err)
	}
	return n, nil
}

// updateWorkOrder reads a work order inside tx, lets fn change it and writes
// it back, so row columns, FTS and JSON never disagree. ErrNotFound when absent.
func updateWorkOrder(ctx context.Context, tx *sql.Tx, id int64, fn func(*api.WorkOrder)) error {
	wo, err := getWorkOrder(ctx, tx, id)
	if err != nil {
		return err
	}
	fn(wo)
	wo.StampCurrency()
	return putWorkOrders(ctx, tx, []api.WorkOrder{*wo})
}
