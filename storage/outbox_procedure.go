package storage

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Completing procedure steps and marking procedures not applicable
// (service-facts §4.5). Their attachments are outbox.GroupStep's (outbox_attachment.go).

// UpdateStep queues completing a procedure step: its status (Done, N/A or
// Open), a value of the step's type and a comment. The value is read as
// the step's DataType says (api.WorkOrder.CheckStepUpdate); a money value
// goes in the work order's currency.
func (s *Store) UpdateStep(ctx context.Context, ref api.StepRef, u api.StepUpdate) (*OutboxRow, error) {
	wo, err := s.expected(ctx, ref.WorkOrderId)
	if err != nil {
		return nil, err
	}
	r, err := wo.CheckStepUpdate(ref, u)
	if err != nil {
		return nil, refused(err)
	}
	id := uuid.NewString()
	r.MessageId = id
	what := wo.DescribeStep(ref)
	summary := fmt.Sprintf("%s%s: %s", strings.ToUpper(what[:1]), what[1:], api.StepStatusText(r.Status))
	return s.enqueue(ctx, newRow{kind: outbox.KindStepUpdate, summary: summary, targets: []int64{ref.WorkOrderId}, messageID: id, request: r})
}

// MarkProcedureNA queues marking a whole procedure not applicable, where
// the customer allows it (AllowMarkNotApplicable).
func (s *Store) MarkProcedureNA(ctx context.Context, woID, procID int64) (*OutboxRow, error) {
	return s.markNA(ctx, woID, procID, true)
}

// ClearProcedureNA queues clearing a procedure's N/A mark (the documented
// undo: MarkAsNa false), so that its steps can be completed again.
func (s *Store) ClearProcedureNA(ctx context.Context, woID, procID int64) (*OutboxRow, error) {
	return s.markNA(ctx, woID, procID, false)
}

func (s *Store) markNA(ctx context.Context, woID, procID int64, mark bool) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	r, err := wo.CheckMarkNA(procID, mark)
	if err != nil {
		return nil, refused(err)
	}
	p, _ := wo.Procedure(procID)
	id := uuid.NewString()
	r.MessageId = id
	summary := "Mark " + p.Name + " N/A"
	if !mark {
		summary = "Mark " + p.Name + " applicable again"
	}
	return s.enqueue(ctx, newRow{kind: outbox.KindProcedureNA, summary: summary, targets: []int64{woID}, messageID: id, request: r})
}
