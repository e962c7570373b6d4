package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// ThreadMessage is one message of a work order's thread as the person sees
// it: one the service holds, or one of ours it does not hold yet.
type ThreadMessage struct {
	api.Message
	// Row is set for a message of ours still in the outbox: waiting or
	// being sent (State pending or sending), refused (failed), or sent but
	// not yet in the thread as last read from the service (done) or never
	// to be: the service lists only messages of visibility All.
	Row *OutboxRow
	// Own: the person wrote it, from this window (or, in an office, from
	// any desktop of theirs).
	Own bool
	// Author is who wrote one of ours that the service signs as the API:
	// the colleague the office hub's record names ("" when not known).
	Author string
}

// Thread is the work order's messages: the thread as the service last gave
// it, and ours that it does not show (yet, or ever: a crew-only message is
// not listed), in the order they were written.
func (s *Store) Thread(ctx context.Context, woID int64) ([]ThreadMessage, error) {
	// The thread and when it was read, together: a message of ours sent
	// after that read is shown from the outbox until the next one.
	var raw []byte
	var fetched int64
	var msgs []api.Message
	err := s.r.QueryRowContext(ctx, `SELECT json, fetched_at FROM messages WHERE work_order_id = ?`, woID).Scan(&raw, &fetched)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, fmt.Errorf("storage: reading the thread of work order %d: %w", woID, err)
	default:
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return nil, fmt.Errorf("storage: decoding the thread of work order %d: %w", woID, err)
		}
	}
	out := make([]ThreadMessage, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, ThreadMessage{Message: m})
	}
	if err := s.authors(ctx, woID, out); err != nil {
		return nil, err
	}
	rows, err := s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o JOIN outbox_targets x ON x.outbox_id = o.id
 WHERE x.work_order_id = ? AND o.kind = ? AND (o.state IN ('pending','sending','failed') OR (o.state = 'done' AND (o.updated_at > ?
   OR COALESCE(json_extract(o.request, '$.MessageVisibility'), '') NOT IN ('', 'All'))))
 ORDER BY o.id`, woID, string(outbox.KindMessage), fetched)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		r := &rows[i]
		d, ok := r.Draft("")
		if !ok {
			continue
		}
		out = append(out, ThreadMessage{Row: r, Own: true, Message: api.Message{
			WorkOrderId: woID, Text: d.Text, MessageVisibility: d.Visibility, Created: r.Created,
		}})
	}
	// Sent messages the service does not list belong where they were
	// written, among the listed ones; waiting ones stay last.
	slices.SortStableFunc(out, func(a, b ThreadMessage) int {
		if waiting(a) != waiting(b) {
			return cmpBool(waiting(a), waiting(b))
		}
		return a.Created.Compare(b.Created)
	})
	return out, nil
}

// waiting reports one of our messages not yet sent (or refused).
func waiting(m ThreadMessage) bool { return m.Row != nil && m.Row.State != OutboxDone }

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// authors names who wrote the messages of ours in a thread the service
// gave: the service signs every message sent through its API alike, so
// each is matched, by its text and in order, with a message this window
// sent (the person's own) or one the office hub says a person wrote
// (MessageSent events carry it). What matches nothing keeps the service's
// signature.
func (s *Store) authors(ctx context.Context, woID int64, thread []ThreadMessage) error {
	type written struct {
		text, by string
		own      bool
	}
	var mine []written
	sent, err := s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o JOIN outbox_targets x ON x.outbox_id = o.id
 WHERE x.work_order_id = ? AND o.kind = ? AND o.state = 'done' ORDER BY o.id`, woID, string(outbox.KindMessage))
	if err != nil {
		return err
	}
	for _, r := range sent {
		if d, ok := r.Draft(""); ok {
			mine = append(mine, written{text: d.Text, own: true})
		}
	}
	evs, err := s.Events(ctx, woID)
	if err != nil {
		return err
	}
	me, _, _ := s.Setting(ctx, settingHubPerson)
	var hub []written
	for _, e := range evs {
		if text, ok := EventMessage(e.Event); ok && e.PerformedBy != "" {
			hub = append(hub, written{text: text, by: e.PerformedBy, own: e.PerformedBy == me})
		}
	}
	take := func(list []written, text string) (written, bool) {
		for i := range list {
			if list[i].text == text {
				w := list[i]
				list[i].text = "\x00" // used
				return w, true
			}
		}
		return written{}, false
	}
	for i := range thread {
		m := &thread[i]
		if m.Sender != nil && m.Sender.Type == "Customer" {
			continue
		}
		if w, ok := take(hub, m.Text); ok {
			m.Own, m.Author = w.own, w.by
			take(mine, m.Text) // the same message, heard back from the hub
			continue
		}
		if _, ok := take(mine, m.Text); ok {
			m.Own = true
		}
	}
	return nil
}
