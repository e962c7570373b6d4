package storage

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/workorderdesk/workdesk/api"
)

// Did it land? After an answer was lost (a timeout, a crash mid-call), an
// action is not sent again before its kind's landed check (the action
// table's entry) has asked the service whether the earlier attempt took
// effect: the service is not documented to drop a repeated MessageId. The
// desktop's outbox asks through Sender.attempt, and the office hub, which
// forwards every desktop's writes, through Landed: one set of checks, in
// the table, for both.

// ErrOutcomeUnknown: nothing the service documents can tell whether an
// earlier attempt took effect (a message seen by fewer than everyone: the
// service lists only messages everyone sees). It is not sent again blindly,
// nor dropped: the person decides.
var ErrOutcomeUnknown = errors.New("this may have reached the service already, and nothing the service offers can tell (its list shows only messages everyone sees): send it again, or discard it")

// LandedQuery is one action whose earlier attempt may have taken effect.
type LandedQuery struct {
	Kind OutboxKind
	// Request is the action's request as the outbox stores it: for most
	// kinds the service call's JSON body; for files, UploadRequest and
	// RemoveRequest.
	Request    json.RawMessage
	WorkOrders []int64
	// Done counts the other actions of this kind on WorkOrders[0] known to
	// have taken effect that same says did the same thing (what the
	// service holds of ours already: a second message of the same text is
	// posted only when the thread holds fewer than we sent). The outbox
	// counts its done rows; the hub, the writes it forwarded and the
	// service accepted.
	Done func(ctx context.Context, same func(request json.RawMessage) bool) (int, error)
}

// Landed asks the service whether an earlier attempt of q took effect.
// checked is false when its kind has no check (sending it again changes
// nothing twice); result is what the service holds for it when it landed
// (an attachment, an invoice, bulk results), nil when nothing more. A
// check that cannot tell returns ErrOutcomeUnknown.
func Landed(ctx context.Context, c *api.Client, q LandedQuery) (checked, landed bool, result any, err error) {
	a, err := actionOf(q.Kind)
	if err != nil {
		return false, false, nil, err
	}
	if a.landed == nil {
		return false, false, nil, nil
	}
	if len(q.WorkOrders) == 0 {
		return true, false, nil, errLocal{errors.New("the action names no work order")}
	}
	sc := &sendCtx{c: c, row: &OutboxRow{Kind: q.Kind, WorkOrderIds: q.WorkOrders, Request: q.Request}}
	if q.Done != nil {
		sc.twins = func(ctx context.Context, same func(*sendCtx) bool) (int, error) {
			return q.Done(ctx, func(req json.RawMessage) bool {
				return same(&sendCtx{row: &OutboxRow{Kind: q.Kind, Request: req}})
			})
		}
	} else {
		sc.twins = func(context.Context, func(*sendCtx) bool) (int, error) { return 0, nil }
	}
	landed, result, err = a.landed(ctx, sc)
	return true, landed, result, err
}

// doneTwins counts what the service holds of ours that same says did what
// sc's action does: the outbox's done rows, or what Landed's caller counts.
func (sc *sendCtx) doneTwins(ctx context.Context, same func(*sendCtx) bool) (int, error) {
	if sc.twins != nil {
		return sc.twins(ctx, same)
	}
	return sc.s.doneTwins(ctx, sc.row, same)
}

// UploadRequest is the stored request of a file upload, for Landed: its
// work order (and step), the file's name and its size in bytes (0 when not
// known: the check then goes by the name).
func UploadRequest(workOrderId int64, step *api.StepRef, name string, size int64) json.RawMessage {
	b, _ := json.Marshal(uploadPayload{WorkOrderId: workOrderId, Step: step, Name: name, Size: size})
	return b
}

// RemoveRequest is the stored request of a file's removal, for Landed.
func RemoveRequest(workOrderId int64, step *api.StepRef, attachmentId string) json.RawMessage {
	b, _ := json.Marshal(removePayload{WorkOrderId: workOrderId, Step: step, AttachmentId: attachmentId})
	return b
}
