package storage

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// The internal note: the contractor's own note on a work order, never
// shown to the customer. An edit never goes out over a note that changed
// since it began: the action table's guard stops it (Question), and the
// person keeps theirs (KeepMine), takes the newer (Discard), or merges.

// SetNote queues replacing the work order's internal note with text. base
// is the note the person began from (Note.Text when they opened the
// editor): should the note be something else when the edit is sent, it is
// not sent, and the person is asked.
func (s *Store) SetNote(ctx context.Context, woID int64, text, base string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CheckNote(text); err != nil {
		return nil, refused(err)
	}
	if text == base {
		return nil, invalid("the note is unchanged")
	}
	id := uuid.NewString()
	p := outbox.NoteEdit{NoteRequest: api.NoteRequest{WorkOrderId: woID, InternalNote: text}, Base: base}
	p.MessageId = id
	summary := "Internal note: " + shorten(text, 60)
	if text == "" {
		summary = "Internal note cleared"
	}
	return s.enqueue(ctx, newRow{kind: outbox.KindNote, summary: summary, targets: []int64{woID}, messageID: id, request: p})
}

// Note is a work order's internal note as the person sees it.
type Note struct {
	// Current is the newest version the service listed (empty when none),
	// with who wrote it and when; History every version, oldest first.
	Current api.NoteEntry
	History []api.NoteEntry
	// Read is when the service was last asked (zero: never, so Current may
	// not be the note: the app was offline since the work order came).
	Read time.Time
	// Text is the note as it will be once the edits waiting are sent:
	// the newest of them, else Current's. An edit begins from it.
	Text string
	// Queued is the newest edit waiting to be sent; Changed an edit
	// stopped because the note changed since it began (Asked).
	Queued, Changed *OutboxRow
}

// Note reads the work order's internal note from the replica, with the
// edits of it still in the outbox.
func (s *Store) Note(ctx context.Context, woID int64) (*Note, error) {
	h, read, err := s.NoteHistory(ctx, woID)
	if err != nil {
		return nil, err
	}
	cur, err := s.StoredNote(ctx, woID)
	if err != nil {
		return nil, err
	}
	n := &Note{History: h, Current: cur, Read: read}
	n.Text = n.Current.InternalNote
	rows, err := s.unfinished(ctx, woID)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		r := &rows[i]
		if r.Kind != outbox.KindNote {
			continue
		}
		if r.Asked() != nil && n.Changed == nil {
			n.Changed = r
		}
		var p outbox.NoteEdit
		if json.Unmarshal(r.Request, &p) == nil && r.State != OutboxFailed {
			n.Queued, n.Text = r, p.InternalNote
		}
	}
	return n, nil
}
