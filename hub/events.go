package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// eventsLock serialises event inserts from insert to commit, so event ids
// become visible in increasing order: a stream resuming from Last-Event-ID
// then never misses an event committed late with a smaller id.
const eventsLock = 0x574F444855422D45

// notifyChannel is the LISTEN/NOTIFY channel; the payload is the event id.
const notifyChannel = "workdesk_hub_events"

// record writes the audit rows of a forwarded write, settles its intent
// and, when the service accepted it, writes an event per work order it
// changed (the hub's own event, carrying the re-read records), all in tx:
// the events reach the streams when it commits. Every statement is safe
// to run again (the first attempt's transaction was lost, perhaps after
// its commit), so a write is recorded once however often it is retried.
func (h *Hub) record(ctx context.Context, tx pgx.Tx, wr *write) error {
	if err := h.audit(ctx, tx, wr); err != nil {
		return err
	}
	if err := settleIntent(ctx, tx, wr); err != nil {
		return err
	}
	if wr.status != http.StatusOK {
		return nil
	}
	now := time.Now().UTC()
	subject, detail, message := wr.subject().EventFields()
	for _, id := range h.succeeded(wr) {
		body, err := json.Marshal(HubEvent{
			Header:      api.EventHeader{WorkOrderId: id, Action: wr.route.Event, ActionDate: now, MessageId: wr.messageId},
			PerformedBy: Performer{Name: wr.person.Name},
			Subject:     subject,
			Reread:      wr.reread[id],
			Detail:      detail,
			Message:     message,
		})
		if err != nil {
			return err
		}
		if err := insertEvent(ctx, tx, wr.messageId, wr.route.Event, id, body); err != nil {
			return err
		}
	}
	return nil
}

// audit writes the audit rows of a write (one per work order it names, so
// each work order's audit shows it), unless they are there already.
func (h *Hub) audit(ctx context.Context, tx pgx.Tx, wr *write) error {
	ids := []*int64{nil}
	if len(wr.workOrders) > 0 {
		ids = ids[:0]
		for i := range wr.workOrders {
			ids = append(ids, &wr.workOrders[i])
		}
	}
	const q = `INSERT INTO audit (person_id, work_order_id, method, path, message_id, status, answer)
		SELECT $1::bigint, $2::bigint, $3::text, $4::text, $5::text, $6::int, $7::text
		WHERE NOT EXISTS (SELECT 1 FROM audit WHERE message_id = $5 AND person_id = $1
			AND work_order_id IS NOT DISTINCT FROM $2 AND method = $3 AND path = $4 AND status = $6)`
	results, perItem := itemResults(wr)
	for _, id := range ids {
		status, answer := wr.status, string(wr.answer)
		if perItem && id != nil {
			// Each work order's row says what became of it: a refused item
			// is audited as refused, with the service's words for it.
			r := results[*id]
			b, _ := json.Marshal(r)
			switch {
			case r.Refused():
				status, answer = http.StatusBadRequest, string(b)
			case !r.Succeeded():
				// Not known to be done: the answer did not say, and the
				// work order re-read could not tell.
				status, answer = http.StatusAccepted, string(b)
			}
		}
		if _, err := tx.Exec(ctx, q, wr.person.Id, id, wr.method, wr.path, wr.messageId, status, answer); err != nil {
			return fmt.Errorf("hub: writing the audit: %w", err)
		}
	}
	return nil
}

// insertEvent stores one event unless it is there already (a notification
// delivered twice, a write retried with its MessageId) and NOTIFYs every
// instance when the transaction commits.
func insertEvent(ctx context.Context, tx pgx.Tx, messageId, action string, workOrderId int64, body []byte) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(eventsLock)); err != nil {
		return fmt.Errorf("hub: storing an event: %w", err)
	}
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO events (message_id, action, work_order_id, body) VALUES ($1, $2, $3, $4)
		ON CONFLICT DO NOTHING RETURNING id`, messageId, action, workOrderId, string(body)).Scan(&id)
	if err == pgx.ErrNoRows {
		return nil
	}
	if err != nil {
		return fmt.Errorf("hub: storing an event: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, strconv.FormatInt(id, 10)); err != nil {
		return fmt.Errorf("hub: announcing an event: %w", err)
	}
	return nil
}

// handleNotification takes a verified notification as a hint: from its
// body only the work order, the action and the MessageId, and the facts
// only it carries (notified). It waits for the re-read that covers it
// (rereads: one at a time per work order, notifications arriving meanwhile
// folded into the next) and its event, if the re-read found a change. A
// token does not cover its body, and the service may reuse one: an action
// only the hub names is refused, and an unknown one re-reads its work
// order and tells no desktop (they ignore unknown actions).
func (h *Hub) handleNotification(ctx context.Context, ev api.Event) error {
	if hubAction(ev.Header.Action) {
		return errHubAction
	}
	id := notificationWorkOrder(ev)
	if id == 0 && !api.Touches(ev.Header.Action).Has(api.TouchSettings) {
		// Of no work order, and not the company's settings: nothing to
		// read again, nothing to tell.
		return nil
	}
	select {
	case err := <-h.notices.add(id, ev):
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// auditEntry is one row of GET /api/hub/audit.
type auditEntry struct {
	At          time.Time       `json:"At"`
	Person      string          `json:"Person"`
	WorkOrderId int64           `json:"WorkOrderId"`
	Operation   string          `json:"Operation"`
	MessageId   string          `json:"MessageId"`
	Status      int             `json:"Status"`
	Answer      json.RawMessage `json:"Answer"`
}

// serveAudit answers GET /api/hub/audit?workOrderId=N: who did what to the
// work order, when, and what the service answered, oldest first.
func (h *Hub) serveAudit(w http.ResponseWriter, r *http.Request) {
	msgID := serve.MessageId(r.URL.Query(), nil)
	if msgID == "" {
		msgID = uuid.NewString()
	}
	wr := &write{}
	if bad := idsFromQuery(r.URL.Query(), wr); bad != nil {
		serve.WriteError(w, bad, msgID)
		return
	}
	rows, err := h.db.Pool.Query(r.Context(), `SELECT a.at, p.name, a.work_order_id, a.method, a.path, a.message_id, a.status, a.answer
		FROM audit a JOIN people p ON p.id = a.person_id WHERE a.work_order_id = $1 ORDER BY a.id`, wr.workOrders[0])
	if err != nil {
		serve.WriteError(w, unavailable("the hub cannot reach its database"), msgID)
		return
	}
	out := []auditEntry{}
	for rows.Next() {
		var e auditEntry
		var method, path, answer string
		if err := rows.Scan(&e.At, &e.Person, &e.WorkOrderId, &method, &path, &e.MessageId, &e.Status, &answer); err != nil {
			rows.Close()
			serve.WriteError(w, unavailable("the hub cannot read its audit"), msgID)
			return
		}
		e.Operation = method + " " + path
		if json.Valid([]byte(answer)) {
			e.Answer = json.RawMessage(answer)
		} else {
			e.Answer, _ = json.Marshal(strings.TrimSpace(answer))
		}
		out = append(out, e)
	}
	rows.Close()
	serve.WriteJSON(w, http.StatusOK, map[string]any{"Audit": out, "MessageId": msgID})
}
