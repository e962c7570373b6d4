package outbox

import (
	"context"
	"fmt"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// The internal note: the contractor's own note on a work order, never
// shown to the customer. The service replaces it whole, so an edit never
// goes out over a note that changed since the edit began: before it is
// sent the note is read again, and when it is no longer the one the edit
// started from the person decides (the entry's Question): keep theirs over
// it (Rebase), take the newer (discard), or merge the two by hand.

const KindNote Kind = "internalNote"

// FormNote is the note's editor on its tab.
const FormNote Form = "note"

// NoteEdit is an edit as the outbox keeps it: the service call's body and
// the note the edit began from.
type NoteEdit struct {
	api.NoteRequest
	Base string `json:"Base"`
}

var noteQuestion = &Question{
	Title:       "not sent: the note changed meanwhile",
	Keep:        "Keep mine",
	Take:        "Take theirs",
	Merge:       "Merge by hand",
	Notice:      "was not sent: the note changed meanwhile.",
	Notified:    "Not sent",
	QueuedWords: "yours over theirs",
}

var _ = register(GroupNote,
	def(&Entry{
		Kind: KindNote, Rule: api.EditNote, Noun: "Internal note",
		Route:     Route{http.MethodPut, "/api/workOrder/note"},
		Colleague: Colleague{Event: "InternalNoteEditedByContractor", Verb: "edited the internal note", Of: "of"},
		// A colleague's edit first explains why ours was stopped.
		Conflicts: []Kind{KindNote},
		Fix:       &Fix{Form: FormNote, Again: "save it"},
		Rereads:   Note,
		Question:  noteQuestion,
		Judged: "the note as it stands (the work order's InternalNote), re-read: it is ours now. Sent again it would " +
			"only add a version, but a colleague's edit since would be overwritten; the same text set by someone else " +
			"is the same note.",
	}, spec[NoteEdit]{
		wire: func(p *NoteEdit) any { return &p.NoteRequest },
		call: func(ctx context.Context, c *api.Client, p *NoteEdit, _ Env) (any, error) {
			return nil, c.SetInternalNote(ctx, &p.NoteRequest)
		},
		draft: func(p *NoteEdit, _ string) *Draft { return &Draft{Text: p.InternalNote} },
		// An edit goes out only over the note it began from, as the note
		// stands (the work order's InternalNote, api.NoteOf); one that
		// finds the note already as it says is done.
		guard: func(ctx context.Context, c *api.Client, p *NoteEdit) (bool, error) {
			cur, err := c.NoteNow(ctx, p.WorkOrderId)
			if err != nil {
				return false, err
			}
			switch api.JudgeNoteEdit(cur, p.Base, p.InternalNote) {
			case api.NoteLanded:
				return true, nil
			case api.NoteSend:
				return false, nil
			}
			who := cur.UpdatedBy
			if who == "" {
				who = "someone"
			}
			return false, &Stopped{Why: fmt.Sprintf("%s changed the internal note after you began editing it, so yours was not sent: keep yours over theirs, take theirs, or merge the two", who)}
		},
		// Kept over theirs: the edit now begins from the note the replica
		// holds, the one the person has seen.
		rebase: func(ctx context.Context, p *NoteEdit, env Env) error {
			cur, err := env.Note(ctx, p.WorkOrderId)
			p.Base = cur
			return err
		},
		landed: func(ctx context.Context, c *api.Client, r *NoteEdit, q *LandedQuery) (bool, any, error) {
			cur, err := c.NoteNow(ctx, r.WorkOrderId)
			if err != nil {
				return false, nil, err
			}
			return cur.InternalNote == r.InternalNote, nil, nil
		},
	}),
)
