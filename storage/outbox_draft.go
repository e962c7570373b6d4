package storage

import (
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Draft is what the person entered for an action, read back from its
// stored request so that a refused action can be put back into its form,
// corrected and queued again (see Replacing). The window never decodes a
// request itself.
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

// Draft reads what the person entered for the row's action, its amounts
// in currency (the work order's: the stored request carries none); false
// for actions with nothing to correct (accepting, bulk actions, files) or a
// request this build cannot read. Each kind's entry says how its request
// reads back (fix.draft).
func (r OutboxRow) Draft(currency string) (*Draft, bool) {
	a, ok := actions[r.Kind]
	if !ok || a.fix == nil {
		return nil, false
	}
	d, err := a.fix.draft(r.Request, currency)
	if err != nil {
		return nil, false
	}
	return d, true
}

// Correctable reports whether the row's action has content to put back
// into a form (see Draft).
func (r OutboxRow) Correctable() bool {
	_, ok := r.Draft("")
	return ok && len(r.WorkOrderIds) == 1
}
