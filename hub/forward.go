package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// write is one desktop write on its way to the service.
type write struct {
	person      Person
	method      string
	path        string // as the desktop sent it
	messageId   string
	workOrders  []int64
	body        func() io.Reader
	contentType string
	replayable  bool
	// answer is the service's answer, kept for the audit and the refresh.
	status int
	answer []byte
	// replayed: the answer is the one the service gave an earlier attempt
	// with this MessageId; nothing was sent.
	replayed bool
	// cut: the service's answer broke off while it was read.
	cut error
	// retryAfter is the service's Retry-After (429, 503), passed on so the
	// desktop's outbox waits as the service asked.
	retryAfter string
}

// forwardWrite sends a desktop's write to the service with the company's
// credentials and the desktop's MessageId, one at a time per work order
// across every instance; then re-reads the work order into the replica,
// records who did it and tells every stream.
func (h *Hub) forwardWrite(w http.ResponseWriter, r *http.Request, p string, person Person) {
	wr := &write{person: person, method: r.Method, path: r.URL.Path, messageId: serve.MessageId(r.URL.Query(), nil)}
	var cleanup func()
	var bad *api.Error
	switch ct := r.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "multipart/form-data"):
		cleanup, bad = h.prepareUpload(w, r, wr)
		if cleanup != nil {
			defer cleanup()
		}
	case r.Method == http.MethodDelete:
		bad = idsFromQuery(r.URL.Query(), wr)
	default:
		bad = prepareJSON(w, r, wr)
	}
	if bad != nil {
		serve.WriteError(w, bad, wr.messageId)
		return
	}
	if wr.messageId == "" {
		// The desktop always sends one; a caller that did not gets one made
		// up, as the service does, so the audit and the event can name it.
		wr.messageId = uuid.NewString()
	}
	wait := r.Context()
	if b, ok := r.Body.(*deadlineBody); ok && b.streaming {
		// The upload's file is read while the service reads it, after the
		// turn comes: a client that stalled meanwhile must not hold its
		// place for long, so the wait counts against its stall timeout.
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(wait, b.stallsAt())
		defer cancel()
	}
	after := context.WithoutCancel(r.Context())
	err := h.forward(r, wr, wait)
	switch {
	case errors.Is(err, errSignedOut):
		serve.Denied(w, wr.messageId)
		return
	case errors.Is(err, errDesktopGone):
		h.log.Info("a write was not sent: its desktop hung up first", "messageId", wr.messageId)
		return
	case err != nil && wr.status == 0:
		msg := unreachableMessage
		if errors.Is(err, errWaitedTooLong) {
			msg = busyMessage
			h.log.Warn("a write waited too long for its turn or a database connection", "err", err)
			serve.WriteError(w, unavailable(msg), wr.messageId)
		} else {
			h.unreachable(w, wr.messageId, err)
		}
		// The attempt is audited too: who tried what, and that it did not reach the service.
		wr.status = http.StatusServiceUnavailable
		wr.answer, _ = json.Marshal(&api.Error{Message: msg, MessageId: wr.messageId})
		if err := pgx.BeginFunc(after, h.db.Pool, func(tx pgx.Tx) error {
			return h.record(after, tx, wr, false)
		}); err != nil {
			h.log.Error("auditing a write that did not reach the service", "err", err)
		}
		return
	case err != nil && !wr.replayed:
		// The service answered, but the write's transaction was lost (its
		// connection ended, the commit failed): record the write again on
		// a connection of its own, so the audit and the event are kept.
		h.log.Warn("the transaction of a forwarded write was lost; recording it again", "err", err)
		if err := pgx.BeginFunc(after, h.db.Pool, func(tx pgx.Tx) error {
			return h.record(after, tx, wr, true)
		}); err != nil {
			h.log.Error("recording a forwarded write", "err", err)
		}
	}
	if wr.cut != nil {
		// The write reached the service but its answer did not come back
		// whole: the desktop's outbox checks what took effect and retries.
		h.unreachable(w, wr.messageId, wr.cut)
		return
	}
	if wr.retryAfter != "" {
		w.Header().Set("Retry-After", wr.retryAfter)
	}
	serve.WriteRaw(w, wr.status, wr.answer)
}

// errSignedOut: the person was disabled while their write waited its turn.
var errSignedOut = errors.New("the person was disabled")

// forward sends wr to the service in its turn (waiting for it until wait
// ends) and, once the service has answered, re-reads what it changed and
// records it. A write that has reached the service is seen through even if
// the desktop hangs up meanwhile: the call, the re-reads, the audit and the
// event, so colleagues hear of a write that took effect. (An upload cannot
// be: its file comes from the desktop as the service reads it.)
func (h *Hub) forward(r *http.Request, wr *write, wait context.Context) error {
	after := context.WithoutCancel(r.Context())
	call := after
	if !wr.replayable {
		call = r.Context()
		release, err := h.takeUploadSlot(wait)
		if err != nil {
			return err
		}
		defer release()
	}
	return h.locked(after, wait, wr.workOrders, func(tx pgx.Tx) error {
		// The person may have been disabled while the write waited.
		var disabled bool
		if err := tx.QueryRow(after, `SELECT disabled FROM people WHERE id = $1`, wr.person.Id).Scan(&disabled); err != nil {
			return fmt.Errorf("hub: checking the person: %w", err)
		}
		if disabled {
			return errSignedOut
		}
		// A desktop that lost an answer sends the write again with its
		// MessageId; the service may not drop repeats, so the answer it
		// gave is given again instead.
		if prev, ok, err := answeredBefore(after, tx, wr); err != nil {
			return err
		} else if ok {
			wr.status, wr.answer, wr.replayed = http.StatusOK, prev, true
			return nil
		}
		resp, err := h.send(call, r.Context(), wr.method, r.URL, wr.body, wr.contentType, wr.replayable)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		wr.status = resp.StatusCode
		wr.retryAfter = resp.Header.Get("Retry-After")
		wr.answer, wr.cut = io.ReadAll(io.LimitReader(resp.Body, serve.MaxJSONBody))
		// From here on the service has answered: whatever fails next, the
		// re-reads, the audit and the event still happen.
		h.followWrite(after, wr)
		return h.record(after, tx, wr, false)
	})
}

// followWrite re-reads what a write the service accepted changed, within
// RefreshTimeout: its work orders, 50 per call, and the reads stored about
// them, before the desktop is answered (it re-reads them next).
func (h *Hub) followWrite(ctx context.Context, wr *write) {
	if wr.status != http.StatusOK {
		return
	}
	changed := h.succeeded(wr)
	if err := h.db.readsChanged(ctx, changed); err != nil {
		h.log.Warn("marking the reads of written work orders", "err", err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RefreshTimeout)
	defer cancel()
	if err := h.refreshWorkOrders(ctx, changed); err != nil {
		// The write took effect; the next sync brings the records.
		h.log.Warn("re-reading work orders after a write", "err", err)
	}
	h.refreshReads(ctx, changed)
}

// answeredBefore is the service's answer to an earlier attempt of wr (the
// same person, operation and MessageId) that it accepted, if any.
func answeredBefore(ctx context.Context, tx pgx.Tx, wr *write) ([]byte, bool, error) {
	rows, err := tx.Query(ctx, `SELECT method, path, answer FROM audit
		WHERE message_id = $1 AND person_id = $2 AND status = 200 ORDER BY id`, wr.messageId, wr.person.Id)
	if err != nil {
		return nil, false, fmt.Errorf("hub: looking for an earlier attempt: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var method, path, answer string
		if err := rows.Scan(&method, &path, &answer); err != nil {
			return nil, false, fmt.Errorf("hub: looking for an earlier attempt: %w", err)
		}
		if method == wr.method && serve.Route(path) == serve.Route(wr.path) && json.Valid([]byte(answer)) {
			return []byte(answer), true, nil
		}
	}
	return nil, false, rows.Err()
}

// prepareJSON reads a JSON body and finds the work orders it names; a
// malformed body is refused as the service would, and nothing is forwarded.
func prepareJSON(w http.ResponseWriter, r *http.Request, wr *write) *api.Error {
	b, bad := serve.ReadBody(w, r)
	if bad != nil {
		return bad
	}
	var env struct {
		MessageId    string // not read here (serve.MessageId is), but one that is not a string is refused
		WorkOrderId  int64
		WorkOrderIds []int64
	}
	if bad := serve.DecodeJSON(b, &env); bad != nil {
		return bad
	}
	wr.messageId = serve.MessageId(r.URL.Query(), b)
	switch {
	case env.WorkOrderId > 0:
		wr.workOrders = []int64{env.WorkOrderId}
	case len(env.WorkOrderIds) > api.MaxBulk:
		// Each work order named takes a lock in PostgreSQL until the write
		// is done: a body of thousands would exhaust them for everyone.
		return serve.Invalid("WorkOrderIds", "at most %d work orders per bulk call; %d were given", api.MaxBulk, len(env.WorkOrderIds))
	case len(env.WorkOrderIds) > 0:
		for _, id := range env.WorkOrderIds {
			if id <= 0 {
				return serve.Invalid("WorkOrderIds", "each of WorkOrderIds must be a positive integer")
			}
		}
		wr.workOrders = env.WorkOrderIds
	default:
		return serve.Invalid("WorkOrderId", "WorkOrderId is required")
	}
	wr.contentType = "application/json; charset=utf-8"
	wr.body = func() io.Reader { return bytes.NewReader(b) }
	wr.replayable = true
	return nil
}

// idsFromQuery finds the work order a write without a body names in its
// query (a DELETE, say).
func idsFromQuery(q url.Values, wr *write) *api.Error {
	id, bad := serve.QueryID(q, "workOrderId")
	if bad != nil {
		return bad
	}
	wr.workOrders = []int64{id}
	wr.replayable = true
	return nil
}

// succeeded lists the work orders the write changed: all of them for a 200,
// except the items a bulk answer reports as failed.
func (h *Hub) succeeded(wr *write) []int64 {
	if len(wr.workOrders) < 2 {
		return wr.workOrders
	}
	var results []api.BulkResult
	if json.Unmarshal(wr.answer, &results) != nil {
		return wr.workOrders
	}
	var ok []int64
	for _, r := range results {
		if r.Succeeded() {
			ok = append(ok, r.WorkOrderId)
		}
	}
	return ok
}
