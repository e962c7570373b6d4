package outbox

import (
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Route is a service call: its HTTP method and path, spelled as the client
// sends it (the service matches paths case-insensitively).
type Route struct {
	Method string // http.MethodPut, ...
	Path   string // "/api/workOrder/checkIn"
}

// Colleague is the event the office hub makes of a write forwarded through
// it, and how the window tells a colleague's doing it. Kinds that make the
// same event share one Colleague.
type Colleague struct {
	// Event is the hub event's action: "CheckedInByContractor".
	Event string
	// Verb says what they did: "checked in" ("Ben Okafor checked in").
	Verb string
	// Of joins Verb to the work order it was done to: "on" ("Ben Okafor
	// checked in on this"); "" when Verb takes it directly ("accepted this").
	Of string
	// Past is the action done, as a refusal it caused is told ("Already
	// checked in by Ben Okafor") and a bulk action's outcome ("2 work
	// orders accepted"); "" when a refusal is told with Verb instead.
	Past string
	// ToWhom: the write is done to someone its event names (Subject.Whom),
	// told between Verb and Of ("Ana Ruiz assigned Kenji Sato to this").
	ToWhom bool
}

// DidTo is Verb joined to the work order it was done to: "checked in on".
func (c Colleague) DidTo() string {
	if c.Of == "" {
		return c.Verb
	}
	return c.Verb + " " + c.Of
}

// Form is where the window puts a refused action back to be corrected. It
// is plain data: the table names the form, the window owns it.
type Form string

// NoForm: nothing to correct (accepting, bulk actions, files).
const NoForm Form = ""

// Fix is how a refused action is corrected: the form it goes back into and
// what the person does there to queue it again.
type Fix struct {
	Form  Form
	Again string // "check in", "submit it"
}

// Question is what the person is asked about a write stopped before it was
// sent (a *Stopped error): what happened, in the row's title, and the words
// of their three ways on: send theirs over what stopped it (Rebase), take
// what is there now (discard theirs), or put both in the form to merge.
type Question struct {
	Title       string // "not sent: the note changed meanwhile"
	Keep        string // "Keep mine"
	Take        string // "Take theirs"
	Merge       string // "Merge by hand"
	Notice      string // the status bar's words: "was not sent: the note changed meanwhile."
	Notified    string // the desktop notification's title: "Not sent"
	QueuedWords string // what the status bar says once Keep is chosen: "yours over theirs"
}

// Draft is what the person entered for an action, read back from its
// stored request so that a refused action can be put back into its form,
// corrected and queued again. The window never decodes a request itself.
type Draft struct {
	// Text is a message, a rejection reason, a quote's reason or a visit's comment.
	Text       string
	Visibility api.MessageVisibility // a message's
	Amount     api.Money             // a quote's
	Lines      []api.LineItem        // a quote's
	// Invoice is a saved invoice's content; nil for a submission, which
	// carries none (it submits the invoice as saved).
	Invoice *api.Invoice
	// At is what a visit was back-dated to (nil: it was recorded as
	// happening when sent), or an appointment's scheduled start.
	At *time.Time
	// Completion is a check-out's repair code and answers to the
	// customer's questions.
	Completion api.Completion
	// Pte is an appointment's access type ("" = none given).
	Pte string
	// Associates are who an assignment named.
	Associates []int64
	// Step is a step's completion: which step, its status, value and
	// comment (Text holds the comment too).
	Step *api.StepRequest
}
