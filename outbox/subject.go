package outbox

import (
	"encoding/json"

	"github.com/workorderdesk/workdesk/api"
)

// Subject is what the office hub's event of a colleague's write carries
// besides its action and work order, taken from the write's typed request
// (never from anything else its body said): whom it was done to, which step
// or procedure, and what a message said. It is the one hook behind the
// event's fields "Detail", "Subject" and "Message" (see hub.HubEvent), which
// keep their shape so that desktops of the last version read them.
type Subject struct {
	// Whom are the associates an assignment named.
	Whom []int64
	// Step is the procedure (and step) a step update or N/A mark was about.
	Step *StepSubject
	// Message is what a message posted said.
	Message *MessageSubject
}

// StepSubject is which step or procedure, and the status set.
type StepSubject struct {
	ProcedureId int64  `json:"ProcedureId"`
	StepId      int64  `json:"StepId,omitempty"`
	Status      string `json:"Status,omitempty"`
	// IsMarkedNa is what a mark set: true marks the procedure N/A, false
	// clears the mark (nil: a step update).
	IsMarkedNa *bool `json:"IsMarkedNa,omitempty"`
}

// MessageSubject is a message posted, as its request said.
type MessageSubject struct {
	Text              string                `json:"Text"`
	MessageVisibility api.MessageVisibility `json:"MessageVisibility,omitempty"`
}

// whomField is the event's Detail key that lists Whom.
const whomField = "AssociateIds"

// EventFields are the event's fields for s: "Subject" (the step),
// "Detail" (whom) and "Message"; each nil when s has none.
func (s Subject) EventFields() (subject json.RawMessage, detail map[string]json.RawMessage, message *MessageSubject) {
	if s.Step != nil {
		subject, _ = json.Marshal(s.Step)
	}
	if len(s.Whom) > 0 {
		b, _ := json.Marshal(s.Whom)
		detail = map[string]json.RawMessage{whomField: b}
	}
	return subject, detail, s.Message
}

// ReadSubject reads an event's Subject back from its JSON (what EventFields
// wrote); what is missing or unreadable is left zero.
func ReadSubject(raw []byte) Subject {
	var ev struct {
		Subject *StepSubject
		Detail  map[string]json.RawMessage
		Message *MessageSubject
	}
	if len(raw) == 0 || json.Unmarshal(raw, &ev) != nil {
		return Subject{}
	}
	s := Subject{Step: ev.Subject, Message: ev.Message}
	if s.Step != nil && s.Step.ProcedureId == 0 {
		s.Step = nil
	}
	if s.Message != nil && s.Message.Text == "" {
		s.Message = nil
	}
	_ = json.Unmarshal(ev.Detail[whomField], &s.Whom)
	return s
}
