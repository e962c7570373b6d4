package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// queueVisit checks what depends on the customer's settings and queues the
// visit. A back-date where the customer forbids it is refused here, with
// the reason, rather than by the service later; with the settings not yet
// known the service judges.
func (s *Store) queueVisit(ctx context.Context, kind outbox.Kind, summary string, wo *api.WorkOrder, backDated *time.Time, tapped time.Time,
	comment string, done api.Completion) (*OutboxRow, error) {
	cs, err := s.settingsOf(ctx, wo)
	if err != nil {
		return nil, err
	}
	if backDated != nil && cs != nil && cs.AllowBackdating.False() {
		return nil, invalid("%s does not allow back-dating: record the visit as happening now (the service records the time it arrives)",
			customerLabel(wo))
	}
	if kind == outbox.KindCheckOut { // the one visit action that carries the completion details
		if err := api.CheckOutProblem(wo, cs, done); err != nil {
			return nil, invalid("%s", err.Error())
		}
	} else {
		done = api.Completion{}
	}
	id := uuid.NewString()
	p := outbox.Visit{TappedAt: tapped.UTC()}
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

// refreshInvoice re-reads the invoice after the work is done: completing
// it starts the invoice's submission deadline and, at a customer that
// verifies the work first, puts the invoice in PendingVerification.
func (s *Store) refreshInvoice(ctx context.Context, c *api.Client, woID int64) error {
	wo, err := s.WorkOrder(ctx, woID)
	if err != nil || !wo.InvoiceVisible() {
		return err
	}
	inv, err := c.GetInvoice(ctx, woID)
	if err != nil {
		return err
	}
	if inv.WorkOrderId == 0 {
		inv.WorkOrderId = woID
	}
	return putInvoice(ctx, s.w, woID, inv, s.now().UnixMilli())
}
