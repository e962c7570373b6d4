package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/workorderdesk/workdesk/api"
)

// The detail caches (invoice, price list, messages, attachments) hold the
// last answer of the service for one work order, replaced whole on each
// fetch. Download links are never among them: the api types that carry
// attachments have no link field, and links are only ever held in memory.

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func putInvoice(ctx context.Context, tx execer, woID int64, inv *api.Invoice, at int64) error {
	raw, err := json.Marshal(inv)
	if err != nil {
		return fmt.Errorf("storage: encoding the invoice of work order %d: %w", woID, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO invoices(work_order_id, status, total, currency, fetched_at, json)
VALUES (?,?,?,?,?,?) ON CONFLICT(work_order_id) DO UPDATE SET status=excluded.status, total=excluded.total,
currency=excluded.currency, fetched_at=excluded.fetched_at, json=excluded.json`,
		woID, string(inv.Status), inv.TotalAmount.Amount.String(), inv.Currency, at, string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing the invoice of work order %d: %w", woID, err)
	}
	return putInvoiceDeadline(ctx, tx, woID, inv)
}

// putInvoiceDeadline keeps the list's copy of the date the invoice must be
// submitted by, while it still can be (migration 0010), and tells the
// in-memory search index, which sorts by it, when it changed.
func putInvoiceDeadline(ctx context.Context, tx execer, woID int64, inv *api.Invoice) error {
	var deadline any
	if inv.Status.Editable() {
		deadline = msPtr(inv.SubmissionDeadline)
	}
	res, err := tx.ExecContext(ctx, `UPDATE work_orders SET invoice_deadline = ? WHERE id = ? AND invoice_deadline IS NOT ?`,
		deadline, woID, deadline)
	if err != nil {
		return fmt.Errorf("storage: writing the invoice deadline of work order %d: %w", woID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_changes(id) VALUES (?)`, woID); err != nil {
		return fmt.Errorf("storage: writing the invoice deadline of work order %d: %w", woID, err)
	}
	return nil
}

func putPriceList(ctx context.Context, tx execer, woID, customerID int64, pl *api.PriceList, at int64) error {
	raw, err := json.Marshal(pl)
	if err != nil {
		return fmt.Errorf("storage: encoding the price list of work order %d: %w", woID, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO price_lists(work_order_id, customer_id, fetched_at, json) VALUES (?,?,?,?)
ON CONFLICT(work_order_id) DO UPDATE SET customer_id=excluded.customer_id, fetched_at=excluded.fetched_at, json=excluded.json`,
		woID, customerID, at, string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing the price list of work order %d: %w", woID, err)
	}
	return nil
}

func putMessages(ctx context.Context, tx execer, woID int64, msgs []api.Message, at int64) error {
	raw, err := json.Marshal(msgs)
	if err != nil {
		return fmt.Errorf("storage: encoding the messages of work order %d: %w", woID, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO messages(work_order_id, fetched_at, json) VALUES (?,?,?)
ON CONFLICT(work_order_id) DO UPDATE SET fetched_at=excluded.fetched_at, json=excluded.json`, woID, at, string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing the messages of work order %d: %w", woID, err)
	}
	return nil
}

const (
	attachmentsWorkOrder = "workorder"
	attachmentsInvoice   = "invoice"
)

func putAttachments(ctx context.Context, tx execer, woID int64, kind string, atts []api.Attachment, at int64) error {
	raw, err := json.Marshal(atts)
	if err != nil {
		return fmt.Errorf("storage: encoding the attachments of work order %d: %w", woID, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO attachments(work_order_id, kind, fetched_at, json) VALUES (?,?,?,?)
ON CONFLICT(work_order_id, kind) DO UPDATE SET fetched_at=excluded.fetched_at, json=excluded.json`,
		woID, kind, at, string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing the attachments of work order %d: %w", woID, err)
	}
	return nil
}

// readJSON decodes the json column of one row into out; found is false when
// there is no row.
func (s *Store) readJSON(ctx context.Context, query string, out any, args ...any) (found bool, err error) {
	var raw string
	err = s.r.QueryRowContext(ctx, query, args...).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("storage: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		return false, fmt.Errorf("storage: decoding cached data: %w", err)
	}
	return true, nil
}

// Invoice is the cached invoice of a work order; ErrNotFound when none has
// been fetched or saved yet.
func (s *Store) Invoice(ctx context.Context, woID int64) (*api.Invoice, error) {
	var inv api.Invoice
	found, err := s.readJSON(ctx, `SELECT json FROM invoices WHERE work_order_id = ?`, &inv, woID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("invoice of work order %d: %w", woID, ErrNotFound)
	}
	return &inv, nil
}

// PriceList is the cached price list of a work order's customer;
// ErrNotFound when it has not been fetched yet.
func (s *Store) PriceList(ctx context.Context, woID int64) (*api.PriceList, error) {
	var pl api.PriceList
	found, err := s.readJSON(ctx, `SELECT json FROM price_lists WHERE work_order_id = ?`, &pl, woID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("price list of work order %d: %w", woID, ErrNotFound)
	}
	return &pl, nil
}

// Messages is the cached message thread (nil when never fetched).
func (s *Store) Messages(ctx context.Context, woID int64) ([]api.Message, error) {
	var out []api.Message
	_, err := s.readJSON(ctx, `SELECT json FROM messages WHERE work_order_id = ?`, &out, woID)
	return out, err
}

// Attachments is the cached list of work order attachments (nil when never fetched).
func (s *Store) Attachments(ctx context.Context, woID int64) ([]api.Attachment, error) {
	var out []api.Attachment
	_, err := s.readJSON(ctx, `SELECT json FROM attachments WHERE work_order_id = ? AND kind = ?`, &out, woID, attachmentsWorkOrder)
	return out, err
}

// InvoiceAttachments is the cached list of invoice attachments (nil when never fetched).
func (s *Store) InvoiceAttachments(ctx context.Context, woID int64) ([]api.Attachment, error) {
	var out []api.Attachment
	_, err := s.readJSON(ctx, `SELECT json FROM attachments WHERE work_order_id = ? AND kind = ?`, &out, woID, attachmentsInvoice)
	return out, err
}
