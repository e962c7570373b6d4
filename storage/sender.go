package storage

import (
	"context"
	"crypto/tls"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// SenderOptions tune a Sender; the zero value is sensible.
type SenderOptions struct {
	// Backoff is how long a row waits after its attempt-th temporary failure
	// (network, 5xx, throttling). nil = 5 s doubling up to 5 minutes.
	Backoff func(attempt int) time.Duration
	// Parallel is how many work orders are sent to at once; each work order
	// still sees one row at a time, in order. 0 = 4.
	Parallel int
	Logger   *slog.Logger
}

// DefaultBackoff waits about 5 s, 10 s, 20 s ... up to 5 minutes, each
// between half and all of that at random: desktops that lost the service
// together (an outage, a network drop) then come back spread out instead
// of all at once.
func DefaultBackoff(attempt int) time.Duration {
	d := 5 * time.Second
	for i := 1; i < attempt && d < 5*time.Minute; i++ {
		d *= 2
	}
	d = min(d, 5*time.Minute)
	return d/2 + rand.N(d/2+1)
}

// Sender sends outbox rows to the service: per work order strictly in order
// and one at a time (a pending or failed earlier row blocks later ones),
// always with the row's own MessageId.
type Sender struct {
	s    *Store
	c    *api.Client
	opts SenderOptions
	log  *slog.Logger
	kick chan struct{}

	recoverOnce sync.Once
	passMu      sync.Mutex // one pass at a time (Run and SendReady may race)
}

// NewSender returns a Sender for store using client. Enqueueing on the store
// kicks it.
func NewSender(store *Store, client *api.Client, opts SenderOptions) *Sender {
	if opts.Backoff == nil {
		opts.Backoff = DefaultBackoff
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 4
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	x := &Sender{s: store, c: client, opts: opts, log: opts.Logger.With("component", "outbox"), kick: make(chan struct{}, 1)}
	store.onEnqueue(x.Kick)
	return x
}

// Kick asks the sender to look at the outbox now (a row was queued or
// retried, the network came back). It never blocks.
func (x *Sender) Kick() {
	select {
	case x.kick <- struct{}{}:
	default:
	}
}

// Run sends until ctx ends, waking on Kick and when the earliest back-off
// expires. Transient problems are retried, never returned.
func (x *Sender) Run(ctx context.Context) error {
	for {
		if _, err := x.SendReady(ctx); err != nil && ctx.Err() == nil {
			x.log.Warn("outbox pass failed", "err", err)
		}
		wait := time.Minute
		if next, ok := x.nextAttempt(ctx); ok {
			wait = max(time.Until(next), 10*time.Millisecond)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-x.kick:
		case <-t.C:
		}
		t.Stop()
	}
}

// recoverSending puts back rows left "sending" by a previous run that died
// mid-call: the service may or may not have applied them. Their attempt
// count says so, and sendRow reconciles them before sending again.
func (x *Sender) recoverSending(ctx context.Context) error {
	var err error
	x.recoverOnce.Do(func() {
		var res sql.Result
		if _, err = x.s.w.ExecContext(ctx, `INSERT OR IGNORE INTO outbox_maybe_sent(outbox_id) SELECT id FROM outbox WHERE state = 'sending'`); err != nil {
			return
		}
		res, err = x.s.w.ExecContext(ctx, `UPDATE outbox SET state = 'pending', next_attempt_at = 0 WHERE state = 'sending'`)
		if err == nil {
			if n, _ := res.RowsAffected(); n > 0 {
				x.log.Info("resending actions interrupted by the last shutdown", "rows", n)
			}
		}
	})
	return err
}

// SendReady sends every row that may go now and returns how many completed
// (done or failed). Rows still waiting on a back-off are left for later.
func (x *Sender) SendReady(ctx context.Context) (int, error) {
	x.passMu.Lock()
	defer x.passMu.Unlock()
	if err := x.recoverSending(ctx); err != nil {
		return 0, fmt.Errorf("storage: recovering interrupted sends: %w", err)
	}
	total := 0
	for ctx.Err() == nil {
		ids, err := x.readyRows(ctx)
		if err != nil {
			return total, err
		}
		if len(ids) == 0 {
			return total, nil
		}
		// Ready rows never share a work order (each is the oldest unfinished
		// row of all its work orders), so they may go in parallel.
		sem := make(chan struct{}, x.opts.Parallel)
		var wg sync.WaitGroup
		var mu sync.Mutex
		progressed := 0
		for _, id := range ids {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				finished, err := x.sendRow(ctx, id)
				if err != nil {
					x.log.Warn("sending an outbox row failed", "row", id, "err", err)
				}
				mu.Lock()
				if finished {
					progressed++
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		total += progressed
		if progressed == 0 {
			return total, ctx.Err() // everything left is backing off
		}
	}
	return total, ctx.Err()
}

// readyRows: pending, due, and the oldest unfinished row of each of its work orders.
func (x *Sender) readyRows(ctx context.Context) ([]int64, error) {
	rows, err := x.s.w.QueryContext(ctx, `SELECT o.id FROM outbox o
 WHERE o.state = 'pending' AND o.next_attempt_at <= ?
 AND NOT EXISTS (SELECT 1 FROM outbox_targets t
   JOIN outbox_targets e ON e.work_order_id = t.work_order_id AND e.outbox_id < t.outbox_id
   JOIN outbox p ON p.id = e.outbox_id AND p.state IN ('pending','sending','failed')
   WHERE t.outbox_id = o.id)
 ORDER BY o.id`, x.s.now().UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("storage: reading the outbox: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: reading the outbox: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func (x *Sender) nextAttempt(ctx context.Context) (time.Time, bool) {
	var next sql.NullInt64
	err := x.s.r.QueryRowContext(ctx, `SELECT MIN(next_attempt_at) FROM outbox WHERE state = 'pending'`).Scan(&next)
	if err != nil || !next.Valid {
		return time.Time{}, false
	}
	return time.UnixMilli(next.Int64), true
}

// sendRow marks the row sending (committed before the call), calls the
// service and records the outcome. finished is true when the row reached
// done or failed.
func (x *Sender) sendRow(ctx context.Context, id int64) (finished bool, err error) {
	if goOn, err := x.keepBefore(ctx, id); !goOn || err != nil {
		return false, err
	}
	now := x.s.now().UnixMilli()
	res, err := x.s.w.ExecContext(ctx, `UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = ?
 WHERE id = ? AND state = 'pending'`, now, id)
	if err != nil {
		return false, fmt.Errorf("storage: marking row %d sending: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // discarded meanwhile
	}
	row, err := x.s.OutboxRow(ctx, id)
	if err != nil {
		return false, err
	}
	var spool string
	if err := x.s.w.QueryRowContext(ctx, `SELECT spool_file FROM outbox WHERE id = ?`, id).Scan(&spool); err != nil {
		return false, fmt.Errorf("storage: reading row %d: %w", id, err)
	}
	log := x.log.With("row", id, "kind", row.Kind, "workOrders", row.WorkOrderIds, "attempt", row.Attempts)
	act, callErr := outbox.MustOf(row.Kind)
	var result any
	if callErr == nil {
		result, callErr = x.attempt(ctx, act, row, spool, log)
	}

	switch {
	case callErr == nil:
		if err := x.finish(ctx, row, result, spool); err != nil {
			return false, err
		}
		log.Info("action sent")
		x.refresh(ctx, row, act, result)
		return true, nil
	case ctx.Err() != nil:
		// Shutting down mid-call: the outcome is unknown, so the row goes
		// back to pending and is resent, same MessageId, on the next run.
		x.setPending(context.WithoutCancel(ctx), id, 0, "", true)
		return false, ctx.Err()
	case errors.Is(callErr, outbox.ErrOutcomeUnknown) || api.IsOutcomeUnknown(callErr):
		// Nothing can tell whether an earlier attempt took effect (a landed
		// check's outbox.ErrOutcomeUnknown, or the office hub's 409 for the same):
		// the row waits as "may have been sent" for the person to send it
		// again (a new MessageId) or discard it.
		msg := outbox.ErrOutcomeUnknown.Error()
		if u, ok := errors.AsType[*outbox.OutcomeUnknown](callErr); ok {
			msg = u.Why
		} else if e, ok := errors.AsType[*api.Error](callErr); ok && e.Message != "" {
			msg = e.Message
		}
		if _, err := x.s.w.ExecContext(ctx, `UPDATE outbox SET state = 'failed', error = ?, error_code = ?, updated_at = ? WHERE id = ?`,
			msg, codeOutcomeUnknown, x.s.now().UnixMilli(), id); err != nil {
			return false, fmt.Errorf("storage: recording the unknown outcome of row %d: %w", id, err)
		}
		log.Info("the action may have been sent; the person decides", "why", msg)
		x.s.notify(row.WorkOrderIds)
		return true, nil
	case api.IsBusiness(callErr) || errors.As(callErr, new(outbox.LocalError)) || errors.As(callErr, new(*outbox.Stopped)):
		msg, code := serviceMessage(callErr)
		if _, err := x.s.w.ExecContext(ctx, `UPDATE outbox SET state = 'failed', error = ?, error_code = ?, updated_at = ? WHERE id = ?`,
			msg, code, x.s.now().UnixMilli(), id); err != nil {
			return false, fmt.Errorf("storage: recording the refusal of row %d: %w", id, err)
		}
		if code == codeAsked {
			// The person decides over what stopped it: the replica shows it.
			x.refresh(ctx, row, act, nil)
			log.Info("the action waits for the person's decision")
		} else {
			log.Info("the service refused the action", "code", code)
		}
		x.s.notify(row.WorkOrderIds)
		return true, nil
	default:
		// Network, 5xx, throttling, token or certificate trouble: wait and
		// resend the same request.
		wait := x.opts.Backoff(row.Attempts)
		if e, ok := errors.AsType[*api.Error](callErr); ok && e.RetryAfter > wait {
			wait = min(e.RetryAfter, time.Hour) // the service said when (429, 503); an hour at most
		}
		x.setPending(ctx, id, x.s.now().Add(wait).UnixMilli(), describeTemporary(callErr), !api.NeverSent(callErr))
		log.Info("action not delivered; will retry", "in", wait, "err", callErr)
		x.s.notify(row.WorkOrderIds)
		return false, nil
	}
}

// keepBefore reads and keeps, before a row is first sent, what its landed
// check will compare against should its answer be lost (outbox.Entry.Before:
// how many messages of its text the thread holds). Kept before the row is
// marked sending, so that a crash at any point leaves either nothing sent
// or the count to judge by. When the read could not leave this computer
// (no network, no token), the row waits as a send would have (goOn false);
// a read that reached the service but failed keeps nothing, and the row
// goes: should its answer then be lost, nothing can tell, and the person
// decides.
func (x *Sender) keepBefore(ctx context.Context, id int64) (goOn bool, err error) {
	row, err := x.s.OutboxRow(ctx, id)
	if err != nil {
		return false, err
	}
	e, known := outbox.Of(row.Kind)
	if row.State != OutboxPending || !known || !e.NeedsBefore() || row.before != nil || row.MaybeSent {
		return true, nil
	}
	req, err := e.Decode(row.Request)
	if err != nil {
		return true, nil // refused as unreadable when it is sent
	}
	base, err := e.Before(ctx, x.c, req)
	switch {
	case err != nil && api.NeverSent(err) && ctx.Err() == nil:
		wait := x.opts.Backoff(row.Attempts + 1)
		x.setPending(ctx, id, x.s.now().Add(wait).UnixMilli(), describeTemporary(err), false)
		x.log.Info("action not delivered; will retry", "row", id, "in", wait, "err", err)
		x.s.notify(row.WorkOrderIds)
		return false, nil
	case err != nil:
		x.log.Info("what an action will be checked against could not be read; it goes without", "row", id, "err", err)
		return true, nil
	case base == nil:
		return true, nil
	}
	if _, err := x.s.w.ExecContext(ctx, `INSERT OR REPLACE INTO outbox_landed_base(outbox_id, base) VALUES (?, ?)`, id, string(base)); err != nil {
		return false, fmt.Errorf("storage: keeping what row %d will be checked against: %w", id, err)
	}
	return true, nil
}

// attempt sends the row, unless an earlier attempt may have reached the
// service with its answer lost (a timeout, a crash mid-call) and the
// action's landed check finds its effect already there.
func (x *Sender) attempt(ctx context.Context, act *outbox.Entry, row *OutboxRow, spool string, log *slog.Logger) (any, error) {
	if row.MaybeSent && act.HasLanded() {
		_, landed, result, err := outbox.Landed(ctx, x.c, outbox.LandedQuery{
			Kind: row.Kind, Request: row.Request, WorkOrders: row.WorkOrderIds, Before: row.before})
		if err != nil || landed {
			if landed {
				log.Info("an earlier attempt had reached the service; not sending again")
			}
			return result, err
		}
	}
	req, err := act.Decode(row.Request)
	if err != nil {
		return nil, err
	}
	return act.Send(ctx, x.c, req, row.MessageId, x.s.envFor(row, spool))
}

// setPending puts the row back in the queue; maybeSent records that the
// attempt may have reached the service (see NeverSent).
func (x *Sender) setPending(ctx context.Context, id, next int64, msg string, maybeSent bool) {
	if maybeSent {
		if _, err := x.s.w.ExecContext(ctx, `INSERT OR IGNORE INTO outbox_maybe_sent(outbox_id) VALUES (?)`, id); err != nil {
			x.log.Warn("could not mark a row as maybe sent", "row", id, "err", err)
		}
	}
	if _, err := x.s.w.ExecContext(ctx, `UPDATE outbox SET state = 'pending', next_attempt_at = ?, error = ?, updated_at = ? WHERE id = ?`,
		next, msg, x.s.now().UnixMilli(), id); err != nil {
		x.log.Warn("could not put a row back in the queue", "row", id, "err", err)
	}
}

// serviceMessage is what the person sees for a refusal: the service's own words.
func serviceMessage(err error) (string, int) {
	if a, ok := errors.AsType[*outbox.Stopped](err); ok {
		return a.Why, codeAsked
	}
	var e *api.Error
	if errors.As(err, &e) {
		msg := e.Message
		for _, v := range e.ValidationErrors {
			msg += "; " + v.Message
		}
		if msg == "" {
			msg = e.Error()
		}
		msg = api.PlainStatusNames(msg)
		if why := api.Explain(err); why != "" {
			msg += " — " + why
		}
		return msg, e.Code
	}
	return err.Error(), 0
}

// serviceTrouble begins the reason of a row the service answered with a
// temporary error: it said to wait, unlike a network that failed.
const serviceTrouble = "The service is having trouble (HTTP "

func describeTemporary(err error) string {
	var e *api.Error
	switch {
	case errors.Is(err, api.ErrCredentialsRejected):
		return "The service refused the client id or secret; check the connection settings."
	case errors.As(err, new(*tls.CertificateVerificationError)):
		// Retrying cannot help until someone fixes the address or the
		// machine's certificates, but the action waits rather than being lost.
		return "The service's certificate is not trusted by this computer; check the service address. Will retry."
	case api.IsUnauthorized(err):
		return "The service refused the access token even after a fresh one (HTTP 401); check the connection settings. Will retry."
	case errors.As(err, &e):
		return fmt.Sprintf(serviceTrouble+"%d); will retry.", e.StatusCode)
	}
	if p := api.Plain(err); p != "" {
		return strings.ToUpper(p[:1]) + p[1:] + "; will retry."
	}
	return "The service could not be reached; will retry."
}

// finish records success and what the service returned, in one transaction.
func (x *Sender) finish(ctx context.Context, row *OutboxRow, result any, spool string) error {
	ctx = context.WithoutCancel(ctx) // the service applied it: record that even if we are stopping
	now := x.s.now()
	state, errMsg, code := OutboxDone, "", 0
	var resultJSON []byte
	var succeeded []int64
	if bulk, ok := result.([]api.BulkResult); ok {
		resultJSON, _ = json.Marshal(bulk)
		var refused, unknown []string
		for _, r := range bulk {
			switch {
			case r.Succeeded():
				succeeded = append(succeeded, r.WorkOrderId)
			case r.Refused():
				refused = append(refused, fmt.Sprintf("%d: %s", r.WorkOrderId, api.PlainStatusNames(r.Message)))
				if code == 0 {
					code = r.Code
				}
			default:
				// Not known to be done, nor refused: the answer did not
				// say, and the work order re-read could not tell.
				unknown = append(unknown, strconv.FormatInt(r.WorkOrderId, 10))
			}
		}
		var said []string
		if len(refused) > 0 {
			said = append(said, fmt.Sprintf("%d of %d were refused: %s", len(refused), len(bulk), strings.Join(refused, "; ")))
		}
		if len(unknown) > 0 {
			said = append(said, fmt.Sprintf("for %d of %d the service's answer did not say whether it was done (%s): send them again, or discard",
				len(unknown), len(bulk), strings.Join(unknown, ", ")))
		}
		if len(said) > 0 {
			state = OutboxFailed
			errMsg = strings.Join(said, "; ")
		}
	}
	err := x.s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE outbox SET state = ?, error = ?, error_code = ?, result = ?, updated_at = ? WHERE id = ?`,
			string(state), errMsg, code, string(resultJSON), now.UnixMilli(), row.Id)
		if err != nil {
			return err
		}
		if state == OutboxFailed {
			// Work orders the bulk call did handle must not wait behind the
			// part that failed.
			for _, wo := range succeeded {
				if _, err := tx.ExecContext(ctx, `DELETE FROM outbox_targets WHERE outbox_id = ? AND work_order_id = ?`, row.Id, wo); err != nil {
					return err
				}
			}
		}
		woID := row.WorkOrderIds[0]
		if inv, ok := result.(*api.Invoice); ok && inv != nil {
			if inv.WorkOrderId == 0 {
				inv.WorkOrderId = woID
			}
			return putInvoice(ctx, tx, woID, inv, now.UnixMilli())
		}
		if e, ok := outbox.Of(row.Kind); ok && state == OutboxDone {
			return forget(ctx, tx, woID, e.Forgets)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: recording the result of row %d: %w", row.Id, err)
	}
	if spool != "" && state == OutboxDone {
		os.Remove(filepath.Join(x.s.spool, spool))
	}
	return nil
}

// refresh re-reads what the action changed so the replica shows the
// service's truth. Failures only delay that until the next sync.
func (x *Sender) refresh(ctx context.Context, row *OutboxRow, act *outbox.Entry, result any) {
	ids := row.WorkOrderIds
	wos, err := x.c.GetWorkOrders(ctx, ids)
	if err == nil {
		err = x.s.putQuiet(ctx, wos)
	}
	if err != nil {
		x.log.Info("could not re-read the work order after an action; the next sync will", "err", err)
	}
	x.refreshParts(ctx, row, act.Rereads&^act.Forgets, result)
	x.s.notify(ids)
}

// refreshParts re-reads the parts of the row's work order an action
// changed, but for one its answer carried (a saved invoice).
func (x *Sender) refreshParts(ctx context.Context, row *OutboxRow, parts outbox.Parts, result any) {
	if _, ok := result.(*api.Invoice); ok {
		parts &^= outbox.Invoice
	}
	if err := x.s.refreshParts(ctx, x.c, row.WorkOrderIds[0], parts); err != nil {
		x.log.Info("could not refresh the cache after an action", "err", err)
	}
}

// putQuiet writes work orders without notifying (the caller notifies once).
func (s *Store) putQuiet(ctx context.Context, wos []api.WorkOrder) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return putWorkOrders(ctx, tx, wos) })
}
