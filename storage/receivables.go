package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// The receivables view reads the invoices the replica holds across work
// orders, whatever their status: one we do not know is "other (its name)"
// (api.InvoiceStatus.StatusWords), never left out: the ones the window
// fetched when a work order was opened, the ones notifications re-read, and those of finished work the engine
// fetches in the background after a sync (FetchInvoices).

// Receivables lists the invoices the replica holds that pass f, the oldest
// first (those without a date last). AuthNumber, CheckNumber, PaidDate and
// a dispute's reason are the invoice's own as the service returned it;
// where it did not say, the customer's latest InvoiceStatusChanged
// notification fills them in, as it said them.
func (s *Store) Receivables(ctx context.Context, f api.ReceivableFilter) ([]api.Receivable, error) {
	if f.Now.IsZero() {
		f.Now = s.now()
	}
	q := `SELECT w.id, w.number, w.customer_id, w.customer_name, w.currency, i.json,
 (SELECT e.json FROM events e WHERE e.work_order_id = w.id AND e.action = ?
   ORDER BY COALESCE(e.action_date, e.received_at) DESC, e.id DESC LIMIT 1)
FROM invoices i JOIN work_orders w ON w.id = i.work_order_id
WHERE (i.status <> ? OR CAST(i.total AS REAL) <> 0)`
	args := []any{api.ActionInvoiceStatusChanged, string(api.InvoiceDraft)}
	if f.CustomerId != 0 {
		q += ` AND w.customer_id = ?`
		args = append(args, f.CustomerId)
	}
	switch {
	case f.Other:
		// The statuses we know and are not asked for are left out; any
		// other (a name we did not guess) is "other", kept (f.Keeps).
		var left []any
		for _, st := range api.AllInvoiceStatuses {
			if !slices.Contains(f.Statuses, st) {
				left = append(left, string(st))
			}
		}
		if len(left) > 0 {
			q += ` AND i.status NOT IN (?` + strings.Repeat(",?", len(left)-1) + `)`
			args = append(args, left...)
		}
	case len(f.Statuses) > 0:
		q += ` AND i.status IN (?` + strings.Repeat(",?", len(f.Statuses)-1) + `)`
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the receivables: %w", err)
	}
	defer rows.Close()
	var out []api.Receivable
	for rows.Next() {
		var r api.Receivable
		var currency, rawInv string
		var rawEv sql.NullString
		if err := rows.Scan(&r.WorkOrderId, &r.WorkOrderNumber, &r.Customer.Id, &r.Customer.Name, &currency, &rawInv, &rawEv); err != nil {
			return nil, fmt.Errorf("storage: reading the receivables: %w", err)
		}
		var inv api.Invoice
		if err := json.Unmarshal([]byte(rawInv), &inv); err != nil {
			return nil, fmt.Errorf("storage: decoding the invoice of work order %d: %w", r.WorkOrderId, err)
		}
		if inv.Currency == "" {
			inv.Currency = currency
			inv.StampCurrency()
		}
		r.Status, r.InvoiceNumber, r.Amount = inv.Status, inv.InvoiceNumber, inv.TotalAmount
		r.Submitted, r.AuthNumber, r.CheckNumber, r.PaidDate, r.Comment = inv.InvoiceDate, inv.AuthNumber, inv.CheckNumber, inv.PaidDate, inv.Comment
		if rawEv.Valid {
			fillFromNotice(&r, rawEv.String)
		}
		if f.Keeps(r) {
			out = append(out, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the receivables: %w", err)
	}
	// Oldest submitted first; drafts, invoices awaiting verification and
	// undated ones after them (api.Receivable.SubmittedOn).
	slices.SortStableFunc(out, func(a, b api.Receivable) int {
		as, bs := a.SubmittedOn(), b.SubmittedOn()
		switch {
		case as == nil && bs == nil:
		case as == nil:
			return 1
		case bs == nil:
			return -1
		default:
			if c := as.Compare(*bs); c != 0 {
				return c
			}
		}
		return strings.Compare(a.WorkOrderNumber, b.WorkOrderNumber)
	})
	return out, nil
}

// fillFromNotice fills what the invoice record left empty from the latest
// InvoiceStatusChanged notification, when it speaks of the status the
// invoice is in now (an older notice speaks of a status since left).
func fillFromNotice(r *api.Receivable, raw string) {
	ev, err := parseEvent([]byte(raw))
	if err != nil {
		return
	}
	n, ok := ev.Body.(*api.InvoiceStatusChangedEvent)
	if !ok || n.Status != r.Status {
		return
	}
	if r.AuthNumber == "" {
		r.AuthNumber = n.AuthNumber
	}
	if r.CheckNumber == "" {
		r.CheckNumber = n.CheckNumber
	}
	if r.PaidDate == nil && n.PaidDate != nil {
		d := n.PaidDate.UTC()
		r.PaidDate = &d
	}
	if r.Comment == "" {
		r.Comment = n.Comment
	}
}

// ReceivableCustomers lists the customers that have an invoice in the
// replica, by name: the receivables view's customer filter.
func (s *Store) ReceivableCustomers(ctx context.Context) ([]api.Customer, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT w.customer_id, w.customer_name
FROM invoices i JOIN work_orders w ON w.id = i.work_order_id ORDER BY w.customer_name COLLATE NOCASE, w.customer_id`)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the customers with invoices: %w", err)
	}
	defer rows.Close()
	var out []api.Customer
	for rows.Next() {
		var c api.Customer
		if err := rows.Scan(&c.Id, &c.Name); err != nil {
			return nil, fmt.Errorf("storage: reading the customers with invoices: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// metBy says which deadline each recorded action meets.
var metBy = map[string]api.Deadline{
	api.ActionAccepted: api.AcknowledgeBy, api.ActionRejected: api.AcknowledgeBy,
	api.ActionCheckedIn:  api.OnSiteBy,
	api.ActionCheckedOut: api.DueBy, api.ActionNeedsCompletionDetails: api.DueBy,
}

// metByKind is metBy for our own actions the service took.
var metByKind = map[outbox.Kind]api.Deadline{
	outbox.KindAccept: api.AcknowledgeBy, outbox.KindReject: api.AcknowledgeBy,
	outbox.KindBulkAccept: api.AcknowledgeBy, outbox.KindBulkReject: api.AcknowledgeBy,
	outbox.KindCheckIn: api.OnSiteBy, outbox.KindCheckOut: api.DueBy,
}

// SlaRecords reads the work orders with an SLA deadline from from on,
// each with the moments the replica recorded meeting its deadlines: the
// ActionDate of an Accepted, Rejected, CheckedIn or CheckedOut
// notification, or one of our own actions the service took (a visit at
// the time it was back-dated to or tapped, an accept or reject when it
// landed). The earliest recorded moment of each counts.
func (s *Store) SlaRecords(ctx context.Context, from time.Time) ([]api.SlaRecord, error) {
	f := from.UnixMilli()
	rows, err := s.r.QueryContext(ctx, `SELECT id, customer_id, customer_name, status, acknowledge_by, on_site_by, due_date
FROM work_orders WHERE acknowledge_by >= ? OR on_site_by >= ? OR due_date >= ?`, f, f, f)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the SLA deadlines: %w", err)
	}
	var out []api.SlaRecord
	at := map[int64]int{}
	for rows.Next() {
		var r api.SlaRecord
		var ack, onSite, due sql.NullInt64
		if err := rows.Scan(&r.WorkOrderId, &r.Customer.Id, &r.Customer.Name, &r.Status, &ack, &onSite, &due); err != nil {
			rows.Close()
			return nil, fmt.Errorf("storage: reading the SLA deadlines: %w", err)
		}
		r.Sla = &api.Sla{AcknowledgeBy: nullMs(ack), OnSiteBy: nullMs(onSite), DueDate: nullMs(due)}
		at[r.WorkOrderId] = len(out)
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the SLA deadlines: %w", err)
	}
	met := func(woID int64, d api.Deadline, t time.Time) {
		i, ok := at[woID]
		if !ok || t.IsZero() {
			return
		}
		r := &out[i]
		if r.Met == nil {
			r.Met = map[api.Deadline]time.Time{}
		}
		if cur, ok := r.Met[d]; !ok || t.Before(cur) {
			r.Met[d] = t
		}
	}
	// Events: only the actions that meet a deadline, of work orders whose
	// deadlines are in the period (an index on events(work_order_id) serves).
	evRows, err := s.r.QueryContext(ctx, `SELECT work_order_id, action, MIN(action_date) FROM events
WHERE action IN (?,?,?,?,?) AND action_date IS NOT NULL GROUP BY work_order_id, action`,
		api.ActionAccepted, api.ActionRejected, api.ActionCheckedIn, api.ActionCheckedOut, api.ActionNeedsCompletionDetails)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the recorded visits: %w", err)
	}
	for evRows.Next() {
		var woID, when int64
		var action string
		if err := evRows.Scan(&woID, &action, &when); err != nil {
			evRows.Close()
			return nil, fmt.Errorf("storage: reading the recorded visits: %w", err)
		}
		met(woID, metBy[action], time.UnixMilli(when).UTC())
	}
	evRows.Close()
	if err := evRows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the recorded visits: %w", err)
	}
	obRows, err := s.r.QueryContext(ctx, `SELECT t.work_order_id, o.kind, o.request, o.updated_at FROM outbox o
JOIN outbox_targets t ON t.outbox_id = o.id WHERE o.state = ? AND o.kind IN (?,?,?,?,?,?)`,
		string(OutboxDone), string(outbox.KindAccept), string(outbox.KindReject), string(outbox.KindBulkAccept), string(outbox.KindBulkReject),
		string(outbox.KindCheckIn), string(outbox.KindCheckOut))
	if err != nil {
		return nil, fmt.Errorf("storage: reading our recorded actions: %w", err)
	}
	defer obRows.Close()
	for obRows.Next() {
		var woID, landed int64
		var kind, request string
		if err := obRows.Scan(&woID, &kind, &request, &landed); err != nil {
			return nil, fmt.Errorf("storage: reading our recorded actions: %w", err)
		}
		k := outbox.Kind(kind)
		when := time.UnixMilli(landed).UTC()
		if k == outbox.KindCheckIn || k == outbox.KindCheckOut {
			when = visitActionDate([]byte(request))
		}
		met(woID, metByKind[k], when)
	}
	if err := obRows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading our recorded actions: %w", err)
	}
	return out, nil
}

func nullMs(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}
