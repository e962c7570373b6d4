package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/outbox"
)

// A write's intent row (migration 0006): committed before the write is
// sent, settled in the transaction that records the service's answer.
const (
	intentSending  = "sending"  // maybe sent, no answer recorded: in doubt
	intentAnswered = "answered" // the service took it
	intentRefused  = "refused"  // the service refused it: nothing changed
	intentUnknown  = "unknown"  // in doubt, and nothing can tell: never sent again
	// unsent: was in doubt, and the service said it did not take it.
)

type intent struct {
	id     int64
	state  string
	answer []byte
	base   json.RawMessage // landed_base: what the service held before the first send
}

// loadIntent is wr's intent, if an earlier attempt left one: the same
// person, operation and MessageId.
func loadIntent(ctx context.Context, tx pgx.Tx, wr *write) (intent, bool, error) {
	var in intent
	var answer, base *string
	err := tx.QueryRow(ctx, `SELECT id, state, answer, landed_base FROM intents
		WHERE person_id = $1 AND message_id = $2 AND method = $3 AND route = $4`,
		wr.person.Id, wr.messageId, wr.method, serve.Route(wr.route.Path)).Scan(&in.id, &in.state, &answer, &base)
	if errors.Is(err, pgx.ErrNoRows) {
		return intent{}, false, nil
	}
	if err != nil {
		return intent{}, false, fmt.Errorf("hub: looking for an earlier attempt: %w", err)
	}
	if answer != nil {
		in.answer = []byte(*answer)
	}
	if base != nil {
		in.base = json.RawMessage(*base)
	}
	if in.state == intentAnswered && !json.Valid(in.answer) {
		// Not an answer that can be given again: ask the service.
		in.state = intentSending
	}
	return in, true, nil
}

// openIntent commits wr's intent (or marks another attempt of it) before
// anything is sent: on a connection of its own, so it stays committed
// whatever happens to the write's transaction. An intent the service
// refused before starts over: a refusal changed nothing.
func (db *DB) openIntent(ctx context.Context, wr *write) error {
	var base *string
	if wr.base != nil {
		b := string(wr.base)
		base = &b
	}
	_, err := db.Pool.Exec(ctx, `INSERT INTO intents (person_id, message_id, method, route, path, kind, work_orders, request, state, landed_base)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'sending', $9)
		ON CONFLICT (person_id, message_id, method, route) DO UPDATE
		SET state = 'sending', attempts = intents.attempts + 1, updated = now(), landed_base = EXCLUDED.landed_base`,
		wr.person.Id, wr.messageId, wr.method, serve.Route(wr.route.Path), wr.path, string(wr.route.Kind),
		wr.workOrders, string(wr.request), base)
	if err != nil {
		return fmt.Errorf("hub: writing the write's intent: %w", err)
	}
	return nil
}

// unsentIntent records that wr's latest attempt never reached the service.
func (db *DB) unsentIntent(ctx context.Context, wr *write) error {
	_, err := db.Pool.Exec(ctx, `UPDATE intents SET state = 'unsent', updated = now()
		WHERE person_id = $1 AND message_id = $2 AND method = $3 AND route = $4 AND state = 'sending'`,
		wr.person.Id, wr.messageId, wr.method, serve.Route(wr.route.Path))
	return err
}

// settleIntent records in tx what became of wr: taken, refused, or still
// in doubt (a server fault's answer does not say whether it was applied).
func settleIntent(ctx context.Context, tx pgx.Tx, wr *write) error {
	state := intentRefused
	switch {
	case wr.status == http.StatusOK:
		state = intentAnswered
	case wr.status == http.StatusConflict && api.IsOutcomeUnknown(answerError(wr)):
		state = intentUnknown
	case wr.status >= 500:
		state = intentSending
	}
	req := wr.request
	if wr.upload != nil {
		if n := wr.upload.size.Load(); n > 0 {
			req = outbox.UploadRequest(wr.workOrders[0], wr.upload.step, wr.upload.name, n)
		}
	}
	_, err := tx.Exec(ctx, `UPDATE intents SET state = $5, status = $6, answer = $7, request = $8, updated = now()
		WHERE person_id = $1 AND message_id = $2 AND method = $3 AND route = $4`,
		wr.person.Id, wr.messageId, wr.method, serve.Route(wr.route.Path), state, wr.status, string(wr.answer), string(req))
	if err != nil {
		return fmt.Errorf("hub: settling the write's intent: %w", err)
	}
	return nil
}

// answerError is wr's answer as the error a desktop's client reads.
func answerError(wr *write) error {
	e := &api.Error{StatusCode: wr.status}
	json.Unmarshal(wr.answer, e)
	return e
}

// outcomeUnknownBody is the 409 of a write in doubt that nothing can
// settle (api.OutcomeUnknown): the desktop asks the person to send it
// again (under a new MessageId) or discard it.
func outcomeUnknownBody(messageId string) []byte {
	_, b := serve.ErrorBody(&api.Error{StatusCode: http.StatusConflict,
		Message: api.OutcomeUnknown + ": this write may have reached the service already, and nothing the service offers can tell " +
			"(it lists only messages everyone sees, or the hub kept no record of what was there before it was sent). " +
			"The hub did not send it again and will not under this MessageId: send it again as a new one, or discard it."}, messageId)
	return b
}

// settle asks the service whether an earlier attempt of wr took effect,
// with the outbox's landed check of its kind. done: wr now holds the
// answer to give, from what was found (200) or 409 "outcome unknown";
// false: it did not land, or its kind has no check (sending it again
// changes nothing twice), and it may be sent.
func (h *Hub) settle(ctx context.Context, wr *write) (done bool, err error) {
	checked, landed, result, err := outbox.Landed(ctx, h.client, outbox.LandedQuery{
		Kind: wr.route.Kind, Request: wr.request, WorkOrders: wr.workOrders, Before: wr.base,
	})
	switch {
	case errors.Is(err, outbox.ErrOutcomeUnknown):
		h.log.Warn("a write in doubt that nothing can settle: answered 409, not sent again", "messageId", wr.messageId)
		wr.status, wr.answer = http.StatusConflict, outcomeUnknownBody(wr.messageId)
		return true, nil
	case err != nil:
		return false, err
	case !checked || !landed:
		return false, nil
	}
	h.log.Info("an earlier attempt of a write had reached the service; not sending it again", "messageId", wr.messageId)
	wr.status, wr.answer = http.StatusOK, answerOf(result, wr.messageId)
	h.followWrite(ctx, wr)
	return true, nil
}

// answerOf is the service's answer to a write, made from what a landed
// check found of it.
func answerOf(result any, messageId string) []byte {
	var v any
	switch r := result.(type) {
	case []api.BulkResult:
		v = r
	case *api.Invoice:
		v = map[string]any{"Invoice": r, "MessageId": messageId}
	case *api.Attachment:
		v = map[string]any{"Attachment": r, "MessageId": messageId}
	default:
		v = map[string]any{"MessageId": messageId}
	}
	b, _ := json.Marshal(v)
	return b
}

// recordUntilTaken writes wr's record (audit, intent, events) again, in a
// transaction holding its work orders' locks (so a retry of it recording
// at once cannot write it twice), until PostgreSQL takes it or the hub
// closes.
func (h *Hub) recordUntilTaken(ctx context.Context, wr *write) error {
	ids := slices.Clone(wr.workOrders)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	wait := 100 * time.Millisecond
	for {
		err := pgx.BeginFunc(ctx, h.db.Pool, func(tx pgx.Tx) error {
			for _, id := range ids {
				hi, lo := workOrderLockKeys(id)
				if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, hi, lo); err != nil {
					return err
				}
			}
			return h.record(ctx, tx, wr)
		})
		if err == nil {
			return nil
		}
		h.log.Warn("recording a forwarded write; trying again", "messageId", wr.messageId, "err", err)
		select {
		case <-h.life.Done():
			return fmt.Errorf("hub: closing before a forwarded write was recorded: %w", err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// orphanAfter is how long a write stays in doubt before the syncing
// instance settles it itself: its desktop would have sent it again by
// then (its outbox retries within seconds) unless it gave up, and then
// nobody else would ever write its audit row and event.
const orphanAfter = 2 * time.Minute

// settleOrphans settles the writes left in doubt (a crash, an answer lost)
// that no desktop sent again: each one whose work orders no write holds is
// checked with the service; one that landed gets its audit row and event
// as if answered, one that did not is marked unsent (sent, under its
// MessageId, if its desktop ever sends it again).
func (h *Hub) settleOrphans(ctx context.Context) error {
	rows, err := h.db.Pool.Query(ctx, `SELECT i.id, i.person_id, p.name, i.message_id, i.method, i.route, i.path, i.work_orders, i.request,
		i.landed_base FROM intents i JOIN people p ON p.id = i.person_id
		WHERE i.state = 'sending' AND i.updated < now() - $1::interval ORDER BY i.id LIMIT 100`, orphanAfter)
	if err != nil {
		return fmt.Errorf("hub: listing writes in doubt: %w", err)
	}
	type orphan struct {
		id    int64
		wr    *write
		route string
	}
	var orphans []orphan
	for rows.Next() {
		var o orphan
		var request string
		var base *string
		wr := &write{}
		if err := rows.Scan(&o.id, &wr.person.Id, &wr.person.Name, &wr.messageId, &wr.method, &o.route, &wr.path, &wr.workOrders, &request, &base); err != nil {
			rows.Close()
			return fmt.Errorf("hub: listing writes in doubt: %w", err)
		}
		wr.request = json.RawMessage(request)
		if base != nil {
			wr.base = json.RawMessage(*base)
		}
		o.wr = wr
		orphans = append(orphans, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("hub: listing writes in doubt: %w", err)
	}
	for _, o := range orphans {
		route, ok := writeRouteOf(o.wr.method, o.route)
		if !ok || len(o.wr.workOrders) == 0 {
			continue // a write this hub does not forward any more: left as it is
		}
		o.wr.route = route
		if err := h.settleOrphan(ctx, o.id, o.wr); err != nil {
			h.log.Warn("settling a write left in doubt", "messageId", o.wr.messageId, "err", err)
		}
	}
	return nil
}

// settleOrphan settles one write in doubt, unless a write holds its work
// orders (it is being sent again now).
func (h *Hub) settleOrphan(ctx context.Context, id int64, wr *write) error {
	ids := slices.Clone(wr.workOrders)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	return pgx.BeginFunc(ctx, h.db.writes, func(tx pgx.Tx) error {
		for _, wo := range ids {
			hi, lo := workOrderLockKeys(wo)
			var got bool
			if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, $2)`, hi, lo).Scan(&got); err != nil || !got {
				return err
			}
		}
		var state string
		if err := tx.QueryRow(ctx, `SELECT state FROM intents WHERE id = $1`, id).Scan(&state); err != nil || state != intentSending {
			return err
		}
		done, err := h.settle(ctx, wr)
		if err != nil {
			return err
		}
		if !done {
			_, err := tx.Exec(ctx, `UPDATE intents SET state = 'unsent', updated = now() WHERE id = $1`, id)
			return err
		}
		return h.record(ctx, tx, wr)
	})
}
