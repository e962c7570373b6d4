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
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
)

// writeLock marks the per-work-order advisory locks that make writes to one
// work order go to the service one at a time across instances. They use
// PostgreSQL's two-key form, which no other lock of the hub uses.
const writeLock = 0x574F4448

// workOrderLockKeys maps a work order id to its lock's two 32-bit keys
// without losing any of its 64 bits: the high half, marked by writeLock,
// and the low half.
func workOrderLockKeys(id int64) (int32, int32) {
	return int32(uint32(id>>32) ^ writeLock), int32(uint32(id))
}

// passRead forwards a read the replica does not answer (download links,
// and any read the hub does not know) to the service with the company's
// token and streams the answer back. Download links pass through and are
// never stored.
func (h *Hub) passRead(w http.ResponseWriter, r *http.Request) {
	resp, err := h.send(r.Context(), nil, r.Method, r.URL, nil, "", true)
	if err != nil {
		h.unreachable(w, r.URL.Query().Get("messageId"), err)
		return
	}
	defer resp.Body.Close()
	copyAnswer(w, resp)
}

// errDesktopGone: the desktop hung up before its write was sent, so it was
// not; its outbox sends it again.
var errDesktopGone = errors.New("the desktop hung up before its write was sent")

// send calls the service at the request's path with the company's token;
// body is replayed once after a 401 when replayable. Once desk (the
// desktop's request, nil for the hub's own calls) is done, nothing more is
// sent: the call itself runs with ctx, which may outlive it.
func (h *Hub) send(ctx, desk context.Context, method string, in *url.URL, body func() io.Reader, contentType string, replayable bool) (*http.Response, error) {
	base, err := url.Parse(h.client.BaseURL())
	if err != nil {
		return nil, err
	}
	u := base.ResolveReference(&url.URL{Path: strings.TrimPrefix(in.Path, "/"), RawQuery: in.RawQuery})
	for attempt := 0; ; attempt++ {
		tok, err := h.tokens.Token(ctx)
		if err != nil {
			return nil, fmt.Errorf("getting the company's access token: %w", err)
		}
		var rd io.Reader
		if body != nil {
			rd = body()
		}
		req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if desk != nil && desk.Err() != nil {
			return nil, errDesktopGone
		}
		resp, err := h.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusUnauthorized {
			h.tokens.Invalidate(tok)
			if attempt == 0 && replayable {
				io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
				resp.Body.Close()
				continue
			}
			// The service refused the company's credentials: the desktop's
			// own token is fine, so this must not read as a 401 to it.
			resp.Body.Close()
			return nil, errors.New("the service refused the company's credentials")
		}
		return resp, nil
	}
}

func copyAnswer(w http.ResponseWriter, resp *http.Response) {
	for _, k := range []string{"Content-Type", "Content-Length", "Allow", "Retry-After"} {
		if v := resp.Header.Get(k); v != "" {
			w.Header().Set(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

const unreachableMessage = "The work order service cannot be reached from the hub; try again later."

const busyMessage = "The hub is busy with other changes to this work order; try again shortly."

// unreachable answers 503 in the service's error body: the desktop's outbox
// keeps the action and retries it with the same MessageId.
func (h *Hub) unreachable(w http.ResponseWriter, messageId string, err error) {
	h.log.Warn("the service cannot be reached", "err", err)
	writeError(w, unavailable(unreachableMessage), messageId)
}

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
	// retryAfter is the service's Retry-After (429, 503), passed on so the
	// desktop's outbox waits as the service asked.
	retryAfter string
}

// forwardWrite sends a desktop's write to the service with the company's
// credentials and the desktop's MessageId, one at a time per work order
// across every instance; then re-reads the work order into the replica,
// records who did it and tells every stream.
func (h *Hub) forwardWrite(w http.ResponseWriter, r *http.Request, p string, person Person) {
	wr := &write{person: person, method: r.Method, path: r.URL.Path, messageId: r.URL.Query().Get("messageId")}
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
		writeError(w, bad, wr.messageId)
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
	// A write that has reached the service is seen through even if the
	// desktop hangs up meanwhile: the call, the re-reads, the audit and the
	// event, so colleagues hear of a write that took effect. (An upload
	// cannot be: its file comes from the desktop as the service reads it.)
	after := context.WithoutCancel(r.Context())
	call := after
	if !wr.replayable {
		call = r.Context()
	}
	err := h.locked(after, wait, wr.workOrders, func(tx pgx.Tx) error {
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
		if wr.answer, err = io.ReadAll(io.LimitReader(resp.Body, maxJSONBody)); err != nil {
			return err
		}
		if wr.status == http.StatusOK {
			changed := h.succeeded(wr)
			if err := h.db.readsChanged(after, changed); err != nil {
				h.log.Warn("marking the reads of written work orders", "err", err)
			}
			for _, id := range changed {
				if err := h.refresh(after, id); err != nil {
					// The write took effect; the next sync brings the record.
					h.log.Warn("re-reading a work order after a write", "workOrder", id, "err", err)
				}
			}
			// Before the answer: the desktop re-reads what it changed next.
			h.refreshReads(after, changed)
		}
		return h.record(after, tx, wr)
	})
	switch {
	case errors.Is(err, errDesktopGone):
		h.log.Info("a write was not sent: its desktop hung up first", "messageId", wr.messageId)
		return
	case err != nil && wr.status == 0:
		msg := unreachableMessage
		if errors.Is(err, errWaitedTooLong) {
			msg = busyMessage
			h.log.Warn("an upload waited too long for its turn", "err", err)
			writeError(w, unavailable(msg), wr.messageId)
		} else {
			h.unreachable(w, wr.messageId, err)
		}
		// The attempt is audited too: who tried what, and that it did not reach the service.
		wr.status = http.StatusServiceUnavailable
		wr.answer, _ = json.Marshal(&api.Error{Message: msg, MessageId: wr.messageId})
		if err := pgx.BeginFunc(after, h.db.Pool, func(tx pgx.Tx) error {
			return h.record(after, tx, wr)
		}); err != nil {
			h.log.Error("auditing a write that did not reach the service", "err", err)
		}
		return
	case err != nil:
		// The service answered; only the audit or the event was lost.
		h.log.Error("recording a forwarded write", "err", err)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if wr.retryAfter != "" {
		w.Header().Set("Retry-After", wr.retryAfter)
	}
	w.WriteHeader(wr.status)
	w.Write(wr.answer)
}

// maxBulk caps the work orders of one bulk call as the sandbox does: the
// service publishes no limit, the sandbox assumes 100 and refuses more
// with this same answer.
const maxBulk = 100

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
		if method == wr.method && normalizePath(path) == normalizePath(wr.path) && json.Valid([]byte(answer)) {
			return []byte(answer), true, nil
		}
	}
	return nil, false, rows.Err()
}

// prepareJSON reads a JSON body and finds the work orders it names; a
// malformed body is refused as the service would, and nothing is forwarded.
func prepareJSON(w http.ResponseWriter, r *http.Request, wr *write) *api.Error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		return invalid("", "the request body is larger than the 4 MB limit")
	}
	var env struct {
		MessageId    string
		WorkOrderId  int64
		WorkOrderIds []int64
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return invalid("", "the request body is empty")
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return invalid("", "the request body is not valid: "+err.Error())
	}
	if env.MessageId != "" {
		wr.messageId = env.MessageId
	}
	switch {
	case env.WorkOrderId > 0:
		wr.workOrders = []int64{env.WorkOrderId}
	case len(env.WorkOrderIds) > maxBulk:
		// Each work order named takes a lock in PostgreSQL until the write
		// is done: a body of thousands would exhaust them for everyone.
		return invalid("WorkOrderIds", fmt.Sprintf("at most %d work orders per bulk call; %d were given", maxBulk, len(env.WorkOrderIds)))
	case len(env.WorkOrderIds) > 0:
		for _, id := range env.WorkOrderIds {
			if id <= 0 {
				return invalid("WorkOrderIds", "each of WorkOrderIds must be a positive integer")
			}
		}
		wr.workOrders = env.WorkOrderIds
	default:
		return invalid("WorkOrderId", "WorkOrderId is required")
	}
	wr.contentType = "application/json; charset=utf-8"
	wr.body = func() io.Reader { return bytes.NewReader(b) }
	wr.replayable = true
	return nil
}

func idsFromQuery(q url.Values, wr *write) *api.Error {
	for k, vs := range q {
		if strings.EqualFold(k, "workOrderId") && len(vs) > 0 {
			id, err := strconv.ParseInt(vs[0], 10, 64)
			if err != nil || id <= 0 {
				return invalid("workOrderId", "workOrderId must be a positive integer")
			}
			wr.workOrders = []int64{id}
			wr.replayable = true
			return nil
		}
	}
	return invalid("workOrderId", "workOrderId is required")
}

// locked runs fn in a transaction holding the advisory locks of ids (in
// order, so two bulk writes never wait on each other crosswise). The locks
// end with the transaction, or with the session when an instance dies. It
// waits for its turn until wait ends, then runs with ctx. The transaction
// is on the writes' own pool: however many writes wait on slow uploads,
// reads and sign-ins keep the main pool.
func (h *Hub) locked(ctx, wait context.Context, ids []int64, fn func(pgx.Tx) error) error {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	release, err := h.turns.take(wait, sorted)
	if err != nil {
		return waited(err)
	}
	defer release()
	conn, err := h.db.writes.Acquire(wait)
	if err != nil {
		return waited(err)
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	for _, id := range sorted {
		hi, lo := workOrderLockKeys(id)
		if _, err := tx.Exec(wait, `SELECT pg_advisory_xact_lock($1, $2)`, hi, lo); err != nil {
			return waited(fmt.Errorf("hub: waiting for work order %d: %w", id, err))
		}
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// errWaitedTooLong: an upload waited for its turn longer than its body may
// stall; the desktop may be gone, and if not its outbox tries again.
var errWaitedTooLong = errors.New("waited too long for other writes to the work order")

func waited(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", errWaitedTooLong, err)
	}
	return err
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
