package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// Completing procedure steps and marking procedures not applicable
// (service-facts §4.5). Their attachments are GroupStep's (outbox_attachment.go).

const (
	KindStepUpdate  OutboxKind = "stepUpdate"
	KindProcedureNA OutboxKind = "procedureMarkNA"
)

// FormStep is the step's editor on the Procedures tab.
const FormStep Form = "step"

// stepSubject is what the hub's event of a step update or a N/A mark
// carries of the write: which step or procedure, and the status set.
type stepSubject struct {
	ProcedureId int64  `json:"ProcedureId"`
	StepId      int64  `json:"StepId,omitempty"`
	Status      string `json:"Status,omitempty"`
}

func subjectOf(req json.RawMessage) json.RawMessage {
	var s stepSubject
	if json.Unmarshal(req, &s) != nil || s.ProcedureId == 0 {
		return nil
	}
	b, _ := json.Marshal(s)
	return b
}

var _ = register(GroupProcedure, map[OutboxKind]*action{
	KindStepUpdate: {
		rule:      api.UpdateStep,
		noun:      "Step",
		route:     Route{http.MethodPut, "/api/procedure/step"},
		colleague: Colleague{Event: "StepUpdatedByContractor", Verb: "updated a procedure step", Of: "on"},
		subject:   subjectOf,
		tell:      tellStep,
		// A colleague who marked the procedure N/A first explains a refusal.
		conflicts: []OutboxKind{KindProcedureNA},
		fix:       &fix{form: FormStep, again: "save the step", draft: draftStep},
		effect: func(_ context.Context, _ *Store, wo *api.WorkOrder, row *OutboxRow) {
			var r api.StepRequest
			if json.Unmarshal(row.Request, &r) != nil {
				return
			}
			if _, st, ok := wo.Step(r.Ref()); ok {
				st.Status, st.Value, st.Comment = r.Status, r.Value, r.Comment
				if r.Currency != "" {
					st.Currency = r.Currency
				}
			}
		},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.StepRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.UpdateStep(ctx, &r)
		},
		// Re-read the step: it landed when it holds what we sent. Sending
		// it again would change nothing, but a colleague may have set the
		// step since, and a resend would undo their change.
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			var r api.StepRequest
			if err := sc.decode(&r); err != nil {
				return false, nil, err
			}
			st, err := sc.c.GetStep(ctx, r.Ref())
			if err != nil {
				return false, nil, err
			}
			return sameStep(*st, r), nil, nil
		},
	},
	KindProcedureNA: {
		rule:      api.MarkProcedureNA,
		noun:      "Procedure N/A",
		route:     Route{http.MethodPut, "/api/procedure/markAsNA"},
		colleague: Colleague{Event: "ProcedureMarkedNaByContractor", Verb: "marked a procedure N/A", Of: "on", Past: "marked N/A"},
		subject:   subjectOf,
		tell: func(subject json.RawMessage, wo *api.WorkOrder) string {
			var s stepSubject
			if json.Unmarshal(subject, &s) != nil {
				return ""
			}
			if p, ok := wo.Procedure(s.ProcedureId); ok {
				return "marked " + p.Name + " N/A"
			}
			return ""
		},
		conflicts: []OutboxKind{KindProcedureNA},
		effect: func(_ context.Context, _ *Store, wo *api.WorkOrder, row *OutboxRow) {
			var r api.MarkNARequest
			if json.Unmarshal(row.Request, &r) != nil {
				return
			}
			if p, ok := wo.Procedure(r.ProcedureId); ok {
				p.IsMarkedNa = true
			}
		},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.MarkNARequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.MarkProcedureNotApplicable(ctx, &r)
		},
		// Marked once, it refuses a second marking (3030): re-read first.
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			var r api.MarkNARequest
			if err := sc.decode(&r); err != nil {
				return false, nil, err
			}
			wo, err := sc.readWorkOrder(ctx)
			if err != nil {
				return false, nil, err
			}
			p, ok := wo.Procedure(r.ProcedureId)
			return ok && p.IsMarkedNa, nil, nil
		},
	},
})

// sameStep reports whether the service's step holds what r set: the
// status (its enums bind regardless of case), the comment, and the value,
// numbers compared as numbers and yes/no regardless of case (the service
// may write them its own way).
func sameStep(st api.Step, r api.StepRequest) bool {
	if !strings.EqualFold(st.Status, r.Status) || st.Comment != r.Comment {
		return false
	}
	if st.Value == r.Value {
		return true
	}
	switch st.ValueKind() {
	case api.ValueYesNo:
		return strings.EqualFold(strings.TrimSpace(st.Value), r.Value)
	case api.ValueWhole, api.ValueNumber, api.ValueMoney:
		a, err1 := decimal.NewFromString(strings.TrimSpace(st.Value))
		b, err2 := decimal.NewFromString(r.Value)
		return err1 == nil && err2 == nil && a.Equal(b)
	}
	return false
}

// tellStep says what a colleague did to a step: "completed step 3 of Roof
// inspection".
func tellStep(subject json.RawMessage, wo *api.WorkOrder) string {
	var s stepSubject
	if json.Unmarshal(subject, &s) != nil {
		return ""
	}
	p, ok := wo.Procedure(s.ProcedureId)
	if !ok {
		return ""
	}
	what := wo.DescribeStep(api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: s.ProcedureId, StepId: s.StepId})
	if p.StepNumber(s.StepId) == 0 {
		return ""
	}
	switch {
	case strings.EqualFold(s.Status, api.StepDone):
		return "completed " + what
	case strings.EqualFold(s.Status, api.StepNA):
		return "marked " + what + " N/A"
	case strings.EqualFold(s.Status, api.StepOpen):
		return "reopened " + what
	}
	return "updated " + what
}

// draftStep reads back a step's completion for its editor.
func draftStep(raw json.RawMessage, _ string) (*Draft, error) {
	var r api.StepRequest
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &Draft{Text: r.Comment, Step: &r}, nil
}

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
	return s.enqueue(ctx, newRow{kind: KindStepUpdate, summary: summary, targets: []int64{ref.WorkOrderId}, messageID: id, request: r})
}

// MarkProcedureNA queues marking a whole procedure not applicable, where
// the customer allows it (AllowMarkNotApplicable).
func (s *Store) MarkProcedureNA(ctx context.Context, woID, procID int64) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.CanMarkNotApplicable(procID); err != nil {
		return nil, refused(err)
	}
	p, _ := wo.Procedure(procID)
	id := uuid.NewString()
	r := &api.MarkNARequest{WorkOrderId: woID, ProcedureId: procID}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindProcedureNA, summary: "Mark " + p.Name + " N/A", targets: []int64{woID}, messageID: id, request: r})
}
