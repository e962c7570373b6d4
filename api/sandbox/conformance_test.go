package sandbox

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// conformCase is one work order set up in the sandbox for one action.
type conformCase struct {
	name   string
	status api.WorkOrderStatus
	action api.Action
	adjust func(o *order) // after the common fixture; nil = none
}

// conformOrder takes an unused modern work order of a customer that takes
// quotes and free lines, so that only the status and the case decide.
func (e *env) conformOrder(c conformCase) (int64, api.StepRef) {
	e.t.Helper()
	e.sb.mu.Lock()
	defer e.sb.mu.Unlock()
	ids := make([]int64, 0, len(e.sb.st.orders))
	for id := range e.sb.st.orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		o := e.sb.st.orders[id]
		if e.used[id] || !o.cust.AllowQuotes || !o.cust.PriceList.AllowProviderItems.True() || o.wo.Created.Before(api.Version41Date) {
			continue
		}
		e.used[id] = true
		o.wo.Status = c.status
		o.wo.IsPreBilled = false
		o.wo.Nte.Quote = nil
		o.wo.Nte.Amount = api.Money{Amount: decimal.NewFromInt(5000), Currency: o.wo.Currency}
		// A complete invoice, so that only the status decides a submission.
		d := fixedNow.Add(-time.Hour)
		o.invoice = &api.Invoice{WorkOrderId: id, Status: api.InvoiceDraft, Currency: o.wo.Currency, InvoiceNumber: "INV-1", InvoiceDate: &d,
			LineItems: []api.LineItem{{Id: 1, Description: "Labour", Type: api.LineLabor, Quantity: decimal.NewFromInt(2),
				Rate: api.Money{Amount: decimal.NewFromInt(50), Currency: o.wo.Currency}}}}
		o.invoice.TotalAmount = api.Money{Amount: decimal.NewFromInt(100), Currency: o.wo.Currency}
		// An editable procedure whose first step has one attachment to remove.
		e.sb.st.gen.addProcedures(o, 0, fixedNow)
		p := &o.wo.WorkDetails.Procedures[0]
		p.IsReadOnly, p.IsMarkedNa, p.AllowMarkNotApplicable = false, false, new(true)
		ref := api.StepRef{WorkOrderId: id, ProcedureId: p.Id, StepId: p.Steps[0].Id}
		f := &file{meta: api.Attachment{AttachmentId: fmt.Sprintf("conform-%d", id), Name: "before.txt", MimeType: "text/plain", Size: 2},
			data: []byte("hi"), woID: id, procID: ref.ProcedureId, stepID: ref.StepId}
		e.sb.st.steps[ref.StepId] = []*file{f}
		e.sb.st.files[f.meta.AttachmentId] = f
		if c.adjust != nil {
			c.adjust(o)
		}
		return id, ref
	}
	e.t.Fatalf("no work order left for %s", c.name)
	return 0, api.StepRef{}
}

// perform asks the sandbox, through api.Client, to do the case's action.
func (e *env) perform(a api.Action, id int64, ref api.StepRef, wo *api.WorkOrder) error {
	ctx, c := e.ctx, e.client
	up := func() api.Upload {
		return api.Upload{Name: "note.txt", MimeType: "text/plain", Size: 5, Content: bytes.NewReader([]byte("hello"))}
	}
	switch a {
	case api.Accept:
		return c.Accept(ctx, &api.AcceptRequest{WorkOrderId: id})
	case api.Reject:
		return c.Reject(ctx, &api.RejectRequest{WorkOrderId: id, Comment: "no capacity this week"})
	case api.SetAppointment:
		return c.UpdateAppointment(ctx, &api.AppointmentRequest{WorkOrderId: id, ScheduledStart: fixedNow.Add(24 * time.Hour)})
	case api.CheckIn:
		return c.CheckIn(ctx, &api.VisitRequest{WorkOrderId: id})
	case api.Pause:
		return c.Pause(ctx, &api.VisitRequest{WorkOrderId: id})
	case api.CheckOut:
		done := e.completion(wo)
		return c.CheckOut(ctx, &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: id},
			RepairInfo: done.RepairInfo, CustomFields: done.CustomFields})
	case api.CompleteDetails:
		done := e.completion(wo)
		return c.WorkDoneDetails(ctx, &api.WorkDoneDetailsRequest{WorkOrderId: id, RepairInfo: done.RepairInfo, CustomFields: done.CustomFields})
	case api.SubmitQuote:
		return c.SubmitQuote(ctx, &api.QuoteRequest{WorkOrderId: id, Comment: "the compressor needs replacing",
			Amount: api.Money{Amount: decimal.NewFromInt(9000), Currency: wo.Currency}})
	case api.SaveInvoice:
		_, err := c.SaveInvoice(ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: api.Invoice{WorkOrderId: id, InvoiceNumber: "INV-2",
			LineItems: []api.LineItem{{Description: "Travel", Type: api.LineTravel, Quantity: decimal.NewFromInt(1),
				Rate: api.Money{Amount: decimal.NewFromInt(30), Currency: wo.Currency}}}}})
		return err
	case api.SubmitInvoice:
		_, err := c.SubmitInvoice(ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
		return err
	case api.SendMessage:
		return c.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "on our way"})
	case api.AttachFile:
		_, err := c.UploadAttachment(ctx, id, up())
		return err
	case api.AddStepAttachment:
		_, err := c.UploadStepAttachment(ctx, ref, up())
		return err
	case api.RemoveStepAttachment:
		return c.DeleteStepAttachment(ctx, ref, fmt.Sprintf("conform-%d", id))
	case api.Assign, api.Unassign:
		call := c.BulkAssign
		if a == api.Unassign {
			call = c.BulkUnassign
		}
		rs, err := call(ctx, &api.AssignRequest{WorkOrderIds: []int64{id}, AssociateIds: []int64{e.technician(wo).Id}})
		return bulkError(rs, err)
	case api.UpdateStep:
		r, err := wo.CheckStepUpdate(ref, conformStep)
		if err != nil {
			// The rules refuse it; the sandbox is asked what the person
			// typed all the same.
			r = &api.StepRequest{WorkOrderId: id, ProcedureId: ref.ProcedureId, StepId: ref.StepId,
				Status: conformStep.Status, Value: conformStep.Value, Comment: conformStep.Comment}
		}
		return c.UpdateStep(ctx, r)
	case api.MarkProcedureNA, api.ClearProcedureNA:
		// Sent as the person asked, whatever the rules say: MarkAsNa true
		// marks, false clears.
		return c.MarkProcedureNotApplicable(ctx, &api.MarkNARequest{WorkOrderId: id, ProcedureId: ref.ProcedureId,
			Clear: a == api.ClearProcedureNA})
	case api.EditNote:
		return c.SetInternalNote(ctx, &api.NoteRequest{WorkOrderId: id, InternalNote: conformNote})
	}
	e.t.Fatalf("no way to perform %q", a)
	return nil
}

// conformStep completes the fixture's first step (Temperature before
// (°F), a Float); conformNote is the internal note written.
var (
	conformStep = api.StepUpdate{Status: api.StepDone, Value: "38.5", Comment: "before defrost"}
	conformNote = "Gate code 4471; park behind the loading dock."
)

// completion is every detail wo's customer asks for at check-out, so that
// the status alone decides whether a check-out is allowed.
func (e *env) completion(wo *api.WorkOrder) api.Completion {
	cs, err := e.client.GetCustomerSettings(e.ctx, wo.Customer.Id)
	if err != nil {
		e.t.Fatalf("customer settings of %d: %v", wo.Customer.Id, err)
	}
	var done api.Completion
	if len(cs.RepairCodes) > 0 {
		done.RepairInfo = &cs.RepairCodes[0]
	}
	for _, f := range cs.CustomFields {
		v := "yes"
		if len(f.Values) > 0 {
			v = f.Values[0]
		}
		done.CustomFields = append(done.CustomFields, api.CustomField{Id: f.Id, Value: v})
	}
	return done
}

// judge is what the client's rules say of the case, asked the way storage
// asks before it queues (inv is the invoice as the client last read it).
func judge(wo *api.WorkOrder, a api.Action, ref api.StepRef, inv *api.Invoice) error {
	switch a {
	case api.AddStepAttachment, api.RemoveStepAttachment:
		return wo.CanChangeStep(a, ref)
	case api.SaveInvoice:
		return wo.CanEditInvoice(inv)
	case api.SubmitInvoice:
		return wo.CheckSubmit(inv, nil)
	case api.UpdateStep:
		_, err := wo.CheckStepUpdate(ref, conformStep)
		return err
	case api.MarkProcedureNA, api.ClearProcedureNA:
		_, err := wo.CheckMarkNA(ref.ProcedureId, a == api.MarkProcedureNA)
		return err
	case api.EditNote:
		return wo.CheckNote(conformNote)
	}
	return wo.Can(a)
}

// technician is the first technician of wo's branch, as the client lists them.
func (e *env) technician(wo *api.WorkOrder) api.Associate {
	e.t.Helper()
	list, err := e.client.GetAssociates(e.ctx, wo.BranchId)
	if err != nil || len(list) == 0 {
		e.t.Fatalf("associates of branch %d: %v (%d)", wo.BranchId, err, len(list))
	}
	return list[0]
}

// bulkError is a bulk call's one work order's refusal as the error the
// single calls give: a business error with the service's code and words.
func bulkError(rs []api.BulkResult, err error) error {
	if err != nil {
		return err
	}
	if len(rs) != 1 {
		return fmt.Errorf("%d results for one work order", len(rs))
	}
	if !rs[0].Succeeded() {
		return &api.Error{StatusCode: 400, Code: rs[0].Code, Message: rs[0].Message}
	}
	return nil
}

// TestWorkflowConformance walks every status × action: the client's rules
// (api.WorkOrder.Can) and the sandbox, which keeps its own implementation
// of the service's rules, must agree on whether the action is allowed. A
// disagreement means the window offers what the service refuses, or hides
// what it allows.
func TestWorkflowConformance(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.WorkOrders = 600 })
	var cases []conformCase
	for _, st := range api.AllStatuses {
		for _, a := range api.Actions {
			cases = append(cases, conformCase{name: fmt.Sprintf("%s/%s", st, a), status: st, action: a})
		}
	}
	// What decides besides the status.
	for _, qs := range api.AllQuoteStatuses {
		for _, st := range []api.WorkOrderStatus{api.StatusAccepted, api.StatusCheckedOut} {
			cases = append(cases, conformCase{name: fmt.Sprintf("%s/quote %s", st, qs), status: st, action: api.SubmitQuote,
				adjust: func(o *order) {
					o.wo.Nte.Quote = &api.Quote{QuoteStatus: qs, Amount: api.Money{Amount: decimal.NewFromInt(6000), Currency: o.wo.Currency}}
				}})
		}
	}
	cases = append(cases,
		conformCase{name: "New/prebilled accept", status: api.StatusNew, action: api.Accept,
			adjust: func(o *order) { o.wo.IsPreBilled = true }},
		conformCase{name: "New/prebilled submit invoice", status: api.StatusNew, action: api.SubmitInvoice,
			adjust: func(o *order) { o.wo.IsPreBilled = true }},
		conformCase{name: "Accepted/prebilled submit invoice", status: api.StatusAccepted, action: api.SubmitInvoice,
			adjust: func(o *order) { o.wo.IsPreBilled = true }},
		conformCase{name: "CheckedIn/procedure marked N/A", status: api.StatusCheckedIn, action: api.AddStepAttachment,
			adjust: func(o *order) { o.wo.WorkDetails.Procedures[0].IsMarkedNa = true }},
		conformCase{name: "CheckedIn/procedure read-only", status: api.StatusCheckedIn, action: api.RemoveStepAttachment,
			adjust: func(o *order) { o.wo.WorkDetails.Procedures[0].IsReadOnly = true }},
	)
	// A step and a whole procedure: what the procedure's own state decides.
	procedureStates := map[string]func(p *api.Procedure){
		"marked N/A":        func(p *api.Procedure) { p.IsMarkedNa = true },
		"read-only":         func(p *api.Procedure) { p.IsReadOnly = true },
		"N/A not allowed":   func(p *api.Procedure) { p.AllowMarkNotApplicable = new(false) },
		"N/A, not allowed":  func(p *api.Procedure) { p.IsMarkedNa, p.AllowMarkNotApplicable = true, new(false) },
		"read-only allowed": func(p *api.Procedure) { p.IsReadOnly, p.AllowMarkNotApplicable = true, new(true) },
		"N/A, read-only":    func(p *api.Procedure) { p.IsMarkedNa, p.IsReadOnly = true, true },
	}
	for what, set := range procedureStates {
		for _, st := range []api.WorkOrderStatus{api.StatusCheckedIn, api.StatusOnHold, api.StatusCheckedOut} {
			for _, a := range []api.Action{api.UpdateStep, api.MarkProcedureNA, api.ClearProcedureNA} {
				cases = append(cases, conformCase{name: fmt.Sprintf("%s/procedure %s/%s", st, what, a), status: st, action: a,
					adjust: func(o *order) { set(&o.wo.WorkDetails.Procedures[0]) }})
			}
		}
	}
	for _, st := range []api.WorkOrderStatus{api.StatusAccepted, api.StatusCheckedOut} {
		for _, a := range []api.Action{api.SaveInvoice, api.SubmitInvoice} {
			cases = append(cases, conformCase{name: fmt.Sprintf("%s/before 4.1/%s", st, a), status: st, action: a,
				adjust: func(o *order) { o.wo.Created = api.Version41Date.AddDate(0, -1, 0) }})
		}
	}
	for _, st := range []api.InvoiceStatus{api.InvoiceDraft, api.InvoicePendingVerification, api.InvoiceSubmitted,
		api.InvoiceDisputed, api.InvoiceAuthorized, api.InvoicePaid} {
		for _, a := range []api.Action{api.SaveInvoice, api.SubmitInvoice} {
			cases = append(cases, conformCase{name: fmt.Sprintf("CheckedOut/invoice %s/%s", st, a), status: api.StatusCheckedOut, action: a,
				adjust: func(o *order) { o.invoice.Status = st }})
		}
	}
	for _, c := range cases {
		id, ref := e.conformOrder(c)
		wo := e.read(id)
		e.sb.mu.RLock()
		inv := *e.sb.st.orders[id].invoice
		e.sb.mu.RUnlock()
		rule := judge(&wo, c.action, ref, &inv)
		if rule == nil && (c.action == api.Assign || c.action == api.Unassign) {
			// Asked as storage asks: the status, then the branch's list.
			list, err := e.client.GetAssociates(e.ctx, wo.BranchId)
			if err != nil {
				t.Fatal(err)
			}
			rule = wo.CheckAssociates([]int64{e.technician(&wo).Id}, list, nil)
		}
		got := e.perform(c.action, id, ref, &wo)
		if got != nil && !api.IsBusiness(got) {
			t.Fatalf("%s: the sandbox failed rather than judged: %v", c.name, got)
		}
		switch {
		case rule == nil && got != nil:
			t.Errorf("%s: the rules allow it, the sandbox refuses: %v", c.name, got)
		case rule != nil && got == nil:
			t.Errorf("%s: the rules refuse it (%v), the sandbox allows it", c.name, rule)
		}
	}
}
