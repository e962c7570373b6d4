package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// What a person types as a step's value, read as the step's DataType says:
// the value that is sent, or the refusal in words.
func TestStepValueIsReadAsItsType(t *testing.T) {
	cases := []struct {
		dataType, currency, typed string
		want                      string // sent; "" with refused
		refused                   string // a part of the refusal
	}{
		{"Bool", "USD", "Yes", "true", ""},
		{"bool", "USD", "n", "false", ""},
		{"Bool", "USD", "perhaps", "", "takes yes or no"},
		{"Integer", "USD", " 12 ", "12", ""},
		{"Integer", "USD", "+7", "7", ""},
		{"Integer", "USD", "1.5", "", "a whole number"},
		{"Float", "USD", "38.50", "38.5", ""},
		{"Float", "USD", "-4", "-4", ""},
		{"Float", "USD", "2e9", "", "takes a number"},
		{"Money", "USD", "125.5", "125.50", ""},
		{"Money", "JPY", "1200", "1200", ""},
		{"Money", "JPY", "1200.5", "", "JPY amounts have no decimals"},
		{"Money", "USD", "1.005", "", "at most 2 decimals"},
		{"Money", "EUR", "ten", "", "an amount in EUR"},
		{"Integer", "USD", "", "", ""},
		{"String", "USD", "  as typed ", "  as typed ", ""},
		{"String", "USD", strings.Repeat("s", MaxCommentLength+1), "", "at most 3000"},
		// Types we do not know take text: the service judges.
		{"Date", "USD", "14/03/2025", "14/03/2025", ""},
		{"", "USD", "anything", "anything", ""},
		{"Checklist2027", "USD", "x", "x", ""},
	}
	for _, c := range cases {
		s := Step{Id: 1, Label: "Reading (psi)", DataType: c.dataType}
		got, err := s.ParseValue(c.typed, c.currency)
		switch {
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s %q: %q, %v; want a refusal saying %q", c.dataType, c.typed, got, err, c.refused)
		case c.refused == "" && (err != nil || got != c.want):
			t.Errorf("%s %q: %q, %v; want %q", c.dataType, c.typed, got, err, c.want)
		}
	}
}

// A numeric step's unit is what its label names last in parentheses.
func TestStepUnitAndName(t *testing.T) {
	cases := []struct{ label, dataType, unit, name, shown string }{
		{"Temperature after (°F)", "Float", "°F", "Temperature after", "38.5 °F"},
		{"Lamps replaced (pcs)", "Integer", "pcs", "Lamps replaced", "38.5 pcs"},
		{"Coil photo (optional)", "String", "", "Coil photo (optional)", "38.5"},
		{"Pressure", "Float", "", "Pressure", "38.5"},
	}
	for _, c := range cases {
		s := Step{Label: c.label, DataType: c.dataType, Value: "38.5"}
		if s.Unit() != c.unit || s.Name() != c.name || s.ValueText("USD") != c.shown {
			t.Errorf("%q: unit %q, name %q, shown %q; want %q, %q, %q", c.label, s.Unit(), s.Name(), s.ValueText("USD"), c.unit, c.name, c.shown)
		}
	}
	if got := (Step{DataType: "Money", Value: "125.50", Currency: "EUR"}).ValueText("USD"); !strings.Contains(got, "125.50") || !strings.Contains(got, "€") {
		t.Errorf("a money value shows as %q; want it in euros", got)
	}
	if got := (Step{DataType: "Bool", Value: "False"}).ValueText(""); got != "No" {
		t.Errorf("a bool value shows as %q; want No", got)
	}
}

func stepOrder(status WorkOrderStatus, p Procedure) *WorkOrder {
	return &WorkOrder{WorkOrderId: 9, WorkOrderNumber: "WN9", Status: status, Currency: "USD",
		WorkDetails: &WorkDetails{Procedures: []Procedure{p}}}
}

// Completing a step, marking a procedure N/A and clearing the mark: the
// work order's status, then the procedure's own state.
func TestStepAndProcedureRules(t *testing.T) {
	open := Procedure{Id: 5, Name: "Roof inspection", AllowMarkNotApplicable: new(true),
		Steps: []Step{{Id: 52, Order: 2, DataType: "Bool"}, {Id: 51, Order: 1, DataType: "Money"}}}
	ref := StepRef{WorkOrderId: 9, ProcedureId: 5, StepId: 52}
	marked := func(p *Procedure) { p.IsMarkedNa = true }
	cases := []struct {
		name           string
		status         WorkOrderStatus
		change         func(p *Procedure)
		step, mna, clr string // a part of each refusal; "" = allowed
	}{
		{"checked in", StatusCheckedIn, nil, "", "", "not marked N/A"},
		{"on hold", StatusOnHold, nil, "", "", "not marked N/A"},
		{"new", StatusNew, nil, "procedures can change only while", "procedures can change only while", "procedures can change only while"},
		{"checked out", StatusCheckedOut, nil, "procedures can change only while", "procedures can change only while", "procedures can change only while"},
		{"rejected", StatusRejected, nil, "was rejected", "was rejected", "was rejected"},
		{"marked N/A", StatusPaused, marked, "marked N/A: its steps", "marked N/A already", ""},
		{"marked N/A, new", StatusNew, marked, "marked N/A: its steps", "procedures can change only while", "procedures can change only while"},
		{"read-only", StatusPaused, func(p *Procedure) { p.IsReadOnly = true }, "read-only: its steps", "read-only", "not marked N/A"},
		{"read-only, marked", StatusPaused, func(p *Procedure) { p.IsReadOnly, p.IsMarkedNa = true, true }, "marked N/A: its steps", "marked N/A already", "read-only"},
		{"N/A not allowed", StatusAccepted, func(p *Procedure) { p.AllowMarkNotApplicable = new(false) }, "", "does not let", "not marked N/A"},
		{"N/A not allowed, marked", StatusAccepted, func(p *Procedure) { p.AllowMarkNotApplicable, p.IsMarkedNa = new(false), true }, "marked N/A: its steps", "marked N/A already", "does not let"},
		// AllowMarkNotApplicable absent (the work order's WorkDetails, or
		// GET /api/procedure under other names) is unknown: offered, and
		// the service judges (3030).
		{"N/A allowance unknown", StatusAccepted, func(p *Procedure) { p.AllowMarkNotApplicable = nil }, "", "", "not marked N/A"},
		{"N/A allowance unknown, marked", StatusAccepted, func(p *Procedure) { p.AllowMarkNotApplicable, p.IsMarkedNa = nil, true }, "marked N/A: its steps", "marked N/A already", ""},
		// A status the service documents nowhere locks nothing.
		{"unknown status", "Dispatched", nil, "", "", "not marked N/A"},
	}
	for _, c := range cases {
		p := open
		p.Steps = append([]Step(nil), open.Steps...)
		if c.change != nil {
			c.change(&p)
		}
		wo := stepOrder(c.status, p)
		check := func(what, want string, err error) {
			if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
				t.Errorf("%s: %s: %v; want %q", c.name, what, err, want)
			}
		}
		_, err := wo.CheckStepUpdate(ref, StepUpdate{Status: StepDone, Value: "yes"})
		check("completing a step", c.step, err)
		check("marking N/A", c.mna, wo.CanMarkNotApplicable(5))
		check("clearing N/A", c.clr, wo.CanClearNotApplicable(5))
		for _, mark := range []bool{true, false} {
			r, err := wo.CheckMarkNA(5, mark)
			want := map[bool]string{true: c.mna, false: c.clr}[mark]
			check(fmt.Sprintf("CheckMarkNA(%v)", mark), want, err)
			if err == nil && (r.MarkAsNa() != mark || r.WorkOrderId != 9 || r.ProcedureId != 5) {
				t.Errorf("%s: CheckMarkNA(%v) queues %+v", c.name, mark, r)
			}
		}
	}
	wo := stepOrder(StatusCheckedIn, open)
	if _, err := wo.CheckStepUpdate(ref, StepUpdate{Status: StepUnknown}); err == nil {
		t.Errorf("a person set a step back to Unknown")
	}
	if _, err := wo.CheckStepUpdate(StepRef{WorkOrderId: 9, ProcedureId: 5, StepId: 99}, StepUpdate{Status: StepDone}); err == nil {
		t.Errorf("a step the procedure lacks was taken")
	}
	r, err := wo.CheckStepUpdate(StepRef{WorkOrderId: 9, ProcedureId: 5, StepId: 51}, StepUpdate{Status: StepNA, Comment: "none bought"})
	if err != nil || r.Currency != "USD" || r.Status != StepNA {
		t.Errorf("a money step marked N/A: %+v, %v; want it sent with USD", r, err)
	}
	if got := wo.DescribeStep(ref); got != "step 2 of Roof inspection" {
		t.Errorf("the step is described as %q", got)
	}
}

// The internal note: closed work orders refuse it, and it has a length.
func TestNoteRule(t *testing.T) {
	for _, st := range AllStatuses {
		err := (&WorkOrder{Status: st}).CheckNote("gate code 4471")
		if st.Closed() != (err != nil) {
			t.Errorf("%s: a note is %v", st, err)
		}
	}
	if err := (&WorkOrder{Status: StatusAccepted}).CheckNote(strings.Repeat("n", MaxNoteLength+1)); err == nil {
		t.Errorf("a note longer than %d was taken", MaxNoteLength)
	}
	if err := (&WorkOrder{Status: StatusAccepted}).CheckNote(""); err != nil {
		t.Errorf("clearing the note: %v", err)
	}
}

// MarkAsNa goes with every markAsNA body, false too (the documented
// undo); the zero request marks; a body queued before the flag was sent
// has none and was a request to mark: it reads as true, never as false,
// which would clear the mark.
func TestMarkNARequestCarriesItsFlag(t *testing.T) {
	for _, mark := range []bool{true, false} {
		b, err := json.Marshal(&MarkNARequest{WorkOrderId: 9, ProcedureId: 5, Clear: !mark})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`{"WorkOrderId":9,"ProcedureId":5,"MarkAsNa":%v}`, mark)
		if string(b) != want {
			t.Errorf("sent %s, want %s", b, want)
		}
		var back MarkNARequest
		if err := json.Unmarshal(b, &back); err != nil || back.MarkAsNa() != mark {
			t.Errorf("%s read back as %+v, %v", b, back, err)
		}
	}
	if b, _ := json.Marshal(MarkNARequest{WorkOrderId: 9, ProcedureId: 5}); !strings.Contains(string(b), `"MarkAsNa":true`) {
		t.Errorf("the zero request sends %s; want it to mark", b)
	}
	cases := []struct {
		queued, id string
		want       bool
	}{
		{`{"WorkOrderId":9,"ProcedureId":5,"MessageId":"m-1"}`, "m-1", true},
		{`{"WorkOrderId":9,"ProcedureId":5,"MarkAsNa":false}`, "", false},
		{`{"WorkOrderId":9,"ProcedureId":5,"MarkAsNa":true}`, "", true},
	}
	for _, c := range cases {
		var r MarkNARequest
		if err := json.Unmarshal([]byte(c.queued), &r); err != nil {
			t.Fatal(err)
		}
		if r.MarkAsNa() != c.want || r.WorkOrderId != 9 || r.ProcedureId != 5 || r.MessageId != c.id {
			t.Errorf("%s reads as %+v; want MarkAsNa %v", c.queued, r, c.want)
		}
	}
	if r := (MarkNARequest{}); json.Unmarshal([]byte(`{"MarkAsNa":"yes"}`), &r) == nil {
		t.Errorf("a MarkAsNa that is not true or false was read")
	}
	// Read strictly: a field the request does not have is refused, never
	// dropped (the hub forwards what it decoded).
	if r := (MarkNARequest{}); json.Unmarshal([]byte(`{"WorkOrderId":9,"ProcedureId":5,"MarkAsNA":true,"Clear":true}`), &r) == nil {
		t.Errorf("a body with a field the request does not have was read: %+v", r)
	}
}

// What a check-out leaves undone: required steps neither done nor N/A,
// named by procedure and place, none of a procedure marked N/A.
func TestRequiredStepsOpenListsWhatACheckOutLeaves(t *testing.T) {
	w := &WorkOrder{WorkDetails: &WorkDetails{Procedures: []Procedure{
		{Id: 1, Order: 1, Name: "Roof inspection", Steps: []Step{
			{Id: 12, Order: 2, Status: "Open", IsRequired: true},
			{Id: 11, Order: 1, Status: "Done", IsRequired: true},
			{Id: 13, Order: 3, Status: "Open"},
			{Id: 14, Order: 4, Status: "NA", IsRequired: true},
		}},
		{Id: 2, Order: 2, Name: "Filter change", IsMarkedNa: true, Steps: []Step{{Id: 21, Order: 1, Status: "Open", IsRequired: true}}},
	}}}
	if got := w.RequiredStepsOpen(); len(got) != 1 || got[0] != "Roof inspection step 2" {
		t.Errorf("RequiredStepsOpen = %q, want [Roof inspection step 2]", got)
	}
	w.WorkDetails.Procedures[0].Steps[0].Status = "Done"
	if got := w.RequiredStepsOpen(); len(got) != 0 {
		t.Errorf("with every required step dealt with: %q", got)
	}
}
