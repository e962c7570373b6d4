package sandbox

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// Procedures and their steps (service-facts §4.5, §15): read them, complete
// a step, mark a procedure not applicable. Like every write through the
// API, none of them sends a notification (§9.1). This file is the oracle
// of api.UpdateStep and api.MarkProcedureNA: its rules are its own, and
// the conformance test holds the client's to them.

var _ = endpoints(
	endpoint{"GET", "/api/procedure", kindRead, (*call).listProcedures},
	endpoint{"GET", "/api/procedure/step", kindRead, (*call).getStep},
	endpoint{"PUT", "/api/procedure/step", kindMutate, (*call).updateStep},
	endpoint{"PUT", "/api/procedure/markasna", kindMutate, (*call).markNA},
)

// procedureStates are the statuses in which procedures may change:
// "Allowed only while the order is Accepted, CheckedIn, Paused or OnHold;
// read-only otherwise" (§4.5).
var procedureStates = []api.WorkOrderStatus{api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusOnHold}

// stepStatuses are the documented step statuses.
var stepStatuses = []string{"Unknown", "Open", "NA", "Done"}

func (c *call) listProcedures() (any, error) {
	o, err := c.queryOrder()
	if err != nil {
		return nil, err
	}
	procs := o.wo.Procedures()
	if procs == nil {
		procs = []api.Procedure{}
	}
	return c.envelope("Procedures", procs), nil
}

func (c *call) getStep() (any, error) {
	_, p, stepID, err := c.stepQuery()
	if err != nil {
		return nil, err
	}
	for _, st := range p.Steps {
		if st.Id == stepID {
			return c.envelope("Step", st), nil
		}
	}
	return nil, business(api.CodeNoSuchEntity, "Step %d is not in procedure %q.", stepID, p.Name)
}

// updateStep sets a step's Status, Value, Comment and, for a Money step,
// Currency (required then). The work order must be in procedureStates
// (3001); the procedure neither marked N/A nor read-only (3000, as for its
// attachments); the status one of the four documented (2100); the value
// what the step's DataType reads (2100), an unknown type taking any text.
func (c *call) updateStep() (any, error) {
	var req api.StepRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if err := checkText("Comment", req.Comment, false); err != nil {
		return nil, err
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if !statusIn(o.wo.Status, procedureStates...) {
		return nil, wrongStatus(o, "completing procedure steps", procedureStates...)
	}
	_, p, err := c.s.st.stepOf(req.WorkOrderId, req.ProcedureId, req.StepId)
	if err != nil {
		return nil, err
	}
	switch {
	case p.IsMarkedNa:
		return nil, business(api.CodeBusinessRule, "Procedure %q is marked N/A; its steps cannot be changed.", p.Name)
	case p.IsReadOnly:
		return nil, business(api.CodeBusinessRule, "Procedure %q is read-only; its steps cannot be changed.", p.Name)
	}
	if !containsFold(stepStatuses, req.Status) {
		return nil, serve.Invalid("Status", "%q is not a step status (Unknown, Open, NA, Done)", req.Status)
	}
	var st *api.Step
	for i := range p.Steps {
		if p.Steps[i].Id == req.StepId {
			st = &p.Steps[i]
		}
	}
	currency, err := checkStepValue(st, req.Value, req.Currency)
	if err != nil {
		return nil, err
	}
	st.Status, st.Value, st.Comment, st.Currency = canonicalStatus(req.Status), req.Value, req.Comment, currency
	p.Status = "Open"
	if !slices.ContainsFunc(p.Steps, func(s api.Step) bool { return s.Status != "Done" && s.Status != "NA" }) {
		p.Status = "Done" // assumption: a procedure is done once each step is done or N/A
	}
	c.s.st.touch(o, c.now)
	return nil, nil
}

// checkStepValue reads value as the step's DataType says and returns the
// currency the step keeps ("" but for Money, where it is required).
// Assumption: the service binds a step's Value as its type, as its custom
// fields are; a blank value clears it, whatever the type.
func checkStepValue(st *api.Step, value, currency string) (string, error) {
	v := strings.TrimSpace(value)
	kind := strings.ToLower(st.DataType)
	if kind == "money" {
		if currency == "" {
			return "", serve.Invalid("Currency", "Currency is required for step %d, of type Money", st.Id)
		}
		if !api.ValidCurrency(currency) {
			return "", serve.Invalid("Currency", "%q is not an ISO 4217 currency", currency)
		}
	}
	if v == "" {
		if kind == "money" {
			return currency, nil
		}
		return "", nil
	}
	bad := func(what string) error {
		return serve.Invalid("Value", "%q is not %s (step %d is of type %s)", value, what, st.Id, st.DataType)
	}
	switch kind {
	case "bool", "boolean":
		if !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
			return "", bad("true or false")
		}
	case "integer", "int":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return "", bad("a whole number")
		}
	case "float", "decimal", "double", "number", "money":
		d, err := decimal.NewFromString(v)
		if err != nil || strings.ContainsAny(v, "eE") || len(v) > 40 {
			return "", bad("a number")
		}
		if kind == "money" && -d.Exponent() > int32(api.MinorUnits(currency)) {
			return "", serve.Invalid("Value", "%s amounts have at most %d decimals", currency, api.MinorUnits(currency))
		}
		if kind == "money" {
			return currency, nil
		}
	default:
		if err := checkText("Value", value, false); err != nil {
			return "", err
		}
	}
	return "", nil
}

// canonicalStatus spells a status as the service documents it (its enums
// bind regardless of case).
func canonicalStatus(s string) string {
	for _, k := range stepStatuses {
		if strings.EqualFold(k, s) {
			return k
		}
	}
	return s
}

// markNARequest is the body of PUT /api/procedure/markAsNA as the
// sandbox reads it: MarkAsNa is documented (true marks, false clears the
// mark: /docs/marking-a-procedure-as-not-applicable); the keys naming the
// procedure are our guess (api.MarkNARequest).
type markNARequest struct {
	WorkOrderId int64 `json:"WorkOrderId"`
	ProcedureId int64 `json:"ProcedureId"`
	MarkAsNa    *bool `json:"MarkAsNa"`
	MessageId   string
}

// allowsNA reports whether the customer lets p be marked not applicable.
// The sandbox's procedures always say; one that did not would not be.
func allowsNA(p *api.Procedure) bool {
	return p.AllowMarkNotApplicable != nil && *p.AllowMarkNotApplicable
}

// markNA marks a procedure not applicable (MarkAsNa true) or clears the
// mark (false), after which its steps can be completed again. MarkAsNa
// is required: a body without it is 2100, never read as either (the
// docs give no default). The work order must be in procedureStates
// (3001) and have the procedure (3003). Refused with 3030, as the docs
// refuse a procedure that cannot be marked: one the customer does not
// allow to be marked (AllowMarkNotApplicable false; assumption: that
// governs clearing too), a read-only one, marking one marked already and
// clearing one that is not marked.
func (c *call) markNA() (any, error) {
	var req markNARequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if req.MarkAsNa == nil {
		return nil, serve.Invalid("MarkAsNa", "MarkAsNa is required: true marks the procedure not applicable, false clears the mark")
	}
	mark := *req.MarkAsNa
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	doing := "marking a procedure not applicable"
	if !mark {
		doing = "clearing a procedure's not-applicable mark"
	}
	if !statusIn(o.wo.Status, procedureStates...) {
		return nil, wrongStatus(o, doing, procedureStates...)
	}
	p := o.procedure(req.ProcedureId)
	if p == nil {
		return nil, business(api.CodeNoSuchEntity, "Procedure %d is not on work order %s.", req.ProcedureId, o.wo.WorkOrderNumber)
	}
	switch {
	case !allowsNA(p):
		return nil, business(api.CodeCannotMarkNA, "Procedure %q cannot be marked as not applicable.", p.Name)
	case p.IsReadOnly:
		return nil, business(api.CodeCannotMarkNA, "Procedure %q is read-only; its not-applicable mark cannot change.", p.Name)
	case mark && p.IsMarkedNa:
		return nil, business(api.CodeCannotMarkNA, "Procedure %q is already marked as not applicable.", p.Name)
	case !mark && !p.IsMarkedNa:
		return nil, business(api.CodeCannotMarkNA, "Procedure %q is not marked as not applicable.", p.Name)
	}
	p.IsMarkedNa = mark
	c.s.st.touch(o, c.now)
	return nil, nil
}

func containsFold(list []string, s string) bool {
	for _, k := range list {
		if strings.EqualFold(k, s) {
			return true
		}
	}
	return false
}
