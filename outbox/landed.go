package outbox

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/workorderdesk/workdesk/api"
)

// Did it land? After an answer was lost (a timeout, a crash mid-call), a
// write is not sent again before its kind's landed check has asked the
// service whether the earlier attempt took effect: the service is not
// documented to drop a repeated MessageId. The desktop's outbox and the
// office hub ask through Landed: one set of checks, in the table, for both.

// ErrOutcomeUnknown: nothing the service documents can tell whether an
// earlier attempt took effect. It is not sent again blindly, nor dropped:
// the person decides.
var ErrOutcomeUnknown = errors.New("this may have reached the service already, and nothing the service offers can tell (its list shows only messages everyone sees): send it again, or discard it")

// OutcomeUnknown is ErrOutcomeUnknown with the reason in the person's
// words, shown on the row that waits for them.
type OutcomeUnknown struct{ Why string }

func (e *OutcomeUnknown) Error() string { return "it may have been sent: " + e.Why }

// Is makes every OutcomeUnknown an ErrOutcomeUnknown.
func (e *OutcomeUnknown) Is(target error) bool { return target == ErrOutcomeUnknown }

// LocalError is a failure of ours that sending again cannot fix (the
// spooled file vanished, the stored request is unreadable).
type LocalError struct{ Err error }

func (e LocalError) Error() string { return e.Err.Error() }
func (e LocalError) Unwrap() error { return e.Err }

// Stopped stops a write before it is sent because only the person can
// decide (its entry's Question says what they are asked).
type Stopped struct{ Why string }

func (e *Stopped) Error() string { return e.Why }

// LandedQuery is one write whose earlier attempt may have taken effect.
type LandedQuery struct {
	Kind Kind
	// Request is the write's request as stored (the outbox's row, the
	// hub's intent).
	Request    json.RawMessage
	WorkOrders []int64
	// Before is what Entry.Before read before the write was first sent;
	// nil when nothing was kept (a row queued by an older version, an
	// intent a restored database lost): a check that needs it cannot tell.
	Before json.RawMessage
}

// likeBefore is what a check matched by content keeps before the first
// send: how many writes like it the service held.
type likeBefore struct {
	Count int `json:"Count"`
}

func countBefore(n int) (json.RawMessage, error) { return json.Marshal(likeBefore{Count: n}) }

// newSince reports whether the service holds more writes like ours (now)
// than it did before ours was first sent; a query that kept nothing cannot
// tell (why says what, in the person's words).
func newSince(q *LandedQuery, now int, why string) (bool, error) {
	var b likeBefore
	if len(q.Before) == 0 || json.Unmarshal(q.Before, &b) != nil {
		return false, &OutcomeUnknown{Why: "its answer was lost, and " + why}
	}
	return now > b.Count, nil
}

// Landed asks the service whether an earlier attempt of q took effect.
// checked is false when its kind has no check (sending it again changes
// nothing twice); result is what the service holds for it when it landed
// (an attachment, an invoice, bulk results). A check that cannot tell
// returns ErrOutcomeUnknown.
func Landed(ctx context.Context, c *api.Client, q LandedQuery) (checked, landed bool, result any, err error) {
	e, err := MustOf(q.Kind)
	if err != nil {
		return false, false, nil, err
	}
	if !e.HasLanded() {
		return false, false, nil, nil
	}
	if len(q.WorkOrders) == 0 {
		return true, false, nil, LocalError{errors.New("the action names no work order")}
	}
	req, err := e.Decode(q.Request)
	if err != nil {
		return true, false, nil, err
	}
	landed, result, err = e.typed.landed(ctx, c, req, &q)
	return true, landed, result, err
}

// statusLanded is the landed check of the writes that only move the
// status: it took effect when the work order is in one of want. Whoever
// moved it there, sending ours again would be refused (3001): the status
// is where ours would have put it, and nothing of ours is lost.
func statusLanded[R any](want ...api.WorkOrderStatus) func(context.Context, *api.Client, *R, *LandedQuery) (bool, any, error) {
	return func(ctx context.Context, c *api.Client, _ *R, q *LandedQuery) (bool, any, error) {
		wo, err := c.GetWorkOrder(ctx, q.WorkOrders[0])
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
