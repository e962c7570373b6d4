package sandbox

import (
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// Everything that happens to a work order outside the contractor's API
// calls reaches the contractor as one of the documented notifications
// (service-facts §9.3): the customer recalls it, puts it on hold, moves its
// deadlines, writes, attaches a file; a colleague checks in from the mobile
// app or rejects it in CorrigoPro Desktop. Act does each of them the way it
// would happen, changes the world accordingly and sends its notification,
// with its documented body. The control API exposes it as
// POST /_sandbox/act {"WorkOrderId": N, "Action": "PutOnHold", "Comment": "..."}.

// ActOptions are the details a person may give an action; the zero value
// picks plausible ones.
type ActOptions struct {
	Comment string            // a reason, a message's text, a note
	Status  api.InvoiceStatus // InvoiceStatusChanged: the status to move to
	Amount  decimal.Decimal   // NteChanged: the new NTE
}

// deskSender is how a colleague working in CorrigoPro Desktop or Mobile,
// not through the API, appears in notifications.
var deskSender = &api.Sender{Name: "Dana Whitfield", Phone: "+1 555 0100", Type: "CorrigoPro"}

// actor performs one action on o and returns the notification's body and
// sender; a refusal leaves the world unchanged and sends nothing.
type actor func(s *Sandbox, o *order, a ActOptions, now time.Time) (body any, sender *api.Sender, err error)

// ActActions lists the actions Act performs: every documented one.
var ActActions = api.DocumentedActions

var actors = map[string]actor{
	api.ActionNewWorkOrder:           nil, // DispatchWorkOrder: it makes a work order of its own
	api.ActionAccepted:               statusMove(api.StatusAccepted, deskSender, false, api.StatusNew),
	api.ActionRejected:               actReject,
	api.ActionCheckedIn:              visitMove(api.StatusCheckedIn, api.StatusAccepted, api.StatusPaused),
	api.ActionPaused:                 visitMove(api.StatusPaused, api.StatusCheckedIn),
	api.ActionCheckedOut:             actCheckOut,
	api.ActionNeedsCompletionDetails: statusMove(api.StatusNeedsCompletionDetails, &api.Sender{Name: "IVR", Type: "CorrigoPro"}, false, api.StatusCheckedIn),
	api.ActionPutOnHold:              statusMove(api.StatusOnHold, nil, true, api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused),
	api.ActionReopened:               statusMove(api.StatusNew, nil, false, api.StatusOnHold, api.StatusCheckedOut, api.StatusNeedsCompletionDetails),
	api.ActionRecalled: statusMove(api.StatusRecalled, nil, false, api.StatusNew, api.StatusAccepted, api.StatusCheckedIn,
		api.StatusPaused, api.StatusOnHold, api.StatusNeedsCompletionDetails, api.StatusCheckedOut),
	api.ActionWorkVerified:           actVerify,
	api.ActionNteChanged:             actNte,
	api.ActionQuoteChanged:           actQuote,
	api.ActionSlaChanged:             actSla,
	api.ActionAppointmentInfoChanged: actAppointment,
	api.ActionMessageSent:            actMessage,
	api.ActionAttachmentAdded:        actAttach,
	api.ActionAttachmentRemoved:      actDetach,
	api.ActionCheckListUpdated:       actCheckList,
	api.ActionCheckListMigrated:      actMigrate,
	api.ActionProcedureMarked:        actMark,
	api.ActionProcedureUpdated:       actAddProcedure,
	api.ActionCompletionInfoChanged:  actCompletionInfo,
	api.ActionInvoiceStatusChanged:   actInvoiceStatus,
	api.ActionInternalNoteChanged:    actNote,
	api.ActionFieldDescriptorUpdated: nil, // company-level: ChangeQuestions
	api.ActionIsmStatusChanged:       actIsm,
}

// Act makes action happen to work order id as the customer (or a colleague
// outside the API) would, and sends its notification. NewWorkOrder
// dispatches a new work order (id is ignored); AdditionalFieldDescriptorUpdated
// changes the questions of id's customer.
func (s *Sandbox) Act(id int64, action string, a ActOptions) error {
	switch action {
	case api.ActionNewWorkOrder:
		_, err := s.DispatchWorkOrder()
		return err
	case api.ActionFieldDescriptorUpdated:
		return s.changeQuestions(id)
	}
	f, ok := actors[action]
	if !ok || f == nil {
		return fmt.Errorf("the sandbox does not act %q; it knows %v", action, ActActions)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orders[id]
	if !ok {
		return business(api.CodeNotFoundOrRecalled, "Work order %d was not found.", id)
	}
	return s.actOn(o, action, a, s.clock.Now())
}

// Do is Act with a comment only (the demo's Customer menu).
func (s *Sandbox) Do(id int64, action, comment string) error {
	return s.Act(id, action, ActOptions{Comment: comment})
}

// actOn is Act for a work order in hand, under the world lock.
func (s *Sandbox) actOn(o *order, action string, a ActOptions, now time.Time) error {
	f := actors[action]
	if f == nil {
		return fmt.Errorf("the sandbox does not act %q on one work order", action)
	}
	body, sender, err := f(s, o, a, now)
	if err != nil {
		return err
	}
	if sender == nil {
		sender = customerSender(o)
	}
	s.notify.send(o, action, sender, now, body)
	return nil
}

// statusMove is an action that moves the status (from one of from) and
// says so with {Status, Comment}; needComment where the body's comment is
// required (PutOnHold: why).
func statusMove(to api.WorkOrderStatus, sender *api.Sender, needComment bool, from ...api.WorkOrderStatus) actor {
	return func(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
		if !statusIn(o.wo.Status, from...) {
			return nil, nil, wrongStatus(o, "moving it to "+string(to), from...)
		}
		if needComment && a.Comment == "" {
			a.Comment = "Waiting for the landlord's approval before work goes on."
		}
		o.wo.Status = to
		s.st.touch(o, now)
		return &api.StatusChangedEvent{Status: to, Comment: a.Comment}, sender, nil
	}
}

func actReject(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if o.wo.Status != api.StatusNew {
		return nil, nil, wrongStatus(o, "rejecting", api.StatusNew)
	}
	if a.Comment == "" {
		a.Comment = "No technician free this week."
	}
	o.wo.Status = api.StatusRejected
	s.st.touch(o, now)
	return &api.RejectedEvent{Status: api.StatusRejected, Comment: a.Comment}, deskSender, nil
}

// siteLocation is where a technician checked in from the mobile app.
var siteLocation = &api.GeoLocation{Latitude: 41.8781, Longitude: -87.6298}

func visitMove(to api.WorkOrderStatus, from ...api.WorkOrderStatus) actor {
	return func(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
		if !statusIn(o.wo.Status, from...) {
			return nil, nil, wrongStatus(o, "moving it to "+string(to), from...)
		}
		o.wo.Status = to
		s.st.touch(o, now)
		return &api.VisitEvent{Status: to, Location: siteLocation, Comment: a.Comment}, deskSender, nil
	}
}

// actCheckOut: a technician checks out from the mobile app, giving what
// the customer requires (its first code, the first allowed answers).
func actCheckOut(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if o.wo.Status != api.StatusCheckedIn {
		return nil, nil, wrongStatus(o, "checking out", api.StatusCheckedIn)
	}
	if a.Comment == "" {
		a.Comment = "Replaced the faulty part and tested the unit."
	}
	done := &completion{comment: a.Comment}
	if len(o.cust.RepairCodes) > 0 {
		code := o.cust.RepairCodes[0]
		done.repair = &code
	}
	for _, d := range o.cust.CustomFields {
		if d.IsDeleted || d.IsReadonly {
			continue
		}
		v := "Checked"
		if len(d.Values) > 0 {
			v = d.Values[0]
		}
		done.fields = append(done.fields, api.CustomField{Id: d.Id, Value: v})
	}
	o.done = done
	s.st.checkedOut(o, now)
	return &api.CheckedOutEvent{Comment: done.comment, Location: siteLocation, Procedures: o.wo.Procedures(),
		RepairInfo: done.repair, CustomFields: done.fields}, deskSender, nil
}

func actVerify(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if o.wo.Status != api.StatusCheckedOut {
		return nil, nil, wrongStatus(o, "verifying the work", api.StatusCheckedOut)
	}
	if a.Comment == "" {
		a.Comment = "Good job, the unit runs quietly now."
	}
	o.wo.Status = api.StatusVerified
	s.st.touch(o, now)
	s.workVerified(o, now)
	at := now
	return &api.WorkVerifiedEvent{Status: api.StatusVerified,
		Feedback: &api.Feedback{TimeStamp: &at, Actor: o.cust.Desk, Comment: a.Comment, Type: "Positive"}}, nil, nil
}

func actNte(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	amount := a.Amount
	if amount.IsZero() {
		amount = api.Money{Amount: o.wo.Nte.Amount.Amount.Mul(decimal.RequireFromString("1.2")), Currency: o.wo.Currency}.Round().Amount
		if amount.IsZero() {
			amount = decimal.NewFromInt(500)
		}
	}
	m := api.Money{Amount: amount, Currency: o.wo.Currency}
	if amount.IsNegative() || !m.FitsMinorUnits() {
		return nil, nil, business(api.CodeBusinessRule, "%s is not a valid %s NTE", amount, o.wo.Currency)
	}
	if o.wo.Status == api.StatusRejected {
		return nil, nil, wrongStatus(o, "changing the NTE", api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
	}
	o.wo.Nte.Amount = m
	s.st.touch(o, now)
	return &api.NteChangedEvent{Amount: m}, nil, nil
}

// actQuote: the customer decides a submitted quote (approves it), or asks
// for one.
func actQuote(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	q := o.wo.Nte.Quote
	switch {
	case q != nil && q.QuoteStatus == api.QuoteSubmitted:
		q.QuoteStatus = api.QuoteApproved
		o.wo.Nte.Amount = q.Amount.In(o.wo.Currency)
	case !o.cust.AllowQuotes:
		return nil, nil, business(api.CodeQuotesNotAllowed, "%s does not use quotes.", o.cust.Customer.Name)
	case o.wo.Status == api.StatusRejected:
		return nil, nil, wrongStatus(o, "requesting a quote", api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
	case q != nil && q.QuoteStatus != api.QuoteRejected:
		return nil, nil, business(api.CodeBusinessRule, "Work order %s already has a %s quote.", o.wo.WorkOrderNumber, q.QuoteStatus)
	default:
		q = &api.Quote{Amount: api.Money{Currency: o.wo.Currency}, QuoteStatus: api.QuoteRequested, Comment: "Please quote the full repair."}
		o.wo.Nte.Quote = q
	}
	s.st.touch(o, now)
	return &api.QuoteChangedEvent{Quote: *q}, nil, nil
}

// actSla: the customer gives a day more for everything still ahead.
func actSla(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	sla := api.Sla{PriorityName: "NORMAL"}
	if o.wo.Sla != nil {
		sla = *o.wo.Sla
	}
	later := func(t *time.Time) *time.Time {
		base := now
		if t != nil && t.After(now) {
			base = *t
		}
		d := base.Add(24 * time.Hour).UTC().Truncate(time.Minute)
		return &d
	}
	sla.AcknowledgeBy, sla.OnSiteBy, sla.DueDate = later(sla.AcknowledgeBy), later(sla.OnSiteBy), later(sla.DueDate)
	o.wo.Sla = &sla
	s.st.touch(o, now)
	return &api.SlaChangedEvent{Sla: sla}, nil, nil
}

func actAppointment(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if !statusIn(o.wo.Status, appointmentStates...) {
		return nil, nil, wrongStatus(o, "scheduling", appointmentStates...)
	}
	start := now.Add(48 * time.Hour).UTC().Truncate(time.Hour)
	o.wo.Schedule = &api.Schedule{ScheduledStart: &start, Pte: "CallFirst"}
	s.st.touch(o, now)
	return &api.AppointmentInfoChangedEvent{Appointment: *o.wo.Schedule}, nil, nil
}

// actMessage: the customer writes on the thread (visibility All: the only
// messages that reach the contractor).
func actMessage(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if statusIn(o.wo.Status, api.StatusRejected, api.StatusRecalled) {
		return nil, nil, wrongStatus(o, "writing", api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
	}
	if a.Comment == "" {
		a.Comment = "Could the technician call the front desk on arrival?"
	}
	s.st.nextMsgID++
	sender := customerSender(o)
	o.messages = append(o.messages, api.Message{Id: s.st.nextMsgID, WorkOrderId: o.wo.WorkOrderId, Text: a.Comment,
		MessageVisibility: api.VisibilityAll, Sender: sender, Created: now})
	s.st.touch(o, now)
	return &api.MessageSentEvent{Text: a.Comment}, sender, nil
}

func actAttach(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if statusIn(o.wo.Status, api.StatusRejected, api.StatusRecalled) {
		return nil, nil, wrongStatus(o, "attaching", api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
	}
	meta := api.Attachment{AttachmentId: s.st.gen.uuid(), Name: "floor-plan.pdf", MimeType: "application/pdf", DocumentType: "Document",
		MessageVisibility: api.VisibilityAll, Created: now, Size: int64(len(demoPDF))}
	f := &file{meta: meta, data: demoPDF, woID: o.wo.WorkOrderId}
	o.files = append(o.files, f)
	s.st.files[meta.AttachmentId] = f
	s.st.touch(o, now)
	return &api.AttachmentAddedEvent{AttachmentId: meta.AttachmentId, Name: meta.Name, MimeType: meta.MimeType,
		Size: meta.Size, Subtype: meta.DocumentType}, nil, nil
}

// actDetach: the customer removes the newest file (customers may, the
// contractor may not).
func actDetach(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if len(o.files) == 0 {
		return nil, nil, business(api.CodeNoSuchEntity, "Work order %s has no attachment to remove.", o.wo.WorkOrderNumber)
	}
	f := o.files[len(o.files)-1]
	o.files = removeFile(o.files, f)
	delete(s.st.files, f.meta.AttachmentId)
	s.st.touch(o, now)
	return &api.AttachmentRemovedEvent{AttachmentId: f.meta.AttachmentId}, nil, nil
}

func (o *order) details() *api.WorkDetails {
	if o.wo.WorkDetails == nil {
		o.wo.WorkDetails = &api.WorkDetails{}
	}
	return o.wo.WorkDetails
}

// actCheckList: a colleague ticks the next item of the legacy check list
// in Desktop (a work order without one gets the customer's standard list).
func actCheckList(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	wd := o.details()
	if len(wd.CheckList) == 0 {
		for i, d := range []string{"Isolate power", "Inspect and repair", "Clean up the area"} {
			wd.CheckList = append(wd.CheckList, api.CheckListItem{Id: int64(9100 + i), SortingIndex: i + 1, Description: d})
		}
	}
	for i := range wd.CheckList {
		if !wd.CheckList[i].IsDone {
			wd.CheckList[i].IsDone = true
			wd.CheckList[i].Comment = a.Comment
			break
		}
	}
	s.st.touch(o, now)
	return &api.CheckListUpdatedEvent{CheckList: slices.Clone(wd.CheckList)}, deskSender, nil
}

// actMigrate: the service turns the legacy check list into a procedure.
func actMigrate(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	wd := o.details()
	items := wd.CheckList
	if len(items) == 0 {
		items = []api.CheckListItem{{Id: 1, Description: "Inspect and repair"}}
	}
	s.st.nextProcID++
	p := api.Procedure{Id: s.st.nextProcID, Order: len(wd.Procedures) + 1, Name: "Check list", Status: "Open"}
	for i, it := range items {
		s.st.nextStepID++
		st := api.Step{Id: s.st.nextStepID, Order: i + 1, Status: "Open", Description: it.Description, StepType: "Field", DataType: "Bool"}
		if it.IsDone {
			st.Status, st.Value = "Done", "true"
		}
		p.Steps = append(p.Steps, st)
	}
	wd.CheckList = nil
	wd.Procedures = append(wd.Procedures, p)
	s.st.touch(o, now)
	return &api.CheckListMigratedEvent{ProcedureId: p.Id, Steps: slices.Clone(p.Steps)}, &api.Sender{Name: "CorrigoPro", Type: "CorrigoPro"}, nil
}

// actMark: the customer marks the first procedure that allows it not
// applicable (or applicable again).
func actMark(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	for i := range o.details().Procedures {
		p := &o.wo.WorkDetails.Procedures[i]
		if !allowsNA(p) {
			continue
		}
		p.IsMarkedNa = !p.IsMarkedNa
		s.st.touch(o, now)
		return &api.ProcedureMarkedEvent{ProcedureId: p.Id, IsMarkedNa: p.IsMarkedNa}, nil, nil
	}
	return nil, nil, business(api.CodeNoSuchEntity, "Work order %s has no procedure that can be marked not applicable.", o.wo.WorkOrderNumber)
}

// actAddProcedure: the customer adds a procedure.
func actAddProcedure(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	wd := o.details()
	s.st.nextProcID++
	s.st.nextStepID++
	p := api.Procedure{Id: s.st.nextProcID, Order: len(wd.Procedures) + 1, Name: "Photo of the finished work", Status: "Open",
		AllowMarkNotApplicable: new(true), Steps: []api.Step{{Id: s.st.nextStepID, Order: 1, Status: "Open", IsRequired: true,
			Description: "Take a photo of the repaired area", StepType: "Field", Label: "Photo taken", DataType: "Bool"}}}
	wd.Procedures = append(wd.Procedures, p)
	s.st.touch(o, now)
	return &api.ProcedureUpdatedEvent{ProcedureUpdates: []api.ProcedureUpdate{{Procedure: p, UpdateType: "Add"}}}, nil, nil
}

// actCompletionInfo: a colleague corrects the completion details in
// Desktop (the customer hears of it when the invoice is submitted).
func actCompletionInfo(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	if !statusIn(o.wo.Status, api.StatusCheckedOut, api.StatusVerified, api.StatusNeedsCompletionDetails) {
		return nil, nil, wrongStatus(o, "changing the completion details", api.StatusCheckedOut, api.StatusVerified)
	}
	if a.Comment == "" {
		a.Comment = "Replaced the compressor relay; unit tested for 30 minutes."
	}
	done := &completion{comment: a.Comment}
	if o.done != nil {
		c := *o.done
		c.comment = a.Comment
		done = &c
	}
	o.done = done
	s.st.touch(o, now)
	return &api.CompletionInfoChangedEvent{Comment: done.comment, RepairInfo: done.repair, CustomFields: done.fields}, deskSender, nil
}

// actInvoiceStatus moves the invoice to a.Status, or to the next status the
// customer would give it.
func actInvoiceStatus(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	to := a.Status
	if to == "" {
		switch s.st.invoiceOf(o).Status {
		case api.InvoiceSubmitted:
			to = api.InvoiceAuthorized
		case api.InvoiceAuthorized:
			to = api.InvoicePaid
		default:
			to = api.InvoiceDisputed
		}
	}
	body, err := s.moveInvoice(o, to, a.Comment, now)
	return body, nil, err
}

// ismStatuses is the order Induction & Safety Management moves through.
var ismStatuses = []string{"NotRequired", "Waiting", "Started", "Passed"}

func actIsm(s *Sandbox, o *order, a ActOptions, now time.Time) (any, *api.Sender, error) {
	i := slices.Index(ismStatuses, o.ism)
	o.ism = ismStatuses[min(i+1, len(ismStatuses)-1)]
	if i < 0 {
		o.ism = "Waiting"
	}
	s.st.touch(o, now)
	return &api.IsmStatusChangedEvent{Status: o.ism}, nil, nil
}

// changeQuestions: the customer of work order id rewords its first
// optional question and sends its descriptors (a company-level
// notification: WorkOrderId 0, BranchId 0).
func (s *Sandbox) changeQuestions(id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orders[id]
	if !ok {
		return business(api.CodeNotFoundOrRecalled, "Work order %d was not found.", id)
	}
	p := o.cust
	if len(p.CustomFields) == 0 {
		return business(api.CodeNoSuchEntity, "%s asks no questions at check-out.", p.Customer.Name)
	}
	fields := slices.Clone(p.CustomFields)
	i := slices.IndexFunc(fields, func(d api.CustomFieldDescriptor) bool { return !d.IsRequired.True() })
	if i < 0 {
		i = 0
	}
	fields[i].Label += " (revised)"
	p.CustomFields = fields
	now := s.clock.Now()
	if s.st.onChange != nil {
		s.st.onChange()
	}
	s.notify.sendAbout(0, 0, api.ActionFieldDescriptorUpdated, &api.Sender{Name: p.Desk, Type: "Customer"}, now,
		&api.FieldDescriptorsUpdatedEvent{AdditionalFieldDescriptors: fields})
	return nil
}
