package hub

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// StoreWorkOrders writes full work orders in one transaction. A record
// older than the stored one is skipped, so a slow sync never undoes the
// re-read that followed a write.
func (db *DB) StoreWorkOrders(ctx context.Context, wos []api.WorkOrder) error {
	if len(wos) == 0 {
		return nil
	}
	// In id order: two transactions storing overlapping work orders (a
	// sync, a bulk write's re-read) lock their rows in one order, never
	// crosswise.
	order := make([]*api.WorkOrder, len(wos))
	for i := range wos {
		order[i] = &wos[i]
	}
	slices.SortFunc(order, func(x, y *api.WorkOrder) int { return cmp.Compare(x.WorkOrderId, y.WorkOrderId) })
	b := &pgx.Batch{}
	for _, w := range order {
		doc := w.RawJSON()
		if doc == nil {
			var err error
			if doc, err = json.Marshal(w); err != nil {
				return fmt.Errorf("hub: encoding work order %d: %w", w.WorkOrderId, err)
			}
		}
		basic, err := json.Marshal(serve.Basic(w))
		if err != nil {
			return fmt.Errorf("hub: encoding work order %d: %w", w.WorkOrderId, err)
		}
		var ack, onSite, due *time.Time
		if w.Sla != nil {
			ack, onSite, due = w.Sla.AcknowledgeBy, w.Sla.OnSiteBy, w.Sla.DueDate
		}
		var created *time.Time
		if !w.Created.IsZero() {
			created = &w.Created
		}
		b.Queue(`INSERT INTO work_orders (id, number, status, customer_id, created, last_update, acknowledge_by, on_site_by, due_date, basic, doc)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (id) DO UPDATE SET number = EXCLUDED.number, status = EXCLUDED.status, customer_id = EXCLUDED.customer_id,
				created = EXCLUDED.created, last_update = EXCLUDED.last_update, acknowledge_by = EXCLUDED.acknowledge_by,
				on_site_by = EXCLUDED.on_site_by, due_date = EXCLUDED.due_date, basic = EXCLUDED.basic, doc = EXCLUDED.doc
			WHERE work_orders.last_update <= EXCLUDED.last_update`,
			w.WorkOrderId, w.WorkOrderNumber, string(w.Status), w.Customer.Id, created, w.LastUpdate, ack, onSite, due, string(basic), string(doc))
	}
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return fmt.Errorf("hub: storing %d work orders: %w", len(wos), err)
	}
	return nil
}

// DeleteWorkOrder forgets a work order the service no longer shows
// (recalled), and the answers stored about it.
func (db *DB) DeleteWorkOrder(ctx context.Context, id int64) error {
	// The work order first, then its reads, as storeRead locks them: an
	// answer being stored meanwhile is either gone with the rest or never
	// stored.
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM work_orders WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM reads WHERE work_order_id = $1`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("hub: forgetting work order %d: %w", id, err)
	}
	return nil
}

// lastUpdates maps the stored work orders to their LastUpdate, for a sync to
// skip what it holds already.
func (db *DB) lastUpdates(ctx context.Context, ids []int64) (map[int64]time.Time, error) {
	rows, err := db.Pool.Query(ctx, `SELECT id, last_update FROM work_orders WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("hub: reading stored versions: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]time.Time, len(ids))
	for rows.Next() {
		var id int64
		var t time.Time
		if err := rows.Scan(&id, &t); err != nil {
			return nil, fmt.Errorf("hub: reading stored versions: %w", err)
		}
		out[id] = t
	}
	return out, rows.Err()
}

// writeSearch writes the search answer for p to w as the service does:
// {"WorkOrders":[...],"MessageId":id}, in LastUpdate order, streamed from
// the rows so a search over the whole replica holds no copy of it.
func (db *DB) writeSearch(ctx context.Context, w io.Writer, p api.SearchParameters, messageId string) error {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if p.WorkOrderNumber != "" {
		where = append(where, "lower(number) = lower("+arg(p.WorkOrderNumber)+")")
	}
	if p.CustomerId != 0 {
		where = append(where, "customer_id = "+arg(p.CustomerId))
	}
	if len(p.Statuses) > 0 {
		st := make([]string, len(p.Statuses))
		for i, s := range p.Statuses {
			st[i] = string(s)
		}
		where = append(where, "status = ANY("+arg(st)+")")
	}
	for _, r := range []struct {
		col string
		r   *api.DateRange
	}{{"created", p.Created}, {"acknowledge_by", p.AcknowledgeBy}, {"on_site_by", p.OnSiteBy}, {"due_date", p.DueDate}, {"last_update", p.LastUpdate}} {
		if r.r == nil {
			continue
		}
		if r.r.From != nil {
			where = append(where, r.col+" >= "+arg(*r.r.From))
		}
		if r.r.To != nil {
			where = append(where, r.col+" <= "+arg(*r.r.To))
		}
	}
	q := "SELECT basic FROM work_orders"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY last_update, id"
	rows, err := db.Pool.Query(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("hub: searching: %w", err)
	}
	defer rows.Close()
	bw := newJSONList(w, "WorkOrders")
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return fmt.Errorf("hub: searching: %w", err)
		}
		if err := bw.item(raw); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("hub: searching: %w", err)
	}
	return bw.end(messageId)
}

// writeWorkOrders writes GET /api/workOrder's answer for ids, in the order
// asked; unknown ids are left out as the service does.
func (db *DB) writeWorkOrders(ctx context.Context, w io.Writer, ids []int64, messageId string) error {
	rows, err := db.Pool.Query(ctx, `SELECT w.doc FROM unnest($1::bigint[]) WITH ORDINALITY AS a(id, n)
		JOIN work_orders w ON w.id = a.id ORDER BY a.n`, ids)
	if err != nil {
		return fmt.Errorf("hub: reading work orders: %w", err)
	}
	defer rows.Close()
	bw := newJSONList(w, "WorkOrders")
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return fmt.Errorf("hub: reading work orders: %w", err)
		}
		if err := bw.item(raw); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("hub: reading work orders: %w", err)
	}
	return bw.end(messageId)
}

// jsonList writes {"key":[item,item,...],"MessageId":"..."} piece by piece.
type jsonList struct {
	w     io.Writer
	key   string
	count int
	err   error
}

func newJSONList(w io.Writer, key string) *jsonList { return &jsonList{w: w, key: key} }

func (l *jsonList) write(s []byte) {
	if l.err == nil {
		_, l.err = l.w.Write(s)
	}
}

func (l *jsonList) item(raw []byte) error {
	if l.count == 0 {
		l.write([]byte(`{"` + l.key + `":[`))
	} else {
		l.write([]byte{','})
	}
	l.count++
	l.write(raw)
	return l.err
}

func (l *jsonList) end(messageId string) error {
	if l.count == 0 {
		l.write([]byte(`{"` + l.key + `":[`))
	}
	id, _ := json.Marshal(messageId)
	l.write([]byte(`],"MessageId":`))
	l.write(id)
	l.write([]byte("}\n"))
	return l.err
}

// heldWorkOrder is a stored record and whether a sync stored a change to
// it that no notification's event has told yet (recently: see untoldFor).
type heldWorkOrder struct {
	doc    string
	untold bool
}

// untoldFor is how long a change a sync stored waits for its notification
// to tell desktops of it: notifications arrive within seconds; one that
// names the work order later is no sign of that change.
const untoldFor = 10 * time.Minute

// workOrderDocs are the stored records of those of ids the replica holds.
func (db *DB) workOrderDocs(ctx context.Context, ids []int64) (map[int64]heldWorkOrder, error) {
	rows, err := db.Pool.Query(ctx, `SELECT id, doc, coalesce(synced_unannounced > now() - $2::interval, false)
		FROM work_orders WHERE id = ANY($1)`, ids, untoldFor)
	if err != nil {
		return nil, fmt.Errorf("hub: reading stored work orders: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]heldWorkOrder, len(ids))
	for rows.Next() {
		var id int64
		var h heldWorkOrder
		if err := rows.Scan(&id, &h.doc, &h.untold); err != nil {
			return nil, fmt.Errorf("hub: reading stored work orders: %w", err)
		}
		out[id] = h
	}
	return out, rows.Err()
}

// markSynced records that a sync stored changes to ids no event has told.
func (db *DB) markSynced(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := db.Pool.Exec(ctx, `UPDATE work_orders SET synced_unannounced = now()
		WHERE id IN (SELECT id FROM work_orders WHERE id = ANY($1) ORDER BY id FOR UPDATE)`, ids)
	if err != nil {
		return fmt.Errorf("hub: marking what a sync changed: %w", err)
	}
	return nil
}

// told records, in tx, that an event told desktops of ids as they are.
func told(ctx context.Context, tx pgx.Tx, ids []int64) error {
	_, err := tx.Exec(ctx, `UPDATE work_orders SET synced_unannounced = NULL
		WHERE id IN (SELECT id FROM work_orders WHERE id = ANY($1) AND synced_unannounced IS NOT NULL ORDER BY id FOR UPDATE)`, ids)
	if err != nil {
		return fmt.Errorf("hub: marking work orders told: %w", err)
	}
	return nil
}
