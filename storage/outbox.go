package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Every action a person takes becomes an outbox row first: validated here,
// committed to SQLite with its request and MessageId fixed, and only then
// sent by a Sender. Whatever happens to the network or the process after the
// method returns, the action is neither lost nor applied twice: a resend
// reuses the MessageId, and since the service is not documented to
// de-duplicate by it, a row whose answer was lost is first reconciled with
// the service (the action table's landed check, outbox.Landed) and sent
// again only if it did not land. What each kind does is its entry in the
// action table (package outbox); how it is checked before it is queued is
// its enqueue method in its group's file (outbox_*.go).

// OutboxState is where a row is in its life.
type OutboxState string

const (
	// OutboxPending: committed, waiting to be sent (or to be retried after a
	// network failure; NextAttempt says when).
	OutboxPending OutboxState = "pending"
	// OutboxSending: handed to the service; if the app dies now, the row is
	// sent again with the same MessageId on the next start.
	OutboxSending OutboxState = "sending"
	// OutboxDone: the service accepted it and the replica shows the result.
	OutboxDone OutboxState = "done"
	// OutboxFailed: the service refused it (Error says why, in its words).
	// It blocks later actions on the same work order until Retry or Discard.
	OutboxFailed OutboxState = "failed"
	// OutboxDiscarded: the person gave up on it.
	OutboxDiscarded OutboxState = "discarded"
)

// OutboxRow is one queued action.
type OutboxRow struct {
	Id      int64
	Kind    outbox.Kind
	Summary string // e.g. "Check in", "Reject: no capacity"
	// ActionDate is when a check-in, pause or check-out happened (what the
	// person back-dated to, or when they acted), for showing in local time.
	ActionDate time.Time
	// Scheduled is the start an appointment asks for, for showing in local
	// time: the summary carries no time, the window writes it its one way.
	Scheduled    time.Time
	WorkOrderIds []int64 // the work orders it acts on (several for a bulk action)
	MessageId    string  // fixed at enqueue; every resend carries it
	State        OutboxState
	Attempts     int
	// MaybeSent: an attempt may have reached the service with its answer
	// lost, so the row is reconciled before it is sent again.
	MaybeSent bool
	// before is what the service held before the row was first sent, for
	// its landed check (outbox.Entry.Before; nil: not read yet, or none).
	before      json.RawMessage
	NextAttempt time.Time // when a pending row is retried (zero = as soon as possible)
	Created     time.Time
	Updated     time.Time
	Error       string // failed: the service's message; pending: the last network problem
	ErrorCode   int    // the service's error code when it gave one
	// BulkResults are the per-work-order outcomes of a bulk action.
	BulkResults []api.BulkResult
	Request     json.RawMessage // the request as it will be sent

	// What the window shows, so that it never decodes Request.
	Group outbox.Group // which part of the work order the action is about
	// Touches are the parts of the work order it changes besides its
	// record (its entry's Rereads): an invoice file's, the invoice's files.
	Touches outbox.Parts
	// Status is the work order status the action leads to ("" = none).
	Status api.WorkOrderStatus
	// Comment is what the person wrote with it: a reason, comment or message.
	Comment string
	Upload  bool         // it carries a file
	Step    *api.StepRef // the procedure step of a step attachment action
}

// Visit reports whether the row is a check-in, pause or check-out.
func (r OutboxRow) Visit() bool { return r.Group == outbox.GroupVisit }

// MayHaveBeenSent reports a row whose answer was lost when nothing could
// tell whether it took effect (outbox.ErrOutcomeUnknown, or the office hub's 409
// "outcome unknown"): it waits for the person to send it again or discard
// it, in the header and on the Activity tab.
func (r OutboxRow) MayHaveBeenSent() bool {
	return r.State == OutboxFailed && r.ErrorCode == codeOutcomeUnknown
}

// codeOutcomeUnknown is the error code a row that may have been sent is
// kept with: no code of the service's (they are all positive).
const codeOutcomeUnknown = -1

// Blocked reports whether the row keeps later actions on its work orders waiting.
func (r OutboxRow) Blocked() bool {
	return r.State == OutboxPending || r.State == OutboxSending || r.State == OutboxFailed
}

// InputError is a request refused locally, before anything was queued; its
// message is meant for the person who made it.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// ErrInvalid matches every InputError with errors.Is.
var ErrInvalid = errors.New("invalid request")

func (e *InputError) Is(target error) bool { return target == ErrInvalid }

// refused turns a refusal of the api rules into an InputError for the
// person; other errors pass unchanged.
func refused(err error) error {
	var r *api.RuleError
	if errors.As(err, &r) {
		return &InputError{Msg: r.Msg}
	}
	return err
}

// ruleOf is the api rule that judges kind before it is queued.
func ruleOf(kind outbox.Kind) api.Action {
	e, _ := outbox.Of(kind)
	return e.Rule
}

func invalid(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// newRow is what an enqueue method hands to enqueue.
type newRow struct {
	kind      outbox.Kind
	summary   string
	targets   []int64
	messageID string
	request   any
	spool     string // base name inside the spool folder
}

// enqueue commits the row; nothing is sent before this returns.
func (s *Store) enqueue(ctx context.Context, n newRow) (*OutboxRow, error) {
	raw, err := json.Marshal(n.request)
	if err != nil {
		return nil, fmt.Errorf("storage: encoding the %s request: %w", n.kind, err)
	}
	now := s.now().UnixMilli()
	var id int64
	var replacedSpool string
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if id, err = insertRow(ctx, tx, n, raw, now); err != nil {
			return err
		}
		if old := replacing(ctx); old != 0 {
			if replacedSpool, err = replaceRefused(ctx, tx, old, n, now); errors.Is(err, ErrInvalid) {
				return err // said to the person as it is
			} else if err != nil {
				return fmt.Errorf("storage: queueing %s: %w", n.kind, err)
			}
		}
		return nil
	})
	if err != nil {
		if n.spool != "" {
			os.Remove(filepath.Join(s.spool, n.spool))
		}
		return nil, err
	}
	if replacedSpool != "" {
		os.Remove(filepath.Join(s.spool, replacedSpool))
	}
	s.log.Info("action queued", "kind", n.kind, "row", id, "workOrders", n.targets)
	s.notify(n.targets)
	s.kickSenders()
	return s.OutboxRow(ctx, id)
}

// insertRow writes the row n (its request encoded as raw) and its targets
// inside tx.
func insertRow(ctx context.Context, tx *sql.Tx, n newRow, raw []byte, now int64) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO outbox(kind, summary, work_order_id, message_id, request, spool_file,
 state, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
		string(n.kind), n.summary, n.targets[0], n.messageID, string(raw), n.spool, string(OutboxPending), now, now)
	if err != nil {
		return 0, fmt.Errorf("storage: queueing %s: %w", n.kind, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("storage: queueing %s: %w", n.kind, err)
	}
	for _, wo := range n.targets {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO outbox_targets(outbox_id, work_order_id) VALUES (?,?)`, id, wo); err != nil {
			return 0, fmt.Errorf("storage: queueing %s: %w", n.kind, err)
		}
	}
	return id, nil
}

// enqueueAll commits several rows in one transaction, in order: actions
// that belong together (an assignment and the appointment it is for) are
// queued both or neither, and go out in that order.
func (s *Store) enqueueAll(ctx context.Context, ns []newRow) ([]*OutboxRow, error) {
	raws := make([][]byte, len(ns))
	var targets []int64
	for i, n := range ns {
		raw, err := json.Marshal(n.request)
		if err != nil {
			return nil, fmt.Errorf("storage: encoding the %s request: %w", n.kind, err)
		}
		raws[i] = raw
		targets = append(targets, n.targets...)
	}
	now := s.now().UnixMilli()
	ids := make([]int64, len(ns))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for i, n := range ns {
			id, err := insertRow(ctx, tx, n, raws[i], now)
			if err != nil {
				return err
			}
			ids[i] = id
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.log.Info("actions queued together", "rows", ids, "workOrders", targets)
	s.notify(targets)
	s.kickSenders()
	out := make([]*OutboxRow, len(ids))
	for i, id := range ids {
		if out[i], err = s.OutboxRow(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// replaceRefused discards refused row old inside the transaction queueing
// n, when n corrects it: the same kind, on its work order. It returns the
// discarded row's spooled file, to delete once committed. A row retried
// meanwhile (Retry pressed while the form was open, or in another window)
// is on its way again: queueing the correction beside it would send both,
// so n is refused. One discarded meanwhile, or of another kind, leaves n
// an ordinary action.
func replaceRefused(ctx context.Context, tx *sql.Tx, old int64, n newRow, now int64) (spool string, err error) {
	var state, summary string
	err = tx.QueryRowContext(ctx, `SELECT o.state, o.summary, o.spool_file FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id
 WHERE o.id = ? AND o.kind = ? AND t.work_order_id = ?`, old, string(n.kind), n.targets[0]).Scan(&state, &summary, &spool)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil // another kind of action
	}
	if err != nil {
		return "", err
	}
	switch OutboxState(state) {
	case OutboxFailed:
	case OutboxDiscarded:
		return "", nil
	default:
		return "", sentAgain(summary)
	}
	_, err = tx.ExecContext(ctx, `UPDATE outbox SET state = 'discarded', updated_at = ? WHERE id = ? AND state = 'failed'`, now, old)
	return spool, err
}

// sentAgain refuses the correction of a refused action that was retried
// while it was being corrected.
func sentAgain(summary string) error {
	return invalid("%q was sent again meanwhile, so your correction was not queued: the customer would get both. If the service refuses it again, edit it then.", summary)
}

// retryWaiting makes the rows waiting for the connection due now: the
// service (or hub) answers again. Rows it told to wait (a 429 or 503 with
// its own words) keep their wait.
func (s *Store) retryWaiting(ctx context.Context) error {
	_, err := s.w.ExecContext(ctx, `UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending' AND attempts > 0
 AND next_attempt_at > ? AND error NOT LIKE ?`, s.now().UnixMilli(), serviceTrouble+"%")
	return err
}

// Retry sends a failed row again, or a row waiting after a network error
// right now. A failed row gets a new MessageId: the service answered the old
// one with a refusal, and a changed situation (quote rejected, invoice fixed)
// is a new request. A bulk row is retried for the work orders that failed.
func (s *Store) Retry(ctx context.Context, rowID int64) (*OutboxRow, error) {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return nil, err
	}
	switch row.State {
	case OutboxPending:
		if _, err := s.w.ExecContext(ctx, `UPDATE outbox SET next_attempt_at = 0, updated_at = ? WHERE id = ? AND state = 'pending'`,
			s.now().UnixMilli(), rowID); err != nil {
			return nil, fmt.Errorf("storage: retrying row %d: %w", rowID, err)
		}
	case OutboxFailed:
		id := uuid.NewString()
		req, targets, err := retryRequest(row, id)
		if err != nil {
			return nil, err
		}
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE outbox SET state = 'pending', message_id = ?, request = ?, error = '', error_code = 0,
 result = '', attempts = 0, next_attempt_at = 0, updated_at = ? WHERE id = ? AND state = 'failed'`,
				id, string(req), s.now().UnixMilli(), rowID)
			if err != nil {
				return err
			}
			// A new MessageId is a new request: nothing of it reached anyone,
			// and what its landed check compares against is read again
			// before it goes (an earlier attempt may have landed meanwhile).
			for _, q := range []string{`DELETE FROM outbox_maybe_sent WHERE outbox_id = ?`, `DELETE FROM outbox_landed_base WHERE outbox_id = ?`} {
				if _, err := tx.ExecContext(ctx, q, rowID); err != nil {
					return err
				}
			}
			if len(targets) > 0 {
				if _, err := tx.ExecContext(ctx, `DELETE FROM outbox_targets WHERE outbox_id = ?`, rowID); err != nil {
					return err
				}
				for _, wo := range targets {
					if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_targets(outbox_id, work_order_id) VALUES (?,?)`, rowID, wo); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("storage: retrying row %d: %w", rowID, err)
		}
	default:
		return nil, invalid("this action is %s; only failed or waiting actions can be retried", row.State)
	}
	s.notify(row.WorkOrderIds)
	s.kickSenders()
	return s.OutboxRow(ctx, rowID)
}

// retryRequest rewrites the stored request with a new MessageId (and, for
// a bulk row, only the work orders that failed). Every other field is kept
// as the bytes it was stored as: amounts are never re-read as float64.
func retryRequest(row *OutboxRow, messageID string) (json.RawMessage, []int64, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(row.Request, &m); err != nil {
		return nil, nil, fmt.Errorf("storage: reading row %d: %w", row.Id, err)
	}
	set := func(k string, v any) error {
		b, err := json.Marshal(v)
		m[k] = b
		return err
	}
	if _, ok := m["MessageId"]; ok {
		if err := set("MessageId", messageID); err != nil {
			return nil, nil, err
		}
	}
	var targets []int64
	if len(row.BulkResults) > 0 {
		for _, r := range row.BulkResults {
			if !r.Succeeded() {
				targets = append(targets, r.WorkOrderId)
			}
		}
		if len(targets) > 0 {
			if err := set("WorkOrderIds", targets); err != nil {
				return nil, nil, err
			}
		}
	}
	b, err := json.Marshal(m)
	return b, targets, err
}

// Discard gives up on a failed or waiting action. Its spooled file is deleted.
func (s *Store) Discard(ctx context.Context, rowID int64) error {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return err
	}
	if row.State != OutboxFailed && row.State != OutboxPending {
		return invalid("this action is %s and can no longer be discarded", row.State)
	}
	var spool string
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT spool_file FROM outbox WHERE id = ?`, rowID).Scan(&spool); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET state = 'discarded', updated_at = ? WHERE id = ? AND state IN ('failed','pending')`,
			s.now().UnixMilli(), rowID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid("this action is being sent and can no longer be discarded")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: discarding row %d: %w", rowID, err)
	}
	if spool != "" {
		os.Remove(filepath.Join(s.spool, spool))
	}
	s.notify(row.WorkOrderIds)
	s.kickSenders()
	return nil
}

const outboxColumns = `o.id, o.kind, o.summary, o.message_id, o.request, o.state, o.attempts,
 EXISTS(SELECT 1 FROM outbox_maybe_sent m WHERE m.outbox_id = o.id),
 (SELECT b.base FROM outbox_landed_base b WHERE b.outbox_id = o.id), o.next_attempt_at,
 o.created_at, o.updated_at, o.error, o.error_code, o.result, o.spool_file,
 (SELECT group_concat(t.work_order_id) FROM outbox_targets t WHERE t.outbox_id = o.id)`

func scanOutbox(sc interface{ Scan(...any) error }) (*OutboxRow, error) {
	var r OutboxRow
	var kind, state, req, result, spool string
	var next, created, updated int64
	var targets, before sql.NullString
	if err := sc.Scan(&r.Id, &kind, &r.Summary, &r.MessageId, &req, &state, &r.Attempts, &r.MaybeSent, &before, &next,
		&created, &updated, &r.Error, &r.ErrorCode, &result, &spool, &targets); err != nil {
		return nil, err
	}
	r.Kind, r.State, r.Request = outbox.Kind(kind), OutboxState(state), json.RawMessage(req)
	if before.Valid {
		r.before = json.RawMessage(before.String)
	}
	if next > 0 {
		r.NextAttempt = time.UnixMilli(next).UTC()
	}
	r.Created, r.Updated = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if result != "" {
		_ = json.Unmarshal([]byte(result), &r.BulkResults) // other kinds keep other results
	}
	if e, ok := outbox.Of(r.Kind); ok {
		r.Group, r.Status, r.Touches = e.Group, e.Status, e.Rereads
	}
	// The fields every kind's request may carry, read once for the window.
	var f struct {
		ActualActionDate *time.Time
		ScheduledStart   *time.Time
		Comment, Text    string
		Step             *api.StepRef
	}
	if json.Unmarshal(r.Request, &f) == nil {
		if r.Visit() {
			r.ActionDate = visitActionDate(r.Request)
		}
		if r.Kind == outbox.KindAppointment && f.ScheduledStart != nil {
			r.Scheduled = *f.ScheduledStart
		}
		r.Comment, r.Step = f.Comment, f.Step
		if f.Text != "" {
			r.Comment = f.Text
		}
	}
	r.Upload = spool != ""
	for _, f := range strings.Split(targets.String, ",") {
		var id int64
		if _, err := fmt.Sscan(f, &id); err == nil {
			r.WorkOrderIds = append(r.WorkOrderIds, id)
		}
	}
	return &r, nil
}

// OutboxRow reads one row.
func (s *Store) OutboxRow(ctx context.Context, rowID int64) (*OutboxRow, error) {
	r, err := scanOutbox(s.r.QueryRowContext(ctx, `SELECT `+outboxColumns+` FROM outbox o WHERE o.id = ?`, rowID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("outbox row %d: %w", rowID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading outbox row %d: %w", rowID, err)
	}
	return r, nil
}

// OutboxRows lists the actions on one work order, oldest first, whatever
// their state (done rows are the history of what was sent).
func (s *Store) OutboxRows(ctx context.Context, woID int64) ([]OutboxRow, error) {
	return s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o JOIN outbox_targets x ON x.outbox_id = o.id
 WHERE x.work_order_id = ? ORDER BY o.id`, woID)
}

// UnfinishedOutbox lists every row not yet done or discarded, oldest first.
func (s *Store) UnfinishedOutbox(ctx context.Context) ([]OutboxRow, error) {
	return s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o WHERE o.state IN ('pending','sending','failed') ORDER BY o.id`)
}

func (s *Store) outboxQuery(ctx context.Context, q string, args ...any) ([]OutboxRow, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the outbox: %w", err)
	}
	defer rows.Close()
	var out []OutboxRow
	for rows.Next() {
		r, err := scanOutbox(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: reading the outbox: %w", err)
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

// OutboxSummary counts actions waiting to be sent (pending or sending) and
// actions the service refused (failed), for the status bar. On a read error
// it logs and reports zeros.
func (s *Store) OutboxSummary(ctx context.Context) (pending, failed int) {
	err := s.r.QueryRowContext(ctx, `SELECT
 COALESCE(SUM(state IN ('pending','sending')), 0), COALESCE(SUM(state = 'failed'), 0)
 FROM outbox WHERE state IN ('pending','sending','failed')`).Scan(&pending, &failed)
	if err != nil {
		s.log.Warn("could not count the outbox", "err", err)
		return 0, 0
	}
	return pending, failed
}

// visitActionDate is when a stored visit happened, for showing.
func visitActionDate(raw []byte) time.Time {
	var p outbox.Visit
	if json.Unmarshal(raw, &p) != nil {
		return time.Time{}
	}
	return p.ActionDate()
}

// Draft reads what the person entered for the row's action, its amounts
// in currency (the work order's: the stored request carries none); false
// for actions with nothing to correct (accepting, bulk actions, files) or a
// request this build cannot read.
func (r OutboxRow) Draft(currency string) (*outbox.Draft, bool) {
	e, ok := outbox.Of(r.Kind)
	if !ok || e.Fix == nil {
		return nil, false
	}
	req, err := e.Decode(r.Request)
	if err != nil {
		return nil, false
	}
	return e.Draft(req, currency)
}

// Correctable reports whether the row's action has content to put back
// into a form (see Draft).
func (r OutboxRow) Correctable() bool {
	_, ok := r.Draft("")
	return ok && len(r.WorkOrderIds) == 1
}
