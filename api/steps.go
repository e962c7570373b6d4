package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Completing procedure steps (service-facts §4.5): PUT /api/procedure/step
// updates a step's Status, Value, Comment and, for a Money step, Currency;
// PUT /api/procedure/markAsNA marks a whole procedure not applicable. Both
// only while the work order is in ProcedureEditStates.

// CodeCannotMarkNA is the service's refusal of a procedure that cannot be
// marked not applicable (service-facts §15,
// /docs/marking-a-procedure-as-not-applicable).
const CodeCannotMarkNA = 3030

// StepStatus is Step.Status.
type StepStatus = string

const (
	StepUnknown StepStatus = "Unknown"
	StepOpen    StepStatus = "Open"
	StepNA      StepStatus = "NA"
	StepDone    StepStatus = "Done"
)

// StepStatuses are the statuses the service documents for a step.
var StepStatuses = []StepStatus{StepUnknown, StepOpen, StepNA, StepDone}

// SettableStepStatuses are those a person sets: Unknown is the service's
// "not touched yet", never a choice.
var SettableStepStatuses = []StepStatus{StepOpen, StepDone, StepNA}

// Step data types. The procedure model names String, Bool and Money
// (service-facts §5, "…" after them); Integer and Float are the custom
// fields' names for numbers (§5), taken to mean the same on a step. Any
// other type, documented or not (Date, Time, Url, …), takes its value as
// text, and the service judges it.
const (
	DataString  = "String"
	DataBool    = "Bool"
	DataInteger = "Integer"
	DataFloat   = "Float"
	DataMoney   = "Money"
)

// StepValueKind is how a step's value is entered and checked.
type StepValueKind int

const (
	ValueText StepValueKind = iota // anything, as typed (also every type we do not know)
	ValueYesNo
	ValueWhole  // an integer
	ValueNumber // a decimal number
	ValueMoney  // an amount in the work order's currency
)

// ValueKind is how the step's value is entered, from its DataType
// (compared regardless of case, as the service's enums are).
func (s Step) ValueKind() StepValueKind {
	switch strings.ToLower(s.DataType) {
	case "bool", "boolean":
		return ValueYesNo
	case "integer", "int":
		return ValueWhole
	case "float", "decimal", "double", "number":
		return ValueNumber
	case "money":
		return ValueMoney
	}
	return ValueText
}

// Unit is the unit a step's label names in its last parentheses:
// "Temperature after (°F)" → "°F"; "" when it names none. Only numeric
// steps have one: "Coil photo (optional)" is no unit.
func (s Step) Unit() string {
	if k := s.ValueKind(); k != ValueWhole && k != ValueNumber {
		return ""
	}
	l := strings.TrimSpace(s.Label)
	if !strings.HasSuffix(l, ")") {
		return ""
	}
	open := strings.LastIndex(l, "(")
	if open < 0 {
		return ""
	}
	return strings.TrimSpace(l[open+1 : len(l)-1])
}

// Name is what a sentence calls the step: its label without the unit,
// else its description.
func (s Step) Name() string {
	name := strings.TrimSpace(s.Label)
	if u := s.Unit(); u != "" {
		name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(name, ")"), u))
		name = strings.TrimSpace(strings.TrimSuffix(name, "("))
	}
	if name == "" {
		name = s.Description
	}
	return name
}

// Yes and No are a Bool step's values as the service's .NET model binder
// reads and writes a bool ("true"/"false"; assumption: the wire form of
// a step's Value is not published).
const (
	StepYes = "true"
	StepNo  = "false"
)

// StepValueText is how the window shows a stored value: "Yes"/"No" for a
// Bool step, the amount with its currency for a Money one, the number and
// its unit for a numeric one.
func (s Step) ValueText(currency string) string {
	v := strings.TrimSpace(s.Value)
	if v == "" {
		return ""
	}
	switch s.ValueKind() {
	case ValueYesNo:
		switch strings.ToLower(v) {
		case "true", "yes":
			return "Yes"
		case "false", "no":
			return "No"
		}
	case ValueMoney:
		cur := s.Currency
		if cur == "" {
			cur = currency
		}
		if m, err := NewMoney(v, cur); err == nil {
			return m.Format()
		}
	case ValueWhole, ValueNumber:
		if u := s.Unit(); u != "" {
			return v + " " + u
		}
	}
	return v
}

// Sorted returns the procedure's steps in their Order (the display
// sequence; ties keep the service's order).
func (p Procedure) Sorted() []Step {
	steps := slices.Clone(p.Steps)
	slices.SortStableFunc(steps, func(a, b Step) int { return a.Order - b.Order })
	return steps
}

// StepNumber is the step's place in the procedure as a person counts it
// (1 for the first in Order); 0 when it is not there.
func (p Procedure) StepNumber(stepID int64) int {
	for i, s := range p.Sorted() {
		if s.Id == stepID {
			return i + 1
		}
	}
	return 0
}

// Procedure finds one of the work order's procedures by id.
func (w *WorkOrder) Procedure(id int64) (*Procedure, bool) {
	if w.WorkDetails == nil {
		return nil, false
	}
	for i := range w.WorkDetails.Procedures {
		if w.WorkDetails.Procedures[i].Id == id {
			return &w.WorkDetails.Procedures[i], true
		}
	}
	return nil, false
}

// Step finds a step of the work order.
func (w *WorkOrder) Step(ref StepRef) (*Procedure, *Step, bool) {
	p, ok := w.Procedure(ref.ProcedureId)
	if !ok {
		return nil, nil, false
	}
	for i := range p.Steps {
		if p.Steps[i].Id == ref.StepId {
			return p, &p.Steps[i], true
		}
	}
	return p, nil, false
}

// StepUpdate is what a person sets on a step: the updatable fields of
// PUT /api/procedure/step.
type StepUpdate struct {
	Status  StepStatus
	Value   string
	Comment string
}

// StepRequest is the body of PUT /api/procedure/step. The keys naming the
// step are not published (service-facts §4.5); WorkOrderId, ProcedureId
// and StepId are the natural ones the step attachment calls use too.
// Value and Comment are always sent: the person sees the whole step, and
// an empty one clears it.
type StepRequest struct {
	WorkOrderId int64      `json:"WorkOrderId"`
	ProcedureId int64      `json:"ProcedureId"`
	StepId      int64      `json:"StepId"`
	Status      StepStatus `json:"Status"`
	Value       string     `json:"Value"`
	Comment     string     `json:"Comment"`
	// Currency is required when the step's DataType is Money (ISO 4217);
	// omitted otherwise.
	Currency string `json:"Currency,omitempty"`
	Envelope
}

// Ref is the step the request updates.
func (r *StepRequest) Ref() StepRef {
	return StepRef{WorkOrderId: r.WorkOrderId, ProcedureId: r.ProcedureId, StepId: r.StepId}
}

// MarkNARequest is the body of PUT /api/procedure/markAsNA. Its MarkAsNa
// is documented (/docs/marking-a-procedure-as-not-applicable, service-facts
// §16): true marks the procedure not applicable, false clears the mark
// (the documented undo); it is always sent. In Go it is Clear, so that the
// zero value marks: a request built or queued before the flag was sent was
// a request to mark, and must never go out as false. The keys naming the
// procedure are not published (as for StepRequest): WorkOrderId and
// ProcedureId are our guess; wrong, the service refuses the call (2100 or
// 3003, shown as it words it) and nothing is marked.
type MarkNARequest struct {
	WorkOrderId int64
	ProcedureId int64
	// Clear asks to clear the mark (MarkAsNa false); false marks.
	Clear bool
	Envelope
}

// markNAWire is MarkNARequest as it is sent and queued.
type markNAWire struct {
	WorkOrderId int64  `json:"WorkOrderId"`
	ProcedureId int64  `json:"ProcedureId"`
	MarkAsNa    *bool  `json:"MarkAsNa"`
	MessageId   string `json:"MessageId,omitempty"`
}

// MarshalJSON writes MarkAsNa always, false too.
func (r MarkNARequest) MarshalJSON() ([]byte, error) {
	return json.Marshal(markNAWire{WorkOrderId: r.WorkOrderId, ProcedureId: r.ProcedureId, MarkAsNa: new(!r.Clear), MessageId: r.MessageId})
}

// UnmarshalJSON reads a request as queued or as a desktop sent it. One
// queued before MarkAsNa was sent has no such key: it was a request to
// mark. A field the request does not have is refused (the office hub
// decodes a desktop's body strictly; this decoder is the whole of it).
func (r *MarkNARequest) UnmarshalJSON(b []byte) error {
	var w markNAWire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return err
	}
	*r = MarkNARequest{WorkOrderId: w.WorkOrderId, ProcedureId: w.ProcedureId, Clear: w.MarkAsNa != nil && !*w.MarkAsNa}
	r.MessageId = w.MessageId
	return nil
}

// MarkAsNa is the flag the request sends: true marks, false clears.
func (r *MarkNARequest) MarkAsNa() bool { return !r.Clear }

// CanUpdateStep says whether the step can be completed now, or why not:
// the work order's status (service-facts §4.5), the procedure's own state
// (not marked N/A, not read-only), and the step must exist.
func (w *WorkOrder) CanUpdateStep(ref StepRef) error {
	return w.CanChangeStep(UpdateStep, ref)
}

// CheckStepUpdate is the rule for what a person sets on a step, read as
// its DataType says, and returns the request to queue: the status one of
// SettableStepStatuses; the value a yes/no, a whole or decimal number, or
// an amount in the work order's currency (which goes with it, required for
// Money), else text as typed; a comment of at most MaxCommentLength.
func (w *WorkOrder) CheckStepUpdate(ref StepRef, u StepUpdate) (*StepRequest, error) {
	if err := w.CanUpdateStep(ref); err != nil {
		return nil, err
	}
	_, step, ok := w.Step(ref)
	if !ok {
		// A step CanUpdateStep let through, but that this copy lacks.
		return nil, refuse("%s has no step %d", w.Name(), ref.StepId)
	}
	if !slices.Contains(SettableStepStatuses, u.Status) {
		return nil, refuse("%q is not a step status: choose Done, N/A or Open", u.Status)
	}
	if err := CheckText("comment", u.Comment, false); err != nil {
		return nil, err
	}
	value, err := step.ParseValue(u.Value, w.Currency)
	if err != nil {
		return nil, err
	}
	r := &StepRequest{WorkOrderId: ref.WorkOrderId, ProcedureId: ref.ProcedureId, StepId: ref.StepId,
		Status: u.Status, Value: value, Comment: u.Comment}
	if step.ValueKind() == ValueMoney {
		if !ValidCurrency(w.Currency) {
			return nil, refuse("%s has no currency the service knows (%q): a money step needs one", w.Name(), w.Currency)
		}
		r.Currency = w.Currency
	}
	return r, nil
}

// ParseValue reads what the person typed as the step's value and returns
// it as it is sent. Blank is no value (a step may be done without one; the
// service judges what it requires).
func (s Step) ParseValue(text, currency string) (string, error) {
	t := strings.TrimSpace(text)
	name := s.Name()
	if name == "" {
		name = "the step"
	}
	if t == "" {
		if s.ValueKind() == ValueText {
			return text, nil // spaces are text too, as typed
		}
		return "", nil
	}
	switch s.ValueKind() {
	case ValueYesNo:
		switch strings.ToLower(t) {
		case "yes", "y", "true":
			return StepYes, nil
		case "no", "n", "false":
			return StepNo, nil
		}
		return "", refuse("%q takes yes or no, not %q", name, t)
	case ValueWhole:
		n, err := strconv.ParseInt(strings.TrimPrefix(t, "+"), 10, 64)
		if err != nil {
			return "", refuse("%q takes a whole number, not %q", name, t)
		}
		return strconv.FormatInt(n, 10), nil
	case ValueNumber:
		d, err := ParseAmount(t)
		if err != nil || strings.ContainsAny(t, "eE") {
			return "", refuse("%q takes a number (like 38.5), not %q", name, t)
		}
		return d.String(), nil
	case ValueMoney:
		d, err := ParseAmount(t)
		if err != nil || strings.ContainsAny(t, "eE") {
			return "", refuse("%q takes an amount in %s (like 125.50), not %q", name, currency, t)
		}
		m := Money{Amount: d, Currency: currency}
		if err := m.Check(); err != nil {
			return "", refuse("%q: %v", name, err)
		}
		return d.StringFixed(int32(MinorUnits(currency))), nil
	}
	if n := utf8.RuneCountInString(text); n > MaxCommentLength {
		return "", refuse("the value of %q is %d characters long; the service accepts at most %d", name, n, MaxCommentLength)
	}
	return text, nil
}

// MarkNAAllowed reports whether the customer lets the procedure be marked
// not applicable as far as we know: true unless the service said false.
// AllowMarkNotApplicable absent is unknown, and unknown is offered: the
// service judges (3030).
func (p Procedure) MarkNAAllowed() bool {
	return p.AllowMarkNotApplicable == nil || *p.AllowMarkNotApplicable
}

// MarkNAForbidden reports whether the service said the procedure may not
// be marked not applicable (AllowMarkNotApplicable present and false).
func (p Procedure) MarkNAForbidden() bool {
	return p.AllowMarkNotApplicable != nil && !*p.AllowMarkNotApplicable
}

// CanMarkNotApplicable says whether procedure procID can be marked not
// applicable now, or why not: the work order's status, the procedure must
// not be one the service said may not be marked (AllowMarkNotApplicable
// false; the service refuses those with 3030; absent is unknown and
// allowed), and it must not be marked already nor read-only.
func (w *WorkOrder) CanMarkNotApplicable(procID int64) error {
	if err := w.Can(MarkProcedureNA); err != nil {
		return err
	}
	p, ok := w.Procedure(procID)
	if !ok {
		return refuse("%s has no procedure %d", w.Name(), procID)
	}
	switch {
	case p.IsMarkedNa:
		return refuse("the procedure %q is marked N/A already", p.Name)
	case p.MarkNAForbidden():
		return refuse("the customer does not let the procedure %q be marked N/A: complete its steps instead", p.Name)
	case p.IsReadOnly:
		return refuse("the procedure %q is read-only: it can't be marked N/A", p.Name)
	}
	return nil
}

// CanClearNotApplicable says whether procedure procID's N/A mark can be
// cleared now (PUT /api/procedure/markAsNA with MarkAsNa false), or why
// not: as for marking it, the work order's status and the procedure must
// allow it, and it must be marked N/A and not read-only. The docs name no
// other rule for clearing; the service refuses what it does not allow
// with 3030, as it does marking.
func (w *WorkOrder) CanClearNotApplicable(procID int64) error {
	if err := w.Can(ClearProcedureNA); err != nil {
		return err
	}
	p, ok := w.Procedure(procID)
	if !ok {
		return refuse("%s has no procedure %d", w.Name(), procID)
	}
	switch {
	case !p.IsMarkedNa:
		return refuse("the procedure %q is not marked N/A", p.Name)
	case p.MarkNAForbidden():
		return refuse("the customer does not let the N/A mark of the procedure %q be changed", p.Name)
	case p.IsReadOnly:
		return refuse("the procedure %q is read-only: its N/A mark can't be cleared", p.Name)
	}
	return nil
}

// CheckMarkNA is the rule for PUT /api/procedure/markAsNA (mark true
// marks, false clears) and returns the request to queue.
func (w *WorkOrder) CheckMarkNA(procID int64, mark bool) (*MarkNARequest, error) {
	check := w.CanMarkNotApplicable
	if !mark {
		check = w.CanClearNotApplicable
	}
	if err := check(procID); err != nil {
		return nil, err
	}
	return &MarkNARequest{WorkOrderId: w.WorkOrderId, ProcedureId: procID, Clear: !mark}, nil
}

// StepStatusText is a step status in words.
func StepStatusText(s StepStatus) string {
	switch s {
	case StepDone:
		return "Done"
	case StepNA:
		return "N/A"
	case StepOpen:
		return "Open"
	case StepUnknown, "":
		return "Not started"
	}
	return s
}

// describeStep names a step for a sentence: "step 3 of Roof inspection".
func describeStep(p *Procedure, stepID int64) string {
	if n := p.StepNumber(stepID); n > 0 {
		return fmt.Sprintf("step %d of %s", n, p.Name)
	}
	return "a step of " + p.Name
}

// DescribeStep names a step of the work order for a sentence ("step 3 of
// Roof inspection"); "a procedure step" when this copy lacks it.
func (w *WorkOrder) DescribeStep(ref StepRef) string {
	if p, ok := w.Procedure(ref.ProcedureId); ok {
		return describeStep(p, ref.StepId)
	}
	return "a procedure step"
}

// DealtWith reports whether nothing is left to do on the step: done, or
// marked N/A.
func (s Step) DealtWith() bool { return s.Status == StepDone || s.Status == StepNA }

// RequiredStepsOpen lists the required steps of w's procedures not yet
// dealt with (done or N/A; a procedure marked N/A needs none), by
// procedure name and step number ("Roof inspection step 3"). A checked-out
// work order's procedures no longer change (ProcedureEditStates), so these
// can no longer be done after a check-out. Whether the service refuses such
// a check-out is not published: callers say it, never refuse on it.
func (w *WorkOrder) RequiredStepsOpen() []string {
	var out []string
	for _, p := range w.Procedures() {
		if p.IsMarkedNa {
			continue
		}
		for i, s := range p.Sorted() {
			if s.IsRequired && !s.DealtWith() {
				out = append(out, fmt.Sprintf("%s step %d", p.Name, i+1))
			}
		}
	}
	return out
}
