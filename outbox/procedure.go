package outbox

import (
	"context"
	"net/http"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// Completing procedure steps and marking procedures not applicable
// (service-facts §4.5). Their attachments are GroupStep's (files.go).

const (
	KindStepUpdate  Kind = "stepUpdate"
	KindProcedureNA Kind = "procedureMarkNA"
)

// FormStep is the step's editor on the Procedures tab.
const FormStep Form = "step"

var _ = register(GroupProcedure,
	def(&Entry{
		Kind: KindStepUpdate, Rule: api.UpdateStep, Noun: "Step",
		Route:     Route{http.MethodPut, "/api/procedure/step"},
		Colleague: Colleague{Event: "StepUpdatedByContractor", Verb: "updated a procedure step", Of: "on"},
		// A colleague who marked the procedure N/A first explains a refusal.
		Conflicts: []Kind{KindProcedureNA},
		Fix:       &Fix{Form: FormStep, Again: "save the step"},
		Judged: "the step, re-read: it holds what we sent (status, value, comment). Sending it again would change " +
			"nothing, but a colleague may have set the step since, and a resend would undo their change; the same " +
			"values set by someone else leave the step as ours would.",
	}, spec[api.StepRequest]{
		call: noResult((*api.Client).UpdateStep),
		draft: func(r *api.StepRequest, _ string) *Draft {
			c := *r
			return &Draft{Text: r.Comment, Step: &c}
		},
		subject: func(r *api.StepRequest) Subject {
			if r.ProcedureId == 0 {
				return Subject{}
			}
			return Subject{Step: &StepSubject{ProcedureId: r.ProcedureId, StepId: r.StepId, Status: string(r.Status)}}
		},
		tell: tellStep,
		effect: func(_ context.Context, wo *api.WorkOrder, r *api.StepRequest, _ Env) {
			if _, st, ok := wo.Step(r.Ref()); ok {
				st.Status, st.Value, st.Comment = r.Status, r.Value, r.Comment
				if r.Currency != "" {
					st.Currency = r.Currency
				}
			}
		},
		landed: func(ctx context.Context, c *api.Client, r *api.StepRequest, _ *LandedQuery) (bool, any, error) {
			st, err := c.GetStep(ctx, r.Ref())
			if err != nil {
				return false, nil, err
			}
			return sameStep(*st, *r), nil, nil
		},
	}),
	def(&Entry{
		Kind: KindProcedureNA, Rule: api.MarkProcedureNA, Noun: "Procedure N/A",
		Route:     Route{http.MethodPut, "/api/procedure/markAsNA"},
		Colleague: Colleague{Event: "ProcedureMarkedNaByContractor", Verb: "marked a procedure N/A", Of: "on", Past: "marked N/A"},
		Conflicts: []Kind{KindProcedureNA},
		Judged: "the work order's procedure, re-read: its N/A mark is what the write asked for (MarkAsNa true marks, false " +
			"clears). Whoever set it so, the service refuses setting it again (3030), and the procedure is as ours would " +
			"leave it.",
	}, spec[api.MarkNARequest]{
		// The documented flag: absent would not mean "mark" to the
		// service, so a body without it is refused, never defaulted.
		required: []string{"MarkAsNa"},
		call:     noResult((*api.Client).MarkProcedureNotApplicable),
		subject: func(r *api.MarkNARequest) Subject {
			if r.ProcedureId == 0 {
				return Subject{}
			}
			mark := r.MarkAsNa()
			return Subject{Step: &StepSubject{ProcedureId: r.ProcedureId, IsMarkedNa: &mark}}
		},
		tell: func(s Subject, wo *api.WorkOrder) string {
			if s.Step == nil {
				return ""
			}
			p, ok := wo.Procedure(s.Step.ProcedureId)
			if !ok {
				return ""
			}
			if s.Step.IsMarkedNa != nil && !*s.Step.IsMarkedNa {
				return "marked " + p.Name + " applicable again"
			}
			return "marked " + p.Name + " N/A"
		},
		effect: func(_ context.Context, wo *api.WorkOrder, r *api.MarkNARequest, _ Env) {
			if p, ok := wo.Procedure(r.ProcedureId); ok {
				p.IsMarkedNa = r.MarkAsNa()
			}
		},
		landed: func(ctx context.Context, c *api.Client, r *api.MarkNARequest, q *LandedQuery) (bool, any, error) {
			wo, err := c.GetWorkOrder(ctx, q.WorkOrders[0])
			if err != nil {
				return false, nil, err
			}
			p, ok := wo.Procedure(r.ProcedureId)
			return ok && p.IsMarkedNa == r.MarkAsNa(), nil, nil
		},
	}),
)

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
func tellStep(s Subject, wo *api.WorkOrder) string {
	if s.Step == nil {
		return ""
	}
	p, ok := wo.Procedure(s.Step.ProcedureId)
	if !ok || p.StepNumber(s.Step.StepId) == 0 {
		return ""
	}
	what := wo.DescribeStep(api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: s.Step.ProcedureId, StepId: s.Step.StepId})
	switch {
	case strings.EqualFold(s.Step.Status, api.StepDone):
		return "completed " + what
	case strings.EqualFold(s.Step.Status, api.StepNA):
		return "marked " + what + " N/A"
	case strings.EqualFold(s.Step.Status, api.StepOpen):
		return "reopened " + what
	}
	return "updated " + what
}
