package sandbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// typedSteps gives a checked-in work order of customer one procedure with
// a step of each data type, and returns its id and the steps by type.
func (e *env) typedSteps(customer string) (int64, map[string]api.StepRef) {
	e.t.Helper()
	types := []string{"Bool", "Integer", "Float", "Money", "String", "Date", "SomethingNew"}
	refs := map[string]api.StepRef{}
	id := e.setup(customer, api.StatusCheckedIn, func(o *order) {
		e.sb.st.nextProcID++
		p := api.Procedure{Id: e.sb.st.nextProcID, Order: 1, Name: "Typed steps", Status: "Open", AllowMarkNotApplicable: new(true)}
		for i, ty := range types {
			e.sb.st.nextStepID++
			p.Steps = append(p.Steps, api.Step{Id: e.sb.st.nextStepID, Order: i + 1, Status: "Open", StepType: "Field",
				Label: ty + " step (unit)", DataType: ty})
			refs[ty] = api.StepRef{WorkOrderId: o.wo.WorkOrderId, ProcedureId: p.Id, StepId: e.sb.st.nextStepID}
		}
		o.wo.WorkDetails = &api.WorkDetails{Procedures: []api.Procedure{p}}
	})
	return id, refs
}

// What a person may type as a step's value, per data type: the client's
// rule (CheckStepUpdate) and the sandbox must agree. What the rule takes
// is sent as the rule writes it and the sandbox takes it; what the rule
// refuses the sandbox refuses too (2100), sent as typed.
func TestStepValueConformance(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		customer, dataType, typed string
		ok                        bool
	}{
		{"Northwind Retail", "Bool", "yes", true},
		{"Northwind Retail", "Bool", "No", true},
		{"Northwind Retail", "Bool", "true", true},
		{"Northwind Retail", "Bool", "maybe", false},
		{"Northwind Retail", "Bool", "", true},
		{"Northwind Retail", "Integer", "12", true},
		{"Northwind Retail", "Integer", "-3", true},
		{"Northwind Retail", "Integer", "12.5", false},
		{"Northwind Retail", "Integer", "twelve", false},
		{"Northwind Retail", "Float", "38.5", true},
		{"Northwind Retail", "Float", "-0.25", true},
		{"Northwind Retail", "Float", "1e3", false},
		{"Northwind Retail", "Float", "38,5", false},
		{"Northwind Retail", "Money", "125.50", true},
		{"Northwind Retail", "Money", "125.5", true},
		{"Northwind Retail", "Money", "125.505", false},
		{"Northwind Retail", "Money", "", true},
		{"Northwind Retail", "Money", "lots", false},
		{"Sakura Mart Japan", "Money", "1200", true},
		{"Sakura Mart Japan", "Money", "1200.5", false},
		{"Northwind Retail", "String", "R-404A, 2 lb", true},
		{"Northwind Retail", "String", strings.Repeat("x", api.MaxCommentLength+1), false},
		// A type we do not know takes text: the service judges it.
		{"Northwind Retail", "Date", "2025-03-14", true},
		{"Northwind Retail", "SomethingNew", "anything at all", true},
	}
	orders := map[string]int64{}
	steps := map[string]map[string]api.StepRef{}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%q", c.customer, c.dataType, c.typed), func(t *testing.T) {
			if _, ok := orders[c.customer]; !ok {
				orders[c.customer], steps[c.customer] = e.typedSteps(c.customer)
			}
			ref := steps[c.customer][c.dataType]
			wo := e.read(orders[c.customer])
			r, rule := wo.CheckStepUpdate(ref, api.StepUpdate{Status: api.StepDone, Value: c.typed})
			if (rule == nil) != c.ok {
				t.Fatalf("the rule says %v; want ok=%v", rule, c.ok)
			}
			if rule != nil {
				r = &api.StepRequest{WorkOrderId: ref.WorkOrderId, ProcedureId: ref.ProcedureId, StepId: ref.StepId,
					Status: api.StepDone, Value: c.typed, Currency: wo.Currency}
			}
			got := e.client.UpdateStep(e.ctx, r)
			switch {
			case rule == nil && got != nil:
				t.Errorf("the rule sends %q, the sandbox refuses it: %v", r.Value, got)
			case rule != nil && !api.HasCode(got, api.CodeInvalidModel):
				t.Errorf("the rule refuses it (%v); the sandbox answers %v, want 2100", rule, got)
			}
			if rule == nil {
				st, err := e.client.GetStep(e.ctx, ref)
				if err != nil || st.Value != r.Value || st.Status != api.StepDone {
					t.Errorf("the step reads back as %+v, %v; want Done with %q", st, err, r.Value)
				}
			}
		})
	}
}

// A Money step's currency is required (service-facts §4.5); the client
// sends the work order's.
func TestMoneyStepNeedsItsCurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, refs := e.typedSteps("Northwind Retail")
	ref := refs["Money"]
	err := e.client.UpdateStep(e.ctx, &api.StepRequest{WorkOrderId: id, ProcedureId: ref.ProcedureId, StepId: ref.StepId,
		Status: api.StepDone, Value: "10.00"})
	if !api.HasCode(err, api.CodeInvalidModel) {
		t.Fatalf("a Money step without a currency: %v; want 2100", err)
	}
	wo := e.read(id)
	r, err := wo.CheckStepUpdate(ref, api.StepUpdate{Status: api.StepDone, Value: "10"})
	if err != nil || r.Currency != wo.Currency || r.Value != "10.00" {
		t.Fatalf("the rule makes %+v, %v; want 10.00 in %s", r, err, wo.Currency)
	}
	if err := e.client.UpdateStep(e.ctx, r); err != nil {
		t.Fatal(err)
	}
	procs, err := e.client.GetProcedures(e.ctx, id)
	if err != nil || len(procs) != 1 {
		t.Fatalf("procedures: %+v, %v", procs, err)
	}
	for _, st := range procs[0].Steps {
		if st.Id == ref.StepId && (st.Currency != wo.Currency || st.Value != "10.00") {
			t.Errorf("the money step reads %q %q; want 10.00 %s", st.Value, st.Currency, wo.Currency)
		}
	}
}

// Marking a procedure N/A and clearing the mark (MarkAsNa true, then
// false): refused with 3030 where the customer does not allow it, when
// marking one marked already and clearing one not marked; once cleared,
// its steps can be completed again. A body without MarkAsNa is refused
// (2100), never read as either.
func TestMarkNotApplicable3030(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	allowed, refs := e.typedSteps("Northwind Retail")
	proc := refs["Bool"].ProcedureId
	mark := func(id int64, on bool) error {
		return e.client.MarkProcedureNotApplicable(e.ctx, &api.MarkNARequest{WorkOrderId: id, ProcedureId: proc, Clear: !on})
	}
	complete := func(id int64, ref api.StepRef) error {
		return e.client.UpdateStep(e.ctx, &api.StepRequest{WorkOrderId: id, ProcedureId: ref.ProcedureId, StepId: ref.StepId, Status: api.StepDone})
	}
	if err := mark(allowed, false); !api.HasCode(err, api.CodeCannotMarkNA) {
		t.Errorf("clearing a mark that is not there: %v; want 3030", err)
	}
	if err := mark(allowed, true); err != nil {
		t.Fatal(err)
	}
	if wo := e.read(allowed); !wo.WorkDetails.Procedures[0].IsMarkedNa {
		t.Errorf("the procedure is not marked N/A after the call")
	}
	if again := mark(allowed, true); !api.HasCode(again, api.CodeCannotMarkNA) {
		t.Errorf("marking it again: %v; want 3030", again)
	}
	// Its steps can no longer be completed.
	if err := complete(allowed, refs["Bool"]); !api.IsBusiness(err) {
		t.Errorf("completing a step of a procedure marked N/A: %v; want a refusal", err)
	}
	// The documented undo: false clears it, and its steps are editable again.
	if err := mark(allowed, false); err != nil {
		t.Fatalf("clearing the mark: %v", err)
	}
	if wo := e.read(allowed); wo.WorkDetails.Procedures[0].IsMarkedNa {
		t.Errorf("the procedure is still marked N/A after MarkAsNa false")
	}
	if err := complete(allowed, refs["Bool"]); err != nil {
		t.Errorf("completing a step once the mark is cleared: %v", err)
	}
	// No MarkAsNa at all: neither marked nor cleared.
	status, b := e.raw("PUT", "/api/procedure/markAsNA", strings.NewReader(fmt.Sprintf(`{"WorkOrderId":%d,"ProcedureId":%d}`, allowed, proc)))
	if eb := errBody(t, b); status != 400 || eb.Code != api.CodeInvalidModel || !strings.Contains(string(b), "MarkAsNa") {
		t.Errorf("a body without MarkAsNa: %d %s; want 2100 naming it", status, b)
	}
	if wo := e.read(allowed); wo.WorkDetails.Procedures[0].IsMarkedNa {
		t.Errorf("a body without MarkAsNa marked the procedure")
	}

	forbidden, refs := e.typedSteps("Harbor Point Hotels")
	proc = refs["Bool"].ProcedureId
	e.sb.mu.Lock()
	e.sb.st.orders[forbidden].wo.WorkDetails.Procedures[0].AllowMarkNotApplicable = new(false)
	e.sb.mu.Unlock()
	if err := mark(forbidden, true); !api.HasCode(err, api.CodeCannotMarkNA) {
		t.Errorf("a procedure that does not allow it: %v; want 3030", err)
	}
	wo := e.read(forbidden)
	if rule := wo.CanMarkNotApplicable(proc); rule == nil {
		t.Errorf("the rules allow what the service refuses with 3030")
	}
	e.sb.mu.Lock()
	e.sb.st.orders[forbidden].wo.WorkDetails.Procedures[0].IsMarkedNa = true
	e.sb.mu.Unlock()
	if err := mark(forbidden, false); !api.HasCode(err, api.CodeCannotMarkNA) {
		t.Errorf("clearing where the customer does not allow it: %v; want 3030", err)
	}
	wo = e.read(forbidden)
	if rule := wo.CanClearNotApplicable(proc); rule == nil {
		t.Errorf("the rules allow clearing what the service refuses with 3030")
	}
}

// The internal note is replaced whole and its history says who wrote each
// version and when, oldest first; a colleague's edit in Desktop is in it.
func TestInternalNoteHistory(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusAccepted, nil)
	if h, err := e.client.NoteHistory(e.ctx, id); err != nil || len(h) != 0 {
		t.Fatalf("a work order without a note has the history %+v, %v", h, err)
	}
	// The work order carries the note as it stands (GET /api/workOrder
	// and search results): "" when it has none.
	noteOn := func(want string) {
		t.Helper()
		wo := e.read(id)
		if wo.InternalNote == nil || *wo.InternalNote != want {
			t.Errorf("GET /api/workOrder: InternalNote %v; want %q", wo.InternalNote, want)
		}
		found, err := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{WorkOrderNumber: wo.WorkOrderNumber})
		if err != nil || len(found) != 1 || found[0].InternalNote == nil || *found[0].InternalNote != want {
			t.Errorf("search: %+v, %v; want InternalNote %q", found, err, want)
		}
		if now, err := e.client.NoteNow(e.ctx, id); err != nil || now.InternalNote != want {
			t.Errorf("the note as it stands: %+v, %v; want %q", now, err, want)
		}
	}
	noteOn("")
	if err := e.client.SetInternalNote(e.ctx, &api.NoteRequest{WorkOrderId: id, InternalNote: "first"}); err != nil {
		t.Fatal(err)
	}
	e.sb.AdvanceClock(60e9)
	if err := e.sb.EditNoteInDesktop(id, "second", "Ana Ruiz"); err != nil {
		t.Fatal(err)
	}
	e.sb.AdvanceClock(60e9)
	if err := e.client.SetInternalNote(e.ctx, &api.NoteRequest{WorkOrderId: id, InternalNote: "third",
		Performer: api.Performer{PerformedBy: &api.Sender{Name: "Bo Chen"}}}); err != nil {
		t.Fatal(err)
	}
	h, err := e.client.NoteHistory(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range h {
		got = append(got, v.InternalNote+" by "+v.UpdatedBy+" at "+v.ActionDate.Format("15:04"))
	}
	want := []string{"first by CorrigoPro Direct API at 09:30", "second by Ana Ruiz at 09:31", "third by Bo Chen at 09:32"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("the history is %q; want %q", got, want)
	}
	if cur := api.CurrentNote(h); cur.InternalNote != "third" {
		t.Errorf("the current note is %q", cur.InternalNote)
	}
	noteOn("third")
	if err := e.sb.EditNoteInDesktop(id, "", "Ana Ruiz"); err != nil {
		t.Fatal(err)
	}
	noteOn("")

	long := strings.Repeat("n", api.MaxNoteLength+1)
	if err := e.client.SetInternalNote(e.ctx, &api.NoteRequest{WorkOrderId: id, InternalNote: long}); !api.HasCode(err, api.CodeInvalidModel) {
		t.Errorf("a note of %d characters: %v; want 2100", api.MaxNoteLength+1, err)
	}
	rejected := e.setup("Northwind Retail", api.StatusRejected, nil)
	if err := e.client.SetInternalNote(e.ctx, &api.NoteRequest{WorkOrderId: rejected, InternalNote: "x"}); !api.HasCode(err, api.CodeWrongStatus) {
		t.Errorf("a note on a rejected work order: %v; want 3001", err)
	}
}
