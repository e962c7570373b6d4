package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// The internal note: the contractor's own note on a work order, never
// shown to the customer. The service replaces it whole, so an edit never
// goes out over a note that changed since the edit began: before it is
// sent the note is read again, and when it is no longer the one the edit
// started from the person decides (NoteChanged): keep theirs over it
// (KeepMyNote), take the newer (Discard), or merge the two by hand (Edit).

const KindNote OutboxKind = "internalNote"

// FormNote is the note's editor on its tab.
const FormNote Form = "note"

// codeNoteChanged marks an edit stopped because the note changed since it
// began (a code of ours: the service's are positive).
const codeNoteChanged = -28

// notePayload is an edit as the outbox keeps it: the service call's body
// and the note the edit began from.
type notePayload struct {
	api.NoteRequest
	Base string `json:"Base"`
}

var _ = register(GroupNote, map[OutboxKind]*action{
	KindNote: {
		rule:      api.EditNote,
		noun:      "Internal note",
		route:     Route{http.MethodPut, "/api/workOrder/note"},
		colleague: Colleague{Event: "InternalNoteEditedByContractor", Verb: "edited the internal note", Of: "of"},
		// A colleague's edit first explains why ours was stopped.
		conflicts: []OutboxKind{KindNote},
		fix:       &fix{form: FormNote, again: "save it", draft: draftNote},
		send:      sendNote,
		refresh: func(ctx context.Context, sc *sendCtx, woID int64) error {
			_, err := sc.s.rereadNote(ctx, sc.c, woID)
			return err
		},
		// It landed when the note is ours now. (Sent again, it would only
		// add a version; but a colleague's edit since would be overwritten.)
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			var r api.NoteRequest
			if err := sc.decode(&r); err != nil {
				return false, nil, err
			}
			h, err := sc.c.NoteHistory(ctx, r.WorkOrderId)
			if err != nil {
				return false, nil, err
			}
			return api.CurrentNote(h).InternalNote == r.InternalNote, nil, nil
		},
	},
})

// sendNote reads the note again first: an edit goes out only over the note
// it began from. One that found the note already as it says is done.
func sendNote(ctx context.Context, sc *sendCtx) (any, error) {
	var p notePayload
	if err := sc.decode(&p); err != nil {
		return nil, err
	}
	// A read of its own, not under the edit's MessageId.
	h, err := sc.s.rereadNote(api.WithMessageId(ctx, ""), sc.c, p.WorkOrderId)
	if err != nil {
		return nil, err
	}
	cur := api.CurrentNote(h)
	switch cur.InternalNote {
	case p.InternalNote:
		return nil, nil
	case p.Base:
	default:
		who := cur.UpdatedBy
		if who == "" {
			who = "someone"
		}
		return nil, errAsk{code: codeNoteChanged, msg: fmt.Sprintf("%s changed the internal note after you began editing it, so yours was not sent: keep yours over theirs, take theirs, or merge the two", who)}
	}
	r := p.NoteRequest
	r.MessageId = sc.row.MessageId
	return nil, sc.c.SetInternalNote(ctx, &r)
}

func draftNote(raw json.RawMessage, _ string) (*Draft, error) {
	var p notePayload
	err := json.Unmarshal(raw, &p)
	return &Draft{Text: p.InternalNote}, err
}

// NoteChanged reports an edit of the internal note that was not sent
// because the note changed since it began: the person decides.
func (r OutboxRow) NoteChanged() bool {
	return r.Kind == KindNote && r.State == OutboxFailed && r.ErrorCode == codeNoteChanged
}

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
	p := notePayload{NoteRequest: api.NoteRequest{WorkOrderId: woID, InternalNote: text}, Base: base}
	p.MessageId = id
	summary := "Internal note: " + shorten(text, 60)
	if text == "" {
		summary = "Internal note cleared"
	}
	return s.enqueue(ctx, newRow{kind: KindNote, summary: summary, targets: []int64{woID}, messageID: id, request: p})
}

// KeepMyNote sends an edit stopped by a newer note (NoteChanged) over that
// newer note, the one the replica holds now, which the person has seen.
func (s *Store) KeepMyNote(ctx context.Context, rowID int64) (*OutboxRow, error) {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return nil, err
	}
	if !row.NoteChanged() {
		return nil, invalid("this is not an edit of the note waiting for your decision")
	}
	var p notePayload
	if err := json.Unmarshal(row.Request, &p); err != nil {
		return nil, fmt.Errorf("storage: reading row %d: %w", rowID, err)
	}
	h, _, err := s.NoteHistory(ctx, p.WorkOrderId)
	if err != nil {
		return nil, err
	}
	p.Base = api.CurrentNote(h).InternalNote
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	res, err := s.w.ExecContext(ctx, `UPDATE outbox SET request = ?, updated_at = ? WHERE id = ? AND state = 'failed'`,
		string(raw), s.now().UnixMilli(), rowID)
	if err != nil {
		return nil, fmt.Errorf("storage: keeping your note: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, invalid("this edit was sent or discarded meanwhile")
	}
	return s.Retry(ctx, rowID)
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
	// stopped because the note changed since it began (NoteChanged).
	Queued, Changed *OutboxRow
}

// Note reads the work order's internal note from the replica, with the
// edits of it still in the outbox.
func (s *Store) Note(ctx context.Context, woID int64) (*Note, error) {
	h, read, err := s.NoteHistory(ctx, woID)
	if err != nil {
		return nil, err
	}
	n := &Note{History: h, Current: api.CurrentNote(h), Read: read}
	n.Text = n.Current.InternalNote
	rows, err := s.unfinished(ctx, woID)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		r := &rows[i]
		if r.Kind != KindNote {
			continue
		}
		if r.NoteChanged() && n.Changed == nil {
			n.Changed = r
		}
		var p notePayload
		if json.Unmarshal(r.Request, &p) == nil && r.State != OutboxFailed {
			n.Queued, n.Text = r, p.InternalNote
		}
	}
	return n, nil
}
