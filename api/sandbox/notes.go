package sandbox

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The contractor's internal note (service-facts §4.1, [CODE]; §16 [DOC]):
// replaced whole by PUT /api/workOrder/note, its versions listed by GET
// /api/workOrder/noteHistory, and carried as it stands by the work order
// itself (InternalNote in GET /api/workOrder and search results). The
// oracle of api.EditNote.

var _ = endpoints(
	endpoint{"PUT", "/api/workorder/note", kindMutate, (*call).putNote},
	endpoint{"GET", "/api/workorder/notehistory", kindRead, (*call).noteHistory},
)

// putNote replaces the note. A rejected work order is closed to everything
// (§7: "terminal: nothing else can be done"), a recalled or unknown one is
// 3005; the note is at most 3000 characters (§11). The history names
// PerformedBy when the request gives one, else the API's own user.
// Assumption: the service records every version, even one that repeats
// the last.
func (c *call) putNote() (any, error) {
	var req api.NoteRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(req.InternalNote); n > api.MaxNoteLength {
		return nil, serve.Invalid("InternalNote", "InternalNote is longer than %d characters", api.MaxNoteLength)
	}
	by := apiSender.Name
	if req.PerformedBy != nil && strings.TrimSpace(req.PerformedBy.Name) != "" {
		by = strings.TrimSpace(req.PerformedBy.Name)
	}
	if utf8.RuneCountInString(by) > api.MaxUpdatedBy {
		return nil, serve.Invalid("PerformedBy.Name", "PerformedBy.Name is longer than %d characters", api.MaxUpdatedBy)
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if o.wo.Status == api.StatusRejected {
		return nil, business(api.CodeWrongStatus, "Work order %s was rejected; nothing more can be done on it.", o.wo.WorkOrderNumber)
	}
	c.s.st.setNote(o, req.InternalNote, by, c.now)
	return nil, nil
}

// noteHistory lists the note's versions, oldest first:
// {"NoteHistory": [{"InternalNote", "UpdatedBy", "ActionDate"}], "MessageId"}.
// The key and the entries' names are our guess (the notification's names).
func (c *call) noteHistory() (any, error) {
	o, err := c.queryOrder()
	if err != nil {
		return nil, err
	}
	h := o.notes
	if h == nil {
		h = []api.NoteEntry{}
	}
	return c.envelope("NoteHistory", h), nil
}

// setNote records a new version of o's note, which the work order now
// carries as its InternalNote.
func (s *store) setNote(o *order, text, by string, now time.Time) {
	o.notes = append(o.notes, api.NoteEntry{InternalNote: text, UpdatedBy: by, ActionDate: now})
	o.wo.InternalNote = &text
	s.touch(o, now)
}

// noNote is the InternalNote of a work order without a note: shared, as a
// world holds up to 100,000 of them; nothing writes through it.
var noNote = new("")

// stampNote gives o's record its InternalNote, which the docs put on every
// work order (GET /api/workOrder and search results): the newest version
// of its note, "" when it has none.
func (o *order) stampNote() {
	switch {
	case len(o.notes) > 0:
		text := o.notes[len(o.notes)-1].InternalNote
		o.wo.InternalNote = &text
	case o.wo.InternalNote == nil:
		o.wo.InternalNote = noNote
	}
}

// EditNoteInDesktop changes a work order's internal note as a colleague in
// CorrigoPro Desktop does (by: their name; "" = the demo's colleague), which
// the API user hears as InternalNoteChanged. Act's InternalNoteChanged is
// the same with a plausible note; text here is kept as given ("" clears).
func (s *Sandbox) EditNoteInDesktop(id int64, text, by string) error {
	return s.withOrder(id, func(o *order, now time.Time) error {
		body, sender, err := editNoteAs(s, o, text, by, now)
		if err != nil {
			return err
		}
		s.notify.send(o, api.ActionInternalNoteChanged, sender, now, body)
		return nil
	})
}

// actNote: a colleague edits the note in Desktop (Act).
func actNote(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if a.Comment == "" {
		a.Comment = "Gate code 4471; park behind the loading dock."
	}
	return editNoteAs(s, o, a.Comment, "", now)
}

// editNoteAs records a colleague's version of o's note, in its history as
// in the notification (by: their name; "" = deskSender), and returns the
// InternalNoteChanged body and sender.
func editNoteAs(s *Sandbox, o *order, text, by string, now time.Time) (any, *api.Sender, error) {
	if utf8.RuneCountInString(text) > api.MaxNoteLength {
		return nil, nil, business(api.CodeBusinessRule, "The note is longer than %d characters.", api.MaxNoteLength)
	}
	sender := *deskSender
	if by = strings.TrimSpace(by); by != "" {
		sender.Name = by
	}
	s.st.setNote(o, text, sender.Name, now)
	return &api.InternalNoteChangedEvent{InternalNote: text, UpdatedBy: sender.Name}, &sender, nil
}
