package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// ErrNotFound means the replica holds no such record (it may simply not be
// synced yet).
var ErrNotFound = errors.New("not in the local replica")

// upsertColumns are written for each work order, in this order.
const upsertColumns = `id, number, status, customer_id, customer_name, site, address, currency, nte_amount,
    quote_status, scheduled_start, acknowledge_by, on_site_by, due_date, last_update, description`

const upsertTail = `
ON CONFLICT(id) DO UPDATE SET
    number=excluded.number, status=excluded.status, customer_id=excluded.customer_id,
    customer_name=excluded.customer_name, site=excluded.site, address=excluded.address,
    currency=excluded.currency, nte_amount=excluded.nte_amount, quote_status=excluded.quote_status,
    scheduled_start=excluded.scheduled_start, acknowledge_by=excluded.acknowledge_by,
    on_site_by=excluded.on_site_by, due_date=excluded.due_date, last_update=excluded.last_update,
    description=excluded.description`

// upsertArity is the number of upsertColumns; workOrderArgs appends the JSON
// after them, which goes to work_order_json.
const upsertArity = 16

// upsertChunk bounds the rows of one statement (16 parameters each, far
// below SQLite's 32766).
const upsertChunk = 100

// putWorkOrders writes work orders inside tx, many rows per statement. That
// matters for speed: FTS5 flushes its pending index at every statement
// boundary (statement savepoint), so one statement per row made a 10,000
// work order sync five times slower than its network time.
func putWorkOrders(ctx context.Context, tx *sql.Tx, wos []api.WorkOrder) error {
	rows := make([][]any, len(wos))
	for i := range wos {
		a, err := workOrderArgs(&wos[i], false)
		if err != nil {
			return err
		}
		rows[i] = a
	}
	return putRows(ctx, tx, rows)
}

// putRows writes rows built by workOrderArgs (see writeRows) and logs
// them for the in-memory search index.
func putRows(ctx context.Context, tx *sql.Tx, rows [][]any) error {
	if err := writeRows(ctx, tx, nil, rows); err != nil {
		return err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r[0].(int64)
	}
	if err := logSearchChanges(ctx, tx, idsJSON(ids)); err != nil {
		return fmt.Errorf("storage: writing %d work orders: %w", len(rows), err)
	}
	return nil
}

// writeRows writes rows built by workOrderArgs: the row columns, then the
// JSON beside them. The caller logs them with logSearchChanges in the same
// transaction: the sync does it once for all the batches it commits
// together, two statements instead of two per batch. batch, when not nil,
// holds the prepared statements for api.MaxReadBatch rows (the sync's
// batch size): parsing an 800-parameter statement every time cost a third
// of the insert.
func writeRows(ctx context.Context, tx *sql.Tx, batch *batchStmts, rows [][]any) error {
	if err := upsertRows(ctx, tx, batch, rows); err != nil {
		return err
	}
	if err := putCrews(ctx, tx, rows); err != nil {
		return fmt.Errorf("storage: writing %d work orders: %w", len(rows), err)
	}
	return nil
}

// upsertRows is writeRows without the crews: a sync writes the crews of
// all the batches it commits together at once, three statements instead
// of three per batch.
func upsertRows(ctx context.Context, tx *sql.Tx, batch *batchStmts, rows [][]any) error {
	for start := 0; start < len(rows); start += upsertChunk {
		chunk := rows[start:min(start+upsertChunk, len(rows))]
		args := make([]any, 0, len(chunk)*upsertArity)
		jsonArgs := make([]any, 0, len(chunk)*2)
		for _, r := range chunk {
			args = append(args, r[:upsertArity]...)
			jsonArgs = append(jsonArgs, r[0], r[upsertArity])
		}
		var err error
		if batch != nil && len(chunk) == api.MaxReadBatch {
			if _, err = tx.StmtContext(ctx, batch.rows).ExecContext(ctx, args...); err == nil {
				_, err = tx.StmtContext(ctx, batch.json).ExecContext(ctx, jsonArgs...)
			}
		} else {
			q, jq := upsertSQL(len(chunk))
			if _, err = tx.ExecContext(ctx, q, args...); err == nil {
				_, err = tx.ExecContext(ctx, jq, jsonArgs...)
			}
		}
		if err != nil {
			return fmt.Errorf("storage: writing %d work orders: %w", len(chunk), err)
		}
	}
	return nil
}

// batchStmts are the prepared upserts for one sync batch.
type batchStmts struct{ rows, json *sql.Stmt }

var upsertSQLs sync.Map // rows → statement text

// upsertSQL returns the statements writing n rows: work_orders, then work_order_json.
func upsertSQL(n int) (rows, json string) {
	if q, ok := upsertSQLs.Load(n); ok {
		p := q.([2]string)
		return p[0], p[1]
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", upsertArity), ",") + ")"
	rows = "INSERT OR FAIL INTO work_orders (" + upsertColumns + ") VALUES " +
		strings.TrimSuffix(strings.Repeat(one+",", n), ",") + upsertTail
	json = "INSERT OR FAIL INTO work_order_json (id, json) VALUES " + strings.TrimSuffix(strings.Repeat("(?,?),", n), ",") +
		" ON CONFLICT(id) DO UPDATE SET json = excluded.json"
	upsertSQLs.Store(n, [2]string{rows, json})
	return rows, json
}

// workOrderArgs are the upsertColumns values of one work order, then its
// JSON, then its branch and associates (putCrews). asDecoded says wo is exactly as the service sent it, so the JSON it
// was decoded from can be stored as is: encoding 10,000 work orders again
// cost a fifth of a first sync's CPU.
func workOrderArgs(wo *api.WorkOrder, asDecoded bool) ([]any, error) {
	if wo.WorkOrderId == 0 {
		return nil, errors.New("storage: a work order without WorkOrderId cannot be stored")
	}
	raw := wo.RawJSON()
	if !asDecoded || raw == nil {
		var err error
		if raw, err = json.Marshal(wo); err != nil {
			return nil, fmt.Errorf("storage: encoding work order %d: %w", wo.WorkOrderId, err)
		}
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
	return []any{
		wo.WorkOrderId, wo.WorkOrderNumber, string(wo.Status), wo.Customer.Id, wo.Customer.Name,
		wo.SiteName(), address, wo.Currency, wo.Nte.Amount.Amount.String(), quote,
		ms(wo.ScheduledStart()), msPtr(ack), msPtr(onSite), msPtr(due), nanos(wo.LastUpdate),
		// The JSON goes in as the bytes it is: a string copy of every record
		// was a sixth of what a first sync allocated. SQLite keeps it as a
		// BLOB, read back as text alike.
		joinNonEmpty(" — ", workType, wo.AccompanyingMessage), raw,
		crewRow{wo.BranchId, wo.Associates}, // putCrews
	}, nil
}

// joinNonEmpty joins the parts that are not blank with sep, in one
// allocation (it runs twice per work order written).
func joinNonEmpty(sep string, parts ...string) string {
	n, count, only := 0, 0, ""
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			n, count, only = n+len(p), count+1, p
		}
	}
	if count <= 1 {
		return only
	}
	var b strings.Builder
	b.Grow(n + (count-1)*len(sep))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(p)
		}
	}
	return b.String()
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
	raw, err := workOrderJSON(ctx, q, id)
	if err != nil {
		return nil, err
	}
	return decodeWorkOrder(id, raw)
}

// workOrderJSON is the stored record of work order id.
func workOrderJSON(ctx context.Context, q queryer, id int64) ([]byte, error) {
	var raw []byte
	err := q.QueryRowContext(ctx, `SELECT json FROM work_order_json WHERE id = ?`, id).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("work order %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading work order %d: %w", id, err)
	}
	return raw, nil
}

func decodeWorkOrder(id int64, raw []byte) (*api.WorkOrder, error) {
	var wo api.WorkOrder
	if err := json.Unmarshal(raw, &wo); err != nil {
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

// sortExpr is the ORDER BY key of each column; each matches an index (of the
// schema, or made on demand: onDemandIndex) so that a sorted, limited list
// does not sort the whole table.
var sortExpr = map[Column]string{
	SortNextDeadline:   "w.deadline", // migration 0010: the SLA date ahead, or the invoice's
	SortNumber:         "w.number",
	SortCustomer:       "w.customer_name COLLATE NOCASE",
	SortSite:           "w.site COLLATE NOCASE",
	SortStatus:         "w.status",
	SortNte:            "CAST(w.nte_amount AS REAL)", // numeric order: 900 before 1000
	SortCurrency:       "w.currency",
	SortQuoteStatus:    "w.quote_status",
	SortScheduledStart: "w.scheduled_start",
}

// sortIndex names the index that serves each ORDER BY (ascending; backwards
// for descending, except on the dated columns whose "none last" rule mixes
// directions).
var sortIndex = map[Column]string{
	SortNextDeadline:   "work_orders_deadline",
	SortNumber:         "work_orders_number",
	SortCustomer:       "work_orders_customer",
	SortSite:           "work_orders_site",
	SortStatus:         "work_orders_status",
	SortNte:            "work_orders_nte",
	SortCurrency:       "work_orders_currency",
	SortQuoteStatus:    "work_orders_quote_status",
	SortScheduledStart: "work_orders_scheduled",
}

// broadSearch is how many matches make walking the sort index (and testing
// each row against the match set) cheaper than sorting every match. Typing
// "n" matches tens of thousands of rows; sorting them all to show the first
// 200 took tens of milliseconds, the walk a few.
const broadSearch = 2000

// ListQuery selects and orders the rows of the work order list.
type ListQuery struct {
	Search         string                // what the person typed; matched as word prefixes
	Statuses       []api.WorkOrderStatus // empty = every status
	NeedsAttention bool                  // only rows that need attention
	// Keep are work orders listed whatever the statuses and attention
	// filters say (the search still applies): those the person just acted
	// on stay in view, with their new status, until they move on.
	Keep []int64
	// Held are work orders the list draws itself, where they were when the
	// person acted on them: left out of the rows and their count whatever
	// the filters say, so that the rows around them do not move either.
	Held []int64
	// Assignee keeps the work orders assigned to that associate;
	// NoAssignee those whose record says nobody is (not those that do not
	// say); 0 = anyone.
	Assignee int64
	Sort     Column
	Desc     bool
	Limit    int // 0 = no limit
	Offset   int // rows to skip (with Limit: one page of the list)
}

// filtered reports whether q has a filter besides its search.
func (q ListQuery) filtered() bool {
	return len(q.Statuses) > 0 || q.NeedsAttention || len(q.Held) > 0
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
	NextDeadlineLabel string    // "Acknowledge by", "On site by", "Due", "Invoice by" or ""
	Attention         bool      // Why is not NoAttention
	Why               api.Attention
}

// AttentionWindow is how close a deadline must be for a work order to need attention.
const AttentionWindow = api.AttentionWindow

// List returns the list rows matching q, sorted as asked (ties by id). It
// reads only the row columns, never the JSON, so a 50,000-row list opens fast.
func (s *Store) List(ctx context.Context, q ListQuery) ([]Row, error) {
	soon := s.now().Add(AttentionWindow).UnixMilli()
	match, where, args := listFilter(q)
	args = append([]any{soon}, args...)
	if err := s.prepareSort(ctx, q.Sort); err != nil {
		return nil, err
	}
	if m, digits, ok := searchQuery(q); ok && q.Limit > 0 {
		// A page of a search: from the set it finds (see findSearch).
		rows, _, err := s.searchRows(ctx, q, m, digits)
		return rows, err
	}
	if err := s.waitFTSFor(ctx, q); err != nil {
		return nil, err
	}
	dated := q.Sort == SortNextDeadline || q.Sort == SortScheduledStart
	indexed := ""
	if match != "" && q.Limit > 0 && !(dated && q.Desc) {
		broad, err := s.matchesAtLeast(ctx, match, broadSearch)
		if err != nil {
			return nil, err
		}
		if broad {
			indexed = " INDEXED BY " + sortIndex[q.Sort]
		}
	}
	if q.Limit > 0 {
		args = append(args, q.Limit, q.Offset)
	}
	listSQL := func(indexed string) string {
		var b strings.Builder
		// ?1 (now + AttentionWindow, which the attention filter uses)
		// comes first in the text so the bare ?s that follow number from
		// 2; "?1 IS NOT NULL" is constant and costs nothing.
		b.WriteString(listColumns + ` FROM work_orders w` + indexed + " WHERE ?1 IS NOT NULL")
		for _, w := range where {
			b.WriteString(" AND " + w)
		}
		b.WriteString(listOrder(q))
		if q.Limit > 0 {
			b.WriteString(" LIMIT ? OFFSET ?")
		}
		return b.String()
	}
	rows, err := s.r.QueryContext(ctx, listSQL(indexed), args...)
	if err != nil && indexed != "" && strings.Contains(err.Error(), "no such index") {
		// A bulk sync has the sort indexes off until it ends (deferFTS).
		rows, err = s.r.QueryContext(ctx, listSQL(""), args...)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: listing work orders: %w", err)
	}
	return scanListRows(rows, max(q.Limit, 64), s.ruleNow())
}

// RowsOf reads the list rows of ids, whatever a query would say of them
// (those the replica does not hold are left out): the rows the list holds
// in place (ListQuery.Held).
func (s *Store) RowsOf(ctx context.Context, ids []int64) (map[int64]Row, error) {
	out := make(map[int64]Row, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	soon := s.now().Add(AttentionWindow).UnixMilli()
	rows, err := s.r.QueryContext(ctx, listColumns+` FROM work_orders w WHERE ?1 IS NOT NULL AND w.id IN (SELECT value FROM json_each(?2))`, soon, idsJSON(ids))
	if err != nil {
		return nil, fmt.Errorf("storage: reading work orders held in the list: %w", err)
	}
	list, err := scanListRows(rows, len(ids), s.ruleNow())
	if err != nil {
		return nil, fmt.Errorf("storage: reading work orders held in the list: %w", err)
	}
	for _, r := range list {
		out[r.Id] = r
	}
	return out, nil
}

// searchRows returns the page q (Limit > 0) of a search, under the list's
// filters if it has any, and how many work orders it finds.
func (s *Store) searchRows(ctx context.Context, q ListQuery, match string, numbers []string) ([]Row, int, error) {
	set, err := s.findSearch(ctx, q, match, numbers)
	if err != nil {
		return nil, 0, err
	}
	page, err := s.searchPageIDs(ctx, q, set)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.rowsByID(ctx, page)
	return rows, set.n, err
}

// rowsByID reads the list rows of ids, in that order.
func (s *Store) rowsByID(ctx context.Context, ids []int64) ([]Row, error) {
	if len(ids) == 0 {
		return []Row{}, nil
	}
	rows, err := s.r.QueryContext(ctx, listColumns+` FROM work_orders w WHERE w.id IN (SELECT value FROM json_each(?))`, idsJSON(ids))
	if err != nil {
		return nil, fmt.Errorf("storage: listing work orders: %w", err)
	}
	got, err := scanListRows(rows, len(ids), s.ruleNow())
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	out := make([]Row, len(ids))
	n := 0
	for _, r := range got {
		if i, ok := at[r.Id]; ok {
			out[i] = r
			n++
		}
	}
	if n < len(ids) {
		// A row went between the two reads (never in practice: work
		// orders are not deleted): drop the gaps.
		out = slices.DeleteFunc(out, func(r Row) bool { return r.Id == 0 })
	}
	return out, nil
}

// listColumns are what List reads of each row, in scanListRows' order: the
// row, and the facts of the attention rule the row does not hold. The IN
// subqueries are not correlated, so SQLite evaluates each once per
// statement, not once per row.
const listColumns = `SELECT w.id, w.number, w.customer_name, w.site, w.status, w.nte_amount, w.currency,
 w.quote_status, w.scheduled_start, w.deadline,
 w.id IN (` + refusedSQL + `), w.id IN (` + invoiceOverNteSQL + `)`

// listOrder is the ORDER BY of q, with a leading space: q.Sort's key, ties
// by id. Rows with no date sort after those with one, whichever the
// direction: "nothing due" is never the most urgent nor the least.
func listOrder(q ListQuery) string {
	key := sortExpr[q.Sort]
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	if q.Sort == SortNextDeadline || q.Sort == SortScheduledStart {
		return " ORDER BY " + key + " IS NULL, " + key + dir + ", w.id" + dir
	}
	return " ORDER BY " + key + dir + ", w.id" + dir
}

// scanListRows reads the rows of a listColumns query and closes them;
// whether each needs attention is judged at now.
func scanListRows(rows *sql.Rows, capacity int, now time.Time) ([]Row, error) {
	out := make([]Row, 0, capacity)
	err := eachListRow(rows, now, func(r Row) error { out = append(out, r); return nil })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachListRow calls fn with each row of a listColumns query, whether it
// needs attention judged at now, stopping at fn's first error, and closes
// the rows.
func eachListRow(rows *sql.Rows, now time.Time, fn func(Row) error) error {
	defer rows.Close()
	var (
		r                    Row
		status, nte, cur, q2 string
		sched, deadline      sql.NullInt64
		refused, overNte     bool
	)
	for rows.Next() {
		if err := rows.Scan(&r.Id, &r.Number, &r.Customer, &r.Site, &status, &nte, &cur, &q2, &sched, &deadline, &refused, &overNte); err != nil {
			return fmt.Errorf("storage: reading the work order list: %w", err)
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
			r.NextDeadlineLabel = r.Status.NextDeadline().Label()
		}
		r.Why = api.AttentionFacts{Status: r.Status, QuoteStatus: r.QuoteStatus, Deadline: r.NextDeadline,
			Refused: refused, InvoiceOverNte: overNte}.Of(now)
		r.Attention = r.Why != api.NoAttention
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: reading the work order list: %w", err)
	}
	return nil
}

// matchesAtLeast reports whether the FTS match has at least n rows; it stops
// counting there, so it costs little whatever the answer.
func (s *Store) matchesAtLeast(ctx context.Context, match string, n int) (bool, error) {
	var got int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT rowid FROM work_orders_fts WHERE work_orders_fts MATCH ? LIMIT ?)`,
		match, n).Scan(&got)
	if err != nil {
		return false, fmt.Errorf("storage: searching: %w", err)
	}
	return got >= n, nil
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
