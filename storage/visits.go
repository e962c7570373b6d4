package storage

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// visitPayload is a stored check-in, pause or check-out: the request as the
// person made it, and when they tapped. ActualActionDate is set in it only
// when they back-dated; whether the tap time goes out as well is decided
// when the row is sent (api.ActualActionDateFor), the only moment it is
// known how late the action reaches the service. Check-in and pause leave
// the completion fields empty.
type visitPayload struct {
	api.CheckOutRequest
	TappedAt time.Time `json:"TappedAt"`
}

// timing is when the person acted and what they back-dated to (nil = now).
// A row queued before the tap time was kept carries its moment in
// ActualActionDate whether back-dated or not: it is taken as the tap, so it
// still goes out only where back-dating is allowed and it is late.
func (p visitPayload) timing() (tapped time.Time, backDated *time.Time) {
	if p.TappedAt.IsZero() && p.ActualActionDate != nil {
		return *p.ActualActionDate, nil
	}
	return p.TappedAt, p.ActualActionDate
}

// visitActionDate is when a stored visit happened, for showing: what the
// person back-dated to, or when they tapped.
func visitActionDate(raw []byte) time.Time {
	var p visitPayload
	if json.Unmarshal(raw, &p) != nil {
		return time.Time{}
	}
	tapped, back := p.timing()
	if back != nil {
		return back.UTC()
	}
	if tapped.IsZero() {
		return time.Time{}
	}
	return tapped.UTC()
}

// queueVisit checks what depends on the customer's settings and queues the
// visit. A back-date where the customer forbids it is refused here, with
// the reason, rather than by the service later; with the settings not yet
// known the service judges.
func (s *Store) queueVisit(ctx context.Context, kind OutboxKind, summary string, wo *api.WorkOrder, backDated *time.Time, tapped time.Time,
	comment string, done api.Completion) (*OutboxRow, error) {
	cs, err := s.settingsOf(ctx, wo)
	if err != nil {
		return nil, err
	}
	if backDated != nil && cs != nil && cs.AllowBackdating.False() {
		return nil, invalid("%s does not allow back-dating: record the visit as happening now (the service records the time it arrives)",
			customerLabel(wo))
	}
	if kind == KindCheckOut { // the one visit action that carries the completion details
		if err := api.CheckOutProblem(wo, cs, done); err != nil {
			return nil, invalid("%s", err.Error())
		}
	} else {
		done = api.Completion{}
	}
	id := uuid.NewString()
	p := visitPayload{TappedAt: tapped.UTC()}
	p.WorkOrderId, p.Comment, p.MessageId = wo.WorkOrderId, comment, id
	if backDated != nil {
		t := backDated.UTC()
		p.ActualActionDate = &t
	}
	p.RepairInfo, p.CustomFields = done.RepairInfo, done.CustomFields
	return s.enqueue(ctx, newRow{kind: kind, summary: summary, targets: []int64{wo.WorkOrderId}, messageID: id, request: p})
}

func customerLabel(wo *api.WorkOrder) string {
	if wo.Customer.Name != "" {
		return wo.Customer.Name
	}
	return "The customer of " + wo.Name()
}

// checkOutOutcome is the status a queued check-out will give wo.
func (s *Store) checkOutOutcome(ctx context.Context, wo *api.WorkOrder, raw []byte) api.WorkOrderStatus {
	var p visitPayload
	if json.Unmarshal(raw, &p) != nil {
		return api.StatusCheckedOut
	}
	cs, _ := s.settingsOf(ctx, wo)
	return api.CheckOutOutcome(wo, cs, api.Completion{RepairInfo: p.RepairInfo, CustomFields: p.CustomFields})
}

// sendVisit sends a stored check-in, pause or check-out through call, with
// the ActualActionDate decided now: the back-date the person chose, or the
// tap time when the action reaches the service late at a customer that
// allows back-dating, or none. Settings not known count as not allowing it:
// the service then records the arrival time rather than refuse the visit.
func sendVisit(call func(c *api.Client, ctx context.Context, p *visitPayload) error) func(context.Context, *sendCtx) (any, error) {
	return func(ctx context.Context, sc *sendCtx) (any, error) {
		var p visitPayload
		if err := sc.decode(&p); err != nil {
			return nil, err
		}
		p.MessageId = sc.row.MessageId
		allows := false
		wo, err := sc.s.WorkOrder(ctx, p.WorkOrderId)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, errLocal{err}
		}
		if wo != nil {
			if cs, _ := sc.s.settingsOf(ctx, wo); cs != nil {
				allows = cs.AllowBackdating.True()
			}
		}
		tapped, back := p.timing()
		p.ActualActionDate = api.ActualActionDateFor(tapped, back, sc.s.now(), allows)
		return nil, call(sc.c, ctx, &p)
	}
}

// refreshInvoice re-reads the invoice after the work is done: completing
// it starts the invoice's submission deadline and, at a customer that
// verifies the work first, puts the invoice in PendingVerification.
func refreshInvoice(ctx context.Context, sc *sendCtx, woID int64) error {
	wo, err := sc.s.WorkOrder(ctx, woID)
	if err != nil || !wo.InvoiceVisible() {
		return err
	}
	inv, err := sc.c.GetInvoice(ctx, woID)
	if err != nil {
		return err
	}
	if inv.WorkOrderId == 0 {
		inv.WorkOrderId = woID
	}
	return putInvoice(ctx, sc.s.w, woID, inv, sc.s.now().UnixMilli())
}

func sendWorkDoneDetails(ctx context.Context, sc *sendCtx) (any, error) {
	var r api.WorkDoneDetailsRequest
	if err := sc.decode(&r); err != nil {
		return nil, err
	}
	r.MessageId = sc.row.MessageId
	return nil, sc.c.WorkDoneDetails(ctx, &r)
}
