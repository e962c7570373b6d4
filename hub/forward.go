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
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/outbox"
)

// write is one desktop write on its way to the service.
type write struct {
	person      Person
	method      string
	path        string // as the desktop sent it
	route       writeRoute
	messageId   string
	workOrders  []int64
	body        func() io.Reader
	contentType string
	replayable  bool
	// request is the write as the landed checks read it (see
	// outbox.LandedQuery); upload, for a file, its name, step and size.
	request json.RawMessage
	upload  *uploadInfo
	// base is what its landed check compares against, read before it was
	// first sent (outbox.Entry.Before) and kept in its intent.
	base json.RawMessage
	// items are a bulk write's per-item outcomes, judged (judgeItems);
	// nil for a write answered otherwise.
	items map[int64]api.BulkResult
	// answer is the service's answer, kept for the audit and the refresh.
	status int
	answer []byte
	// replayed: the answer is the one recorded for an earlier attempt with
	// this MessageId; nothing was sent or recorded now.
	replayed bool
	// cut: the service's answer broke off while it was read.
	cut error
	// retryAfter is the service's Retry-After (429, 503), passed on so the
	// desktop's outbox waits as the service asked.
	retryAfter string
	// tooLarge: the upload's file went over the limit as it arrived.
	tooLarge atomic.Bool
	// reread is what the write changed, read again, for its events.
	reread map[int64]*Reread
}

// forwardWrite sends a desktop's write to the service with the company's
// credentials and the desktop's MessageId, exactly once, one at a time per
// work order across every instance (see forward); then re-reads the work
// order into the replica, records who did it and tells every stream.
func (h *Hub) forwardWrite(w http.ResponseWriter, r *http.Request, p string, person Person) {
	route, _ := writeRouteOf(r.Method, p)
	wr := &write{person: person, method: r.Method, path: r.URL.Path, route: route, messageId: serve.MessageId(r.URL.Query(), nil)}
	var cleanup func()
	var bad *api.Error
	switch ct := r.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "multipart/form-data"):
		cleanup, bad = h.prepareUpload(w, r, wr)
		if cleanup != nil {
			defer cleanup()
		}
	case r.Method == http.MethodDelete:
		bad = prepareDelete(r.URL.Query(), wr)
	default:
		bad = prepareJSON(w, r, wr)
	}
	if bad != nil {
		if bad.StatusCode == http.StatusRequestEntityTooLarge {
			w.Header().Set("Connection", "close")
		}
		serve.WriteError(w, bad, wr.messageId)
		return
	}
	began, result := time.Now(), writeInDoubt
	defer func() { h.metrics.wrote(result, time.Since(began)) }()
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
		result = writeAbandoned
		h.sec.note(secDisabledCall, clientFrom(r.Context()), person.Name+": a write that waited its turn")
		serve.Denied(w, wr.messageId)
		return
	case errors.Is(err, errDesktopGone):
		result = writeAbandoned
		h.log.Info("a write was not sent: its desktop hung up first", "messageId", wr.messageId)
		return
	case err != nil && wr.tooLarge.Load():
		result = writeAbandoned
		w.Header().Set("Connection", "close")
		serve.WriteError(w, uploadTooLarge(), wr.messageId)
		return
	case err != nil && wr.status == 0:
		msg := unreachableMessage
		result = writeUnreachable
		if errors.Is(err, errWaitedTooLong) {
			msg, result = busyMessage, writeBusy
			h.log.Warn("a write waited too long for its turn or a database connection", "err", err)
			serve.WriteError(w, unavailable(msg), wr.messageId)
		} else {
			h.unreachable(w, wr.messageId, err)
		}
		// The attempt is audited too: who tried what, and that it did not
		// reach the service (or that the hub could not tell: its intent
		// stays in doubt).
		wr.status = http.StatusServiceUnavailable
		wr.answer, _ = json.Marshal(&api.Error{Message: msg, MessageId: wr.messageId})
		if err := pgx.BeginFunc(after, h.db.Pool, func(tx pgx.Tx) error {
			return h.audit(after, tx, wr)
		}); err != nil {
			h.log.Error("auditing a write that did not reach the service", "err", err)
		}
		return
	case err != nil:
		// Its record could not be written before the hub closed: its intent
		// is in doubt, and the desktop's retry settles it.
		h.unreachable(w, wr.messageId, err)
		return
	}
	if wr.cut != nil {
		// The write reached the service but its answer did not come back
		// whole, and the service could not be asked whether it took it:
		// the desktop's outbox retries, and the hub asks first.
		h.unreachable(w, wr.messageId, wr.cut)
		return
	}
	switch {
	case wr.replayed:
		result = writeRepeat
	case wr.status < 300:
		result = writeOK
	case wr.status < 500:
		result = writeRefused
	default:
		result = writeServiceError
	}
	if wr.retryAfter != "" {
		w.Header().Set("Retry-After", wr.retryAfter)
	}
	serve.WriteRaw(w, wr.status, wr.answer)
}

// errSignedOut: the person was disabled while their write waited its turn.
var errSignedOut = errors.New("the person was disabled")

// forward sends wr to the service in its turn (waiting for it until wait
// ends), exactly once:
//
//   - its intent is committed before anything is sent;
//   - a write whose earlier attempt was answered is answered again from the
//     record, not sent;
//   - a write in doubt (sent before with no answer recorded: a crash, a lost
//     answer, a retry with its MessageId; or any write the hub does not know
//     while the database may have lost writes, see Options.Restored) is sent
//     only after the service, asked (the outbox's landed checks), says it
//     did not take it; if it did, the desktop is answered from what was
//     found; where nothing can tell, it is answered 409 "outcome unknown"
//     and never sent again under that MessageId.
//
// Once the service has answered, the write is seen through even if the
// desktop hangs up meanwhile: the re-reads, then its audit, its intent and
// its events in one transaction, retried until PostgreSQL takes them, so a
// write answered 200 always has them. (An upload cannot be sent without
// its desktop: its file comes from it as the service reads it.)
func (h *Hub) forward(r *http.Request, wr *write, wait context.Context) error {
	after := context.WithoutCancel(r.Context())
	call := after
	h.waiting.Add(1)
	waiting := true
	turnCame := func() {
		if waiting {
			waiting = false
			h.waiting.Add(-1)
		}
	}
	defer turnCame()
	if !wr.replayable {
		call = r.Context()
		release, err := h.takeUploadSlot(wait)
		if err != nil {
			return err
		}
		defer release()
	}
	err := h.locked(after, wait, wr.workOrders, func(tx pgx.Tx) error {
		turnCame()
		// The person may have been disabled while the write waited.
		var disabled bool
		if err := tx.QueryRow(after, `SELECT disabled FROM people WHERE id = $1`, wr.person.Id).Scan(&disabled); err != nil {
			return fmt.Errorf("hub: checking the person: %w", err)
		}
		if disabled {
			return errSignedOut
		}
		in, found, err := loadIntent(after, tx, wr)
		if err != nil {
			return err
		}
		doubt := false
		switch {
		case found && in.state == intentAnswered:
			wr.status, wr.answer, wr.replayed = http.StatusOK, in.answer, true
			return nil
		case found && in.state == intentUnknown:
			wr.status, wr.answer, wr.replayed = http.StatusConflict, outcomeUnknownBody(wr.messageId), true
			return nil
		case found && in.state == intentSending:
			doubt = true
			wr.base = in.base
		case !found && h.restoredCare():
			// The database may have lost this write's intent: it may be
			// a retry of one the service took.
			doubt = true
		}
		if !doubt {
			h.readBefore(after, wr)
		}
		if err := h.db.openIntent(after, wr); err != nil {
			return err
		}
		if doubt {
			if done, err := h.settle(after, wr); err != nil || done {
				if err != nil {
					return fmt.Errorf("asking the service whether an earlier attempt took effect: %w", err)
				}
				return h.record(after, tx, wr)
			}
		}
		resp, err := h.send(call, r.Context(), wr.method, r.URL, wr.body, wr.contentType, wr.replayable)
		if errors.Is(err, errNotSent) || errors.Is(err, errDesktopGone) {
			// Not in doubt: nothing reached the service.
			if uerr := h.db.unsentIntent(after, wr); uerr != nil {
				h.log.Warn("marking a write unsent", "err", uerr)
			}
			return err
		}
		if err == nil {
			defer resp.Body.Close()
			wr.status = resp.StatusCode
			wr.retryAfter = resp.Header.Get("Retry-After")
			wr.answer, wr.cut = io.ReadAll(io.LimitReader(resp.Body, serve.MaxJSONBody))
		}
		if wr.tooLarge.Load() {
			// Cut off at the limit: the service cannot have stored it.
			wr.status, wr.answer, wr.cut = 0, nil, nil
			return errors.Join(err, errFileTooLarge)
		}
		if err != nil || wr.cut != nil {
			// The service may have taken the write and lost its answer: ask
			// it now, rather than leave the desktop to send it again.
			h.log.Warn("a write's answer was lost; asking the service whether it took it", "err", errors.Join(err, wr.cut))
			wr.status, wr.answer, wr.retryAfter = 0, nil, ""
			if done, serr := h.settle(after, wr); serr != nil || !done {
				return errors.Join(err, wr.cut, serr, errors.New("the write may not have reached the service"))
			}
			wr.cut = nil
		}
		// From here on the service has answered: whatever fails next, the
		// re-reads, the audit and the event still happen.
		h.followWrite(after, wr)
		return h.record(after, tx, wr)
	})
	if err != nil && wr.status != 0 && !wr.replayed {
		// The service answered (or was found to have taken the write
		// before), but the transaction recording it was lost (its
		// connection ended, the commit failed, PostgreSQL went away): it is
		// recorded again until PostgreSQL takes it.
		h.log.Warn("the record of a forwarded write was lost; writing it again", "err", err)
		return h.recordUntilTaken(after, wr)
	}
	return err
}

// readBefore reads, before a write is first sent, what its landed check
// will compare against should its answer be lost (outbox.Entry.Before:
// how many messages of its text the thread holds), for its intent, within
// RefreshTimeout. A read that fails or hangs does not hold the write: it
// goes with nothing to compare against, and should its answer then be
// lost, nothing can tell, and the person decides (409).
func (h *Hub) readBefore(ctx context.Context, wr *write) {
	wr.base = nil
	e, ok := outbox.Of(wr.route.Kind)
	if !ok || !e.NeedsBefore() {
		return
	}
	req, err := e.Decode(wr.request)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RefreshTimeout)
	defer cancel()
	base, err := e.Before(ctx, h.client, req)
	if err != nil {
		h.log.Warn("what a write will be checked against could not be read; it goes without", "messageId", wr.messageId, "err", err)
		return
	}
	wr.base = base
}

// followWrite re-reads what a write the service accepted changed, within
// RefreshTimeout: its work orders, 50 per call, the reads stored about
// them and what its event carries, before the desktop is answered (it
// re-reads them next).
func (h *Hub) followWrite(ctx context.Context, wr *write) {
	if wr.status != http.StatusOK {
		return
	}
	h.judgeItems(ctx, wr)
	wr.reread = h.reread(ctx, h.succeeded(wr), wr.route.Reread)
}

// judgeItems reads a bulk write's per-item answer (an array, one item or
// many), for every work order the write named, and settles the items it
// did not say plainly by the work orders re-read, as a desktop's outbox
// does (outbox.Entry.JudgeItems): what the events and the audit say of
// each work order is what the service shows.
func (h *Hub) judgeItems(ctx context.Context, wr *write) {
	var rs []api.BulkResult
	if json.Unmarshal(wr.answer, &rs) != nil {
		return
	}
	rs = api.AccountFor(wr.workOrders, rs)
	if e, ok := outbox.Of(wr.route.Kind); ok {
		if req, err := e.Decode(wr.request); err == nil {
			rs = e.JudgeItems(ctx, h.client, req, rs)
		}
	}
	wr.items = make(map[int64]api.BulkResult, len(rs))
	for _, r := range rs {
		wr.items[r.WorkOrderId] = r
	}
}

// prepareJSON decodes a JSON write once, strictly, into its kind's typed
// request (outbox.Entry.DecodeStrict: a body is the sender's claim), and
// makes what is forwarded, audited and told from that value alone: the
// work orders it names, every one of them (locked, audited, streamed), who
// acts (the person signed in, whatever the body said), and the body sent,
// re-encoded from the typed value rather than the bytes received. A body
// that cannot be read so is refused as the service would (400), before
// anything is written or sent.
func prepareJSON(w http.ResponseWriter, r *http.Request, wr *write) *api.Error {
	b, bad := serve.ReadBody(w, r)
	if bad != nil {
		return bad
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return serve.Invalid("", "the request body is empty")
	}
	e, ok := outbox.Of(wr.route.Kind)
	if !ok {
		return serve.Invalid("", "this write is not one the hub forwards")
	}
	req, err := e.DecodeStrict(b)
	if err != nil {
		var ir *outbox.InvalidRequest
		if errors.As(err, &ir) {
			return serve.Invalid(ir.Field, "%s", ir.Msg)
		}
		return serve.Invalid("", "the request body is not valid: %v", err)
	}
	if bad := messageIdOf(r.URL.Query(), req, wr); bad != nil {
		return bad
	}
	wr.workOrders = e.Targets(req)
	if len(wr.workOrders) > api.MaxBulk {
		// Each work order named takes a lock in PostgreSQL until the write
		// is done: a body of thousands would exhaust them for everyone.
		return serve.Invalid("WorkOrderIds", "at most %d work orders per bulk call; %d were given", api.MaxBulk, len(wr.workOrders))
	}
	outbox.SetPerformedBy(req, wr.person.Name)
	wire, err := e.Wire(req)
	if err != nil {
		return serve.Invalid("", "the request cannot be forwarded: %v", err)
	}
	wr.contentType = "application/json; charset=utf-8"
	wr.body = func() io.Reader { return bytes.NewReader(wire) }
	wr.replayable = true
	wr.request = wire
	return nil
}

// messageIdOf takes a write's MessageId from its typed request, or its
// query when the body has none (one made up, as the service does, when
// neither has one), and puts it in the request forwarded: the audit, the
// intent and the service see one id. A query and a body that disagree are
// refused.
func messageIdOf(q url.Values, req any, wr *write) *api.Error {
	inBody := outbox.MessageID(req)
	inQuery := serve.Query(q, "messageId")
	switch {
	case inBody != "" && inQuery != "" && inBody != inQuery:
		return serve.Invalid("MessageId", "the query's messageId and the body's MessageId differ")
	case inBody != "":
		wr.messageId = inBody
	case inQuery != "":
		wr.messageId = inQuery
	default:
		wr.messageId = uuid.NewString()
	}
	if !utf8.ValidString(wr.messageId) || len(wr.messageId) > maxMessageId {
		return serve.Invalid("MessageId", "the MessageId is not valid")
	}
	outbox.SetMessageID(req, wr.messageId)
	return nil
}

// maxMessageId bounds a MessageId (a GUID is 36 characters): it is stored
// in every audit row and intent of the write.
const maxMessageId = 100

// prepareDelete reads a removal's query: the work order it names, and for
// a file its step and attachment. A parameter given twice is refused: the
// hub and the service could read different ones.
func prepareDelete(q url.Values, wr *write) *api.Error {
	if bad := singleValued(q); bad != nil {
		return bad
	}
	if bad := idsFromQuery(q, wr); bad != nil {
		return bad
	}
	wo := wr.workOrders[0]
	wr.request, _ = json.Marshal(outbox.WorkOrderOnly{WorkOrderId: wo})
	if att := serve.Query(q, "attachmentId"); att != "" {
		var step *api.StepRef
		if serve.Query(q, "procedureId") != "" || serve.Query(q, "stepId") != "" {
			p, bad := serve.QueryID(q, "procedureId")
			if bad != nil {
				return bad
			}
			s, bad := serve.QueryID(q, "stepId")
			if bad != nil {
				return bad
			}
			step = &api.StepRef{WorkOrderId: wo, ProcedureId: p, StepId: s}
		}
		wr.request = outbox.RemoveRequest(wo, step, att)
	}
	return nil
}

// singleValued refuses a query that gives a parameter twice, in any case,
// or a value that is not UTF-8.
func singleValued(q url.Values) *api.Error {
	seen := map[string]bool{}
	for k, vs := range q {
		fold := strings.ToLower(k)
		if seen[fold] || len(vs) > 1 {
			return serve.Invalid(k, "the parameter %q is given twice", k)
		}
		seen[fold] = true
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return serve.Invalid(k, "the parameter %q is not valid UTF-8", k)
			}
		}
	}
	return nil
}

// idsFromQuery finds the work order a request without a body names in
// its query.
func idsFromQuery(q url.Values, wr *write) *api.Error {
	id, bad := serve.QueryID(q, "workOrderId")
	if bad != nil {
		return bad
	}
	wr.workOrders = []int64{id}
	wr.replayable = true
	return nil
}

// subject is what the write's event carries of it (the action table's
// Subject), read from its request; nothing for one that does not decode.
func (wr *write) subject() outbox.Subject {
	e, ok := outbox.Of(wr.route.Kind)
	if !ok {
		return outbox.Subject{}
	}
	req, err := e.Decode(wr.request)
	if err != nil {
		return outbox.Subject{}
	}
	return e.Subject(req)
}

// succeeded lists the work orders the write changed: for a bulk write the
// service answered per item (an array, one item or many), exactly the
// items it reports done; for any other write the service took, all of them.
func (h *Hub) succeeded(wr *write) []int64 {
	results, perItem := itemResults(wr)
	if !perItem {
		if wr.status != http.StatusOK {
			return nil
		}
		return wr.workOrders
	}
	var ok []int64
	for _, id := range wr.workOrders {
		if r, found := results[id]; found && r.Succeeded() {
			ok = append(ok, id)
		}
	}
	return ok
}

// itemResults are a bulk write's per-item outcomes by work order, when the
// service answered it with an array (its documented bulk answer), as
// judgeItems settled them.
func itemResults(wr *write) (map[int64]api.BulkResult, bool) {
	if wr.status != http.StatusOK || wr.items == nil {
		return nil, false
	}
	return wr.items, true
}
