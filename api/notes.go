package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The internal note (service-facts §4.1, [CODE]): the contractor's own note
// on a work order, never shown to the customer. PUT /api/workOrder/note
// replaces it whole; GET /api/workOrder/noteHistory lists what it was, who
// wrote it and when. Neither answer's schema is published.

// MaxNoteLength is the longest internal note (service-facts §11).
const MaxNoteLength = MaxCommentLength

// MaxUpdatedBy is the longest name a note's history gives its author
// (UpdatedBy, service-facts §11).
const MaxUpdatedBy = 100

// NoteRequest is the body of PUT /api/workOrder/note, as live clients send
// it: {WorkOrderId, InternalNote, PerformedBy {Name, Phone}, MessageId}.
// InternalNote is always sent: an empty one clears the note. PerformedBy
// is the person the note's history names; left empty, the Client fills
// in its own (SetPerformedBy), as for every write.
type NoteRequest struct {
	WorkOrderId  int64  `json:"WorkOrderId"`
	InternalNote string `json:"InternalNote"`
	Envelope
	Performer
}

// NoteEntry is one version of the note in its history: the text, who
// wrote it and when.
type NoteEntry struct {
	InternalNote string    `json:"InternalNote"`
	UpdatedBy    string    `json:"UpdatedBy,omitempty"`
	ActionDate   time.Time `json:"ActionDate,omitzero"`
}

// UnmarshalJSON reads an entry under the names the InternalNoteChanged
// notification uses (InternalNote, UpdatedBy, ActionDate) and, as the
// history's own schema is not published, those of the one history model
// the docs show (AdditionalFieldHistory: Value, UpdatedBy, DtStemp).
func (e *NoteEntry) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	field := func(names ...string) json.RawMessage {
		for k, v := range m {
			for _, n := range names {
				if strings.EqualFold(k, n) && !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
					return v
				}
			}
		}
		return nil
	}
	*e = NoteEntry{}
	if v := field("InternalNote", "Note", "Value", "Text"); v != nil {
		if err := json.Unmarshal(v, &e.InternalNote); err != nil {
			return fmt.Errorf("the note's text: %w", err)
		}
	}
	if v := field("UpdatedBy"); v != nil {
		var who string
		if json.Unmarshal(v, &who) != nil {
			var s Sender // {Name, Phone}, as PerformedBy
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("the note's author: %w", err)
			}
			who = s.Name
		}
		e.UpdatedBy = who
	}
	if v := field("ActionDate", "DtStemp", "DtStamp", "UpdatedOn", "Date"); v != nil {
		if err := json.Unmarshal(v, &e.ActionDate); err != nil {
			return fmt.Errorf("the note's date: %w", err)
		}
	}
	return nil
}

// noteHistoryKeys are the keys the history's list may come under: ours
// first (a guess), then names as likely. Items under any other key are an
// error, never an empty history: read as empty, an edit begun on a newer
// note would look unchanged and overwrite it.
var noteHistoryKeys = []string{"NoteHistory", "History", "Notes", "InternalNotes", "Items"}

// DecodeNoteHistory reads the history answer: {"NoteHistory": [...],
// "MessageId"}, a bare list, or nothing (no note yet). It is sorted oldest
// first when every entry has a date; otherwise kept as the service listed
// it (taken as oldest first).
func DecodeNoteHistory(raw []byte) ([]NoteEntry, error) {
	const op = "GET /api/workOrder/noteHistory"
	raw = bytes.TrimSpace(raw)
	var items json.RawMessage
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return nil, nil
	case raw[0] == '[':
		items = raw
	default:
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		var lists []string
		for k, v := range fields {
			v = bytes.TrimSpace(v)
			if len(v) > 0 && v[0] == '[' {
				lists = append(lists, k)
			}
			for _, want := range noteHistoryKeys {
				if strings.EqualFold(k, want) && len(v) > 0 && v[0] == '[' && items == nil {
					items = v
				}
			}
		}
		if items == nil && len(lists) > 0 {
			slices.Sort(lists)
			return nil, fmt.Errorf("%s: the answer's list is under %s, not a key we know (%s)", op,
				strings.Join(lists, ", "), strings.Join(noteHistoryKeys, ", "))
		}
	}
	var out []NoteEntry
	if items != nil {
		if err := json.Unmarshal(items, &out); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
	}
	dated := !slices.ContainsFunc(out, func(e NoteEntry) bool { return e.ActionDate.IsZero() })
	if dated {
		slices.SortStableFunc(out, func(a, b NoteEntry) int { return a.ActionDate.Compare(b.ActionDate) })
	}
	return out, nil
}

// NoteHistory reads the versions of a work order's internal note, oldest
// first (GET /api/workOrder/noteHistory).
func (c *Client) NoteHistory(ctx context.Context, workOrderId int64) ([]NoteEntry, error) {
	var raw json.RawMessage
	if err := c.getJSON(ctx, "api/workOrder/noteHistory", idQuery(workOrderId), &raw); err != nil {
		return nil, err
	}
	return DecodeNoteHistory(raw)
}

// NoteNow reads the internal note as it stands: the work order (GET
// /api/workOrder, its InternalNote) and the note's history (who and
// when), judged by NoteOf. What an edit is held to before it is sent, and
// whether a lost one landed (JudgeNoteEdit).
func (c *Client) NoteNow(ctx context.Context, workOrderId int64) (NoteEntry, error) {
	wo, err := c.GetWorkOrder(ctx, workOrderId)
	if err != nil {
		return NoteEntry{}, err
	}
	h, err := c.NoteHistory(ctx, workOrderId)
	if err != nil {
		return NoteEntry{}, err
	}
	return NoteOf(wo, h), nil
}

// SetInternalNote replaces the work order's internal note whole (PUT
// /api/workOrder/note).
func (c *Client) SetInternalNote(ctx context.Context, r *NoteRequest) error {
	return c.sendJSON(ctx, http.MethodPut, "api/workOrder/note", r, nil)
}

// CurrentNote is the newest version of the note's history ("" when it
// has none). The history's order is not published: where the work order
// is at hand, NoteOf is the note as it stands.
func CurrentNote(history []NoteEntry) NoteEntry {
	if len(history) == 0 {
		return NoteEntry{}
	}
	return history[len(history)-1]
}

// NoteOf is the internal note as it stands: the text is the work order's
// InternalNote, which the docs put on the work order; who wrote it and
// when come from the newest version of the history that holds that text
// (none: not said). A work order that does not carry InternalNote (nil,
// or wo nil) leaves the history to say, its newest version taken as the
// note; that order is our guess, and wrong, an edit may be asked about
// (NoteChanged) when nothing changed, never sent over a newer note.
func NoteOf(wo *WorkOrder, history []NoteEntry) NoteEntry {
	if wo == nil || wo.InternalNote == nil {
		return CurrentNote(history)
	}
	text := *wo.InternalNote
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].InternalNote == text {
			return history[i]
		}
	}
	return NoteEntry{InternalNote: text}
}

// NoteVerdict is what becomes of an edit of the note when it is to be sent,
// judged against the note as it stands (NoteOf).
type NoteVerdict int

const (
	// NoteSend: the note is still the one the edit began from.
	NoteSend NoteVerdict = iota
	// NoteLanded: the note is the edit's text already; nothing to send.
	NoteLanded
	// NoteChanged: someone changed the note since the edit began: the
	// person decides (keep theirs over it, take the newer, or merge).
	NoteChanged
)

// JudgeNoteEdit judges an edit that began from base and sets mine, against
// the note now (NoteOf): the service replaces the note whole and keeps no
// versions of its own for a conflict (none is documented), so an edit
// never goes out over a note it did not begin from.
func JudgeNoteEdit(now NoteEntry, base, mine string) NoteVerdict {
	switch now.InternalNote {
	case mine:
		return NoteLanded
	case base:
		return NoteSend
	}
	return NoteChanged
}

// CheckNote is the rule for an internal note: the work order must allow
// it, and the text is at most MaxNoteLength characters (an empty one
// clears the note).
func (w *WorkOrder) CheckNote(text string) error {
	if err := w.Can(EditNote); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(text); n > MaxNoteLength {
		return refuse("the note is %d characters long; the service keeps at most %d", n, MaxNoteLength)
	}
	return nil
}
