package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/workorderdesk/workdesk/api"
)

// The outbox's action table: for each kind, everything any layer needs to
// know about it once it is queued: how it is sent and reconciled, how the
// window names and corrects it, the service route it writes and the event
// the office hub makes of it, and how a colleague's doing it is told. The
// enqueue methods (validation through the api rules) sit next to their
// kind's entry, one file per group; the Sender and the replica look kinds
// up here, and the window and the hub read the table through the exported
// accessors below, never keeping maps of their own. A new action is one
// entry and one enqueue method in its group's file.

// OutboxGroup is which part of a work order an action is about; the window
// shows each group's actions where it shows that part.
type OutboxGroup string

const (
	GroupWorkOrder OutboxGroup = "workOrder" // accept, reject, bulk, appointment
	GroupVisit     OutboxGroup = "visit"
	GroupQuote     OutboxGroup = "quote"
	GroupInvoice   OutboxGroup = "invoice" // the invoice and its attachments
	GroupMessage   OutboxGroup = "message"
	GroupFile      OutboxGroup = "file" // work order attachments
	GroupStep      OutboxGroup = "step" // procedure step attachments
	// GroupProcedure: completing steps and marking procedures N/A.
	GroupProcedure OutboxGroup = "procedure"
	GroupNote      OutboxGroup = "note" // the internal note
)

// sendCtx is what an action needs to be sent or reconciled.
type sendCtx struct {
	s     *Store
	c     *api.Client
	row   *OutboxRow
	spool string // base name of the spooled file, for uploads
	// twins, when set, counts what doneTwins counts, for a caller with no
	// outbox (see Landed).
	twins func(ctx context.Context, same func(*sendCtx) bool) (int, error)
}

// decode reads the stored request into v. Numbers stay decimal strings or
// json.Number (money never passes through float64).
func (sc *sendCtx) decode(v any) error {
	if err := json.Unmarshal(sc.row.Request, v); err != nil {
		return errLocal{fmt.Errorf("the stored request is unreadable: %w", err)}
	}
	return nil
}

type action struct {
	group OutboxGroup
	// rule is the api action whose rule judges this one before it is
	// queued; the conformance test holds the sandbox to every rule.
	rule api.Action
	// noun names it in a sentence: "Check-in" in "Check-in queued 10:02".
	noun string
	// route is the service call it writes with.
	route Route
	// colleague is the event the office hub makes of it and how the window
	// tells a colleague's doing it.
	colleague Colleague
	// subject is what of the write the hub's event carries, read from its
	// request, for tell (nil: nothing: the event's action says it all).
	subject func(req json.RawMessage) json.RawMessage
	// tell says what a colleague did, from the event's subject and the work
	// order as the replica has it: "completed step 3 of Roof inspection"
	// (nil, or "": colleague.Verb says it).
	tell func(subject json.RawMessage, wo *api.WorkOrder) string
	// conflicts are the actions a colleague may have done first that
	// explain a refusal of this one (nil: none; a message is no reason for
	// another's refusal).
	conflicts []OutboxKind
	// fix is how a refused one is corrected (nil: nothing to correct).
	fix *fix
	// status is the work order status the action leads to ("" = none); it
	// is what expected() shows while the row waits.
	status api.WorkOrderStatus
	// effect changes the work order as the person sees it while the row
	// waits, beyond the status (nil = nothing). It may read the replica
	// (a check-out's outcome depends on the customer's settings).
	effect func(ctx context.Context, s *Store, wo *api.WorkOrder, row *OutboxRow)
	// send performs the call; result is what finish records (an invoice,
	// an attachment, bulk results).
	send func(ctx context.Context, sc *sendCtx) (any, error)
	// record changes the replica when the row is done, besides storing
	// the result (nil = nothing).
	record func(ctx context.Context, tx *sql.Tx, woID int64) error
	// refresh re-reads what the action changed besides the work order
	// itself, which is always re-read (nil = nothing more).
	refresh func(ctx context.Context, sc *sendCtx, woID int64) error
	// landed tells, after an answer was lost, whether the action already
	// took effect at the service; then the row is done without sending it
	// again, as the service is not known to de-duplicate by MessageId. It
	// returns what finish records. nil = resending is harmless (the call
	// replaces content and changes nothing twice). When nothing documented
	// can tell, it returns ErrOutcomeUnknown (an *OutcomeUnknown saying
	// why): the row then waits as "may have been sent" for the person to
	// send it again or discard it.
	landed func(ctx context.Context, sc *sendCtx) (ok bool, result any, err error)
}

// OutcomeUnknown is ErrOutcomeUnknown with the reason in the person's
// words, shown on the row that waits for them.
type OutcomeUnknown struct{ Why string }

func (e *OutcomeUnknown) Error() string { return "it may have been sent: " + e.Why }

// Is makes every OutcomeUnknown an ErrOutcomeUnknown, the one error the
// outbox and the hub (through Landed) both recognise.
func (e *OutcomeUnknown) Is(target error) bool { return target == ErrOutcomeUnknown }

// actions is the table; each group's file adds its kinds.
var actions = map[OutboxKind]*action{}

func register(group OutboxGroup, entries map[OutboxKind]*action) bool {
	for k, a := range entries {
		a.group = group
		actions[k] = a
	}
	return true
}

// actionOf is the table entry of kind, or an error for a kind this build
// does not know (a row written by a newer version).
func actionOf(kind OutboxKind) (*action, error) {
	if a, ok := actions[kind]; ok {
		return a, nil
	}
	return nil, errLocal{fmt.Errorf("unknown action kind %q", kind)}
}

// refused turns a refusal of the api rules into an InputError for the
// person; other errors pass unchanged.
func refused(err error) error {
	var r *api.RuleError
	if errors.As(err, &r) {
		return &InputError{Msg: r.Msg}
	}
	return err
}

// readWorkOrder re-reads one work order from the service, for reconciling.
func (sc *sendCtx) readWorkOrder(ctx context.Context) (*api.WorkOrder, error) {
	return sc.c.GetWorkOrder(ctx, sc.row.WorkOrderIds[0])
}

// statusLanded is the landed check of the actions that only move the
// status: the row took effect when the work order is in one of want.
func statusLanded(want ...api.WorkOrderStatus) func(context.Context, *sendCtx) (bool, any, error) {
	return func(ctx context.Context, sc *sendCtx) (bool, any, error) {
		wo, err := sc.readWorkOrder(ctx)
		if err != nil {
			return false, nil, err
		}
		for _, st := range want {
			if wo.Status == st {
				return true, nil, nil
			}
		}
		return false, nil, nil
	}
}
