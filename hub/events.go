package hub

import (
	"bytes"
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
	"github.com/workorderdesk/workdesk/storage"
)

// eventsLock serialises event inserts from insert to commit, so event ids
// become visible in increasing order: a stream resuming from Last-Event-ID
// then never misses an event committed late with a smaller id.
const eventsLock = 0x574F444855422D45

// notifyChannel is the LISTEN/NOTIFY channel; the payload is the event id.
const notifyChannel = "workdesk_hub_events"

// hubActions names the event a forwarded write becomes, by method and
// normalized path, as the outbox's action table says (storage.WriteRoutes).
// The service sends no notification for actions taken through its API, so
// the hub tells everyone itself. Desktops that do not know an action ignore
// its body and refresh the work order it names.
var hubActions = func() map[string]storage.WriteRoute {
	m := map[string]storage.WriteRoute{}
	for _, r := range storage.WriteRoutes() {
		m[r.Method+" "+serve.Route(r.Path)] = r
	}
	return m
}()

// HubEvent is the data of an event the hub makes for a forwarded write: the
// service's envelope plus who acted and, for an action done to someone
// (an assignment), whom, as the write named them.
type HubEvent struct {
	Header      api.EventHeader            `json:"Header"`
	PerformedBy Performer                  `json:"PerformedBy"`
	Detail      map[string]json.RawMessage `json:"Detail,omitempty"`
}

// whomOf copies the request field named field from a forwarded JSON write
// into an event's Detail (nil when there is none).
func whomOf(wr *write, field string) map[string]json.RawMessage {
	if field == "" || wr.body == nil || !wr.replayable {
		return nil
	}
	var m map[string]json.RawMessage
	if json.NewDecoder(wr.body()).Decode(&m) != nil {
		return nil
	}
	for k, v := range m {
		if strings.EqualFold(k, field) {
			return map[string]json.RawMessage{field: v}
		}
	}
	return nil
}

// Performer names the person who acted through the hub.
type Performer struct {
	Name string `json:"Name"`
}

// record writes the audit rows of a forwarded write (one per work order it
// names, so each work order's audit shows it) and, when the service
// accepted it, an event per work order it changed, in the write's
// transaction: the events reach the streams when it commits. again: the
// write's own transaction was lost, perhaps after its commit, so rows
// already there are not written twice.
func (h *Hub) record(ctx context.Context, tx pgx.Tx, wr *write, again bool) error {
	ids := []*int64{nil}
	if len(wr.workOrders) > 0 {
		ids = ids[:0]
		for i := range wr.workOrders {
			ids = append(ids, &wr.workOrders[i])
		}
	}
	q := `INSERT INTO audit (person_id, work_order_id, method, path, message_id, status, answer)
		SELECT $1::bigint, $2::bigint, $3::text, $4::text, $5::text, $6::int, $7::text`
	if again {
		q += ` WHERE NOT EXISTS (SELECT 1 FROM audit WHERE message_id = $5 AND person_id = $1
			AND work_order_id IS NOT DISTINCT FROM $2 AND method = $3 AND path = $4 AND status = $6)`
	}
	for _, id := range ids {
		if _, err := tx.Exec(ctx, q, wr.person.Id, id, wr.method, wr.path, wr.messageId, wr.status, string(wr.answer)); err != nil {
			return fmt.Errorf("hub: writing the audit: %w", err)
		}
	}
	if wr.status != http.StatusOK {
		return nil
	}
	route, ok := hubActions[wr.method+" "+serve.Route(wr.path)]
	action := route.Event
	if !ok {
		action = "Changed"
	}
	detail := whomOf(wr, route.Whom)
	now := time.Now().UTC()
	for _, id := range h.succeeded(wr) {
		body, err := json.Marshal(HubEvent{
			Header:      api.EventHeader{WorkOrderId: id, Action: action, ActionDate: now, MessageId: wr.messageId},
			PerformedBy: Performer{Name: wr.person.Name},
			Detail:      detail,
		})
		if err != nil {
			return err
		}
		if err := insertEvent(ctx, tx, wr.messageId, action, id, body); err != nil {
			return err
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

// handleNotification re-reads the work order a verified notification names
// into the replica, and the answers stored about it, then stores the event
// and tells every instance: a desktop that reads the work order when it
// hears the event gets the new version.
func (h *Hub) handleNotification(ctx context.Context, ev api.Event) error {
	// One line of data per event on the streams.
	var compact bytes.Buffer
	if err := json.Compact(&compact, ev.Raw); err != nil {
		return err
	}
	if id := ev.Header.WorkOrderId; id > 0 {
		if err := h.db.readsChanged(ctx, []int64{id}); err != nil {
			h.log.Warn("marking the reads of a work order a notification names", "err", err)
		}
		// A failed or slow re-read is caught by the next sync, or the next
		// desktop to read: the event still goes out, in time.
		rctx, cancel := context.WithTimeout(ctx, h.opts.RefreshTimeout)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.refreshReads(rctx, []int64{id})
		}()
		if err := h.refreshWorkOrders(rctx, []int64{id}); err != nil {
			h.log.Warn("re-reading a work order after a notification", "workOrder", id, "err", err)
		}
		<-done
	}
	return pgx.BeginFunc(ctx, h.db.Pool, func(tx pgx.Tx) error {
		return insertEvent(ctx, tx, ev.Header.MessageId, ev.Header.Action, ev.Header.WorkOrderId, compact.Bytes())
	})
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
