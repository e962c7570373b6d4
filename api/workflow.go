package api

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// The workflow rules: which action a work order allows in which status, in
// one place. storage enforces them before it queues anything, the window
// asks them to enable its buttons; the sandbox keeps its own independent
// copy, so that a test can hold the two against each other.

// Action is something a contractor does to a work order.
type Action string

const (
	Accept         Action = "accept"
	Reject         Action = "reject"
	SetAppointment Action = "schedule"
	CheckIn        Action = "check in"
	Pause          Action = "pause"
	CheckOut       Action = "check out"
	// CompleteDetails gives a checked-out PMRM work order the completion
	// details it still lacks (PUT /api/workOrder/workDoneDetails).
	CompleteDetails Action = "complete the work details"
	SubmitQuote     Action = "quote"
	SaveInvoice     Action = "save the invoice"
	SubmitInvoice   Action = "submit the invoice"
	SendMessage     Action = "send a message"
	AttachFile      Action = "attach a file"
	// AddStepAttachment and RemoveStepAttachment depend on the procedure
	// too: CanChangeStep judges them fully; Can only by status.
	AddStepAttachment    Action = "add a step attachment"
	RemoveStepAttachment Action = "remove a step attachment"
	// Assign and Unassign put technicians or subcontractors on a work order
	// and take them off (PUT /api/bulk/assign, /api/bulk/unassign). The
	// statuses they are allowed in are not published: every status but the
	// closed ones, as the sandbox assumes; CheckAssociates adds the branch.
	Assign   Action = "assign"
	Unassign Action = "unassign"
	// UpdateStep completes a procedure step (PUT /api/procedure/step);
	// CanUpdateStep and CheckStepUpdate judge it fully, Can by status.
	UpdateStep Action = "complete a procedure step"
	// MarkProcedureNA marks a whole procedure not applicable (PUT
	// /api/procedure/markAsNA); CanMarkNotApplicable judges it fully.
	MarkProcedureNA Action = "mark a procedure N/A"
	// ClearProcedureNA clears that mark (the same call with MarkAsNa
	// false); CanClearNotApplicable judges it fully.
	ClearProcedureNA Action = "mark a procedure applicable again"
	// EditNote replaces the work order's internal note (PUT
	// /api/workOrder/note), which the customer never sees.
	EditNote Action = "edit the internal note"
)

// Actions lists every action, for tests and tables that walk them all.
var Actions = []Action{Accept, Reject, SetAppointment, CheckIn, Pause, CheckOut, CompleteDetails, SubmitQuote,
	SaveInvoice, SubmitInvoice, SendMessage, AttachFile, AddStepAttachment, RemoveStepAttachment, Assign, Unassign,
	UpdateStep, MarkProcedureNA, ClearProcedureNA, EditNote}

// ErrNotAllowed matches every refusal of a rule with errors.Is.
var ErrNotAllowed = errors.New("not allowed")

// RuleError is a refusal by the rules; its text is meant for the person.
type RuleError struct{ Msg string }

func (e *RuleError) Error() string        { return e.Msg }
func (e *RuleError) Is(target error) bool { return target == ErrNotAllowed }

func refuse(format string, args ...any) error {
	return &RuleError{Msg: fmt.Sprintf(format, args...)}
}

// Label is the status in words for a sentence ("checked in", not "CheckedIn").
func (s WorkOrderStatus) Label() string {
	switch s {
	case StatusCheckedIn:
		return "checked in"
	case StatusCheckedOut:
		return "checked out"
	case StatusOnHold:
		return "on hold"
	case StatusNeedsCompletionDetails:
		return "waiting for completion details"
	case "":
		return "without a status"
	}
	if s.Known() {
		return strings.ToLower(string(s))
	}
	return string(s)
}

// Known reports whether s is one of the statuses the service documents.
func (s WorkOrderStatus) Known() bool { return slices.Contains(AllStatuses, s) }

// Name is how a sentence names the work order: its number, else its id.
func (w *WorkOrder) Name() string {
	if w.WorkOrderNumber != "" {
		return w.WorkOrderNumber
	}
	return fmt.Sprintf("work order %d", w.WorkOrderId)
}

// AppointmentStates are the statuses in which a visit can be scheduled.
// The service leaves them unpublished (service-facts §4.1): while the work
// is still ahead or under way, as the sandbox assumes.
var AppointmentStates = []WorkOrderStatus{StatusNew, StatusAccepted, StatusCheckedIn, StatusPaused, StatusOnHold}

// Can says whether the work order allows a, or why not and what to do
// instead. A status the service documents nowhere never locks anything:
// Can allows it and the service judges.
func (w *WorkOrder) Can(a Action) error {
	st := w.Status
	if !st.Known() {
		return nil
	}
	name := w.Name()
	if st == StatusRejected {
		return refuse("%s was rejected: nothing more can be done on it", name)
	}
	if st == StatusRecalled {
		return refuse("%s was recalled by the customer: nothing more can be done on it", name)
	}
	switch a {
	case Accept, Reject:
		verb := map[Action]string{Accept: "accepted", Reject: "rejected"}[a]
		if st != StatusNew {
			return refuse("%s is %s: only a new work order can be %s", name, st.Label(), verb)
		}
		if a == Accept && w.IsPreBilled {
			return refuse("%s is pre-billed: it is accepted by submitting its invoice, not by accepting it", name)
		}
	case SetAppointment:
		if !slices.Contains(AppointmentStates, st) {
			return refuse("%s is %s: the visit is over, there is no start left to schedule", name, st.Label())
		}
	case CheckIn:
		switch st {
		case StatusAccepted, StatusPaused:
		case StatusNew:
			return refuse("%s is new: accept it first, then check in", name)
		case StatusCheckedIn:
			return refuse("%s is checked in already: pause it or check out first", name)
		case StatusOnHold:
			return refuse("%s is on hold: the customer must release it before a visit", name)
		default:
			return refuse("%s is %s: the visit is over", name, st.Label())
		}
	case Pause:
		switch st {
		case StatusCheckedIn:
		case StatusPaused:
			return refuse("%s is paused already: check in to resume the work", name)
		case StatusNew, StatusAccepted, StatusOnHold:
			return refuse("%s is %s: only a checked-in work order can be paused; check in first", name, st.Label())
		default:
			return refuse("%s is %s: the visit is over", name, st.Label())
		}
	case CheckOut:
		// Check-out from Paused is unknown in service-facts §13 and the
		// sandbox refuses it: check in again first.
		switch st {
		case StatusCheckedIn:
		case StatusPaused:
			return refuse("%s is paused: check in again, then check out", name)
		case StatusNew, StatusAccepted, StatusOnHold:
			return refuse("%s is %s: only a checked-in work order can be checked out; check in first", name, st.Label())
		default:
			return refuse("%s is %s: it is checked out already", name, st.Label())
		}
	case CompleteDetails:
		if st != StatusNeedsCompletionDetails {
			return refuse("%s is %s: only a work order waiting for its completion details can be given them", name, st.Label())
		}
	case SubmitQuote:
		if q := w.Nte.Quote; q != nil {
			switch q.QuoteStatus {
			case QuoteSubmitted:
				return refuse("a quote for %s is waiting for the customer's decision: a new quote is possible once the customer approves or rejects it", name)
			case QuoteApproved:
				return refuse("the customer approved a quote for %s: to raise the NTE again, the customer must first reject the approved quote", name)
			}
		}
	case SaveInvoice, SubmitInvoice:
		if !w.InvoiceVisible() {
			return refuse("%s was received before invoicing existed (version 4.1): its invoice opens once the work is completed", name)
		}
		// A pre-billed order's invoice may be submitted while it is new:
		// that is what accepts it (service-facts §4.6, §7).
		if a == SubmitInvoice && !st.Completed() && !(w.IsPreBilled && st == StatusNew) {
			if st == StatusNeedsCompletionDetails {
				return refuse("%s is waiting for completion details: complete them, then submit the invoice", name)
			}
			return refuse("check out %s first: the service takes the invoice only once the work is done (it is %s now)", name, st.Label())
		}
	case AddStepAttachment, RemoveStepAttachment:
		if !w.ProceduresEditable() {
			return refuse("%s is %s: step attachments can change only while the work order is accepted, checked in, paused or on hold",
				name, st.Label())
		}
	case UpdateStep, MarkProcedureNA, ClearProcedureNA:
		if !w.ProceduresEditable() {
			return refuse("%s is %s: its procedures can change only while it is accepted, checked in, paused or on hold",
				name, st.Label())
		}
	case EditNote:
		// The note is the contractor's own: no status but the closed ones
		// (above) is known to refuse it (service-facts §4.1 names none).
	}
	return nil
}

// CanChangeStep says whether the attachments of step can be added or
// removed (a is AddStepAttachment or RemoveStepAttachment, which follow one
// rule), or the step completed (UpdateStep): the work order's status and
// the procedure's own state (spec §2: editable and not marked N/A), and
// the step must exist.
func (w *WorkOrder) CanChangeStep(a Action, step StepRef) error {
	if err := w.Can(a); err != nil && w.Status.Closed() {
		return err
	}
	for _, p := range w.Procedures() {
		if p.Id != step.ProcedureId {
			continue
		}
		if err := w.canChangeProcedure(a, p); err != nil {
			return err
		}
		for _, st := range p.Steps {
			if st.Id == step.StepId {
				return nil
			}
		}
		return refuse("the procedure %q has no step %d", p.Name, step.StepId)
	}
	return refuse("%s has no procedure %d", w.Name(), step.ProcedureId)
}

// CanChangeProcedure is the per-procedure part of CanChangeStep for its
// attachments.
func (w *WorkOrder) CanChangeProcedure(p Procedure) error {
	return w.canChangeProcedure(AddStepAttachment, p)
}

// CanCompleteSteps is the per-procedure part of CanUpdateStep.
func (w *WorkOrder) CanCompleteSteps(p Procedure) error {
	return w.canChangeProcedure(UpdateStep, p)
}

func (w *WorkOrder) canChangeProcedure(a Action, p Procedure) error {
	err := w.Can(a)
	if err != nil && w.Status.Closed() {
		return err // closed: the procedure's own state is beside the point
	}
	what := "attachments can't be changed"
	if a == UpdateStep {
		what = "its steps can't be changed"
	}
	if p.IsMarkedNa {
		return refuse("the procedure %q is marked N/A: %s", p.Name, what)
	}
	if p.IsReadOnly {
		return refuse("the procedure %q is read-only: %s", p.Name, what)
	}
	return err
}

// MaxBulk is the most work orders one bulk accept or reject names. The
// service publishes no limit (service-facts §4.1: bulk shapes unknown);
// 100 is the guess the sandbox and the hub keep too, so that a person is
// told before queueing rather than refused after.
const MaxBulk = 100

// CheckBulk is the rule for how many work orders one bulk action takes.
func CheckBulk(n int) error {
	if n > MaxBulk {
		return refuse("%d work orders are ticked; a bulk action takes at most %d at a time: untick some and act on the rest next", n, MaxBulk)
	}
	return nil
}

// CheckText is the one rule for comments, reasons and message texts
// (service-facts §11): at most MaxCommentLength characters, and not blank
// when required. what names the text in the message ("reason").
func CheckText(what, text string, required bool) error {
	if required && strings.TrimSpace(text) == "" {
		return refuse("a %s is required", what)
	}
	if n := utf8.RuneCountInString(text); n > MaxCommentLength {
		return refuse("the %s is %d characters long; the service accepts at most %d", what, n, MaxCommentLength)
	}
	return nil
}
