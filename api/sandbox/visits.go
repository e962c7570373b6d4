package sandbox

import (
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"PUT", "/api/workorder/appointmentinfo", kindMutate, (*call).appointment},
	endpoint{"PUT", "/api/workorder/checkin", kindMutate, (*call).checkIn},
	endpoint{"PUT", "/api/workorder/pause", kindMutate, (*call).pause},
	endpoint{"PUT", "/api/workorder/checkout", kindMutate, (*call).checkOut},
)

// futureSkew is how far ahead of the sandbox's clock an ActualActionDate may
// be at a customer that allows back-dating: two clocks never agree exactly,
// and a date a person picked as "a minute ago" on a machine running a little
// fast is an honest back-date, not the future. Assumption: the service's
// tolerance is unpublished. There is deliberately no tolerance the other
// way: a date in the past is back-dating, and at a customer that forbids
// back-dating any ActualActionDate at all is refused, so a client that
// always sends one (even the moment of the tap) is caught here.
const futureSkew = time.Minute

// spec.md §2 says only that ActualActionDate "allows back-dating the
// service time"; service-facts adds that it must be omitted in real time
// and where the customer forbids back-dating. The two agree, the docs say
// more, and the sandbox enforces the docs.
//
// checkActionDate applies the ActualActionDate rules (service-facts §4.1,
// §14: "omit or null when acting in real time; if the customer does not
// allow back-dating it must be omitted or null"): refused outright where
// the customer forbids back-dating (3000); elsewhere never in the future
// (2100) nor before the work order existed (2100).
func checkActionDate(o *order, d *time.Time, now time.Time) error {
	if d == nil {
		return nil
	}
	if !o.cust.AllowBackdating {
		return business(api.CodeBusinessRule, "%s does not allow back-dating: send the visit without ActualActionDate; the service records the time the request arrives.", o.cust.Customer.Name)
	}
	if d.After(now.Add(futureSkew)) {
		return serve.Invalid("ActualActionDate", "ActualActionDate %s cannot be in the future", d.UTC().Format(time.RFC3339))
	}
	if d.Before(o.wo.Created) {
		return serve.Invalid("ActualActionDate", "ActualActionDate cannot be before the work order was created (%s)", o.wo.Created.Format(time.RFC3339))
	}
	return nil
}

// visitOrder decodes and checks what check-in, pause and check-out share.
func (c *call) visitOrder(req *api.VisitRequest, op string, from ...api.WorkOrderStatus) (*order, error) {
	if err := checkText("Comment", req.Comment, false); err != nil {
		return nil, err
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if !statusIn(o.wo.Status, from...) {
		return nil, wrongStatus(o, op, from...)
	}
	if err := checkActionDate(o, req.ActualActionDate, c.now); err != nil {
		return nil, err
	}
	return o, nil
}

func (c *call) visit(op string, to api.WorkOrderStatus, from ...api.WorkOrderStatus) (any, error) {
	var req api.VisitRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	o, err := c.visitOrder(&req, op, from...)
	if err != nil {
		return nil, err
	}
	o.wo.Status = to
	c.s.st.touch(o, c.now)
	return nil, nil
}

// checkedOut ends the visit: CheckedOut, and the invoice deadline starts.
func (c *call) checkedOut(o *order) { c.s.st.checkedOut(o, c.now) }

func (s *store) checkedOut(o *order, now time.Time) {
	o.wo.Status = api.StatusCheckedOut
	s.awaitVerification(o)
	// Assumption: the invoice deadline starts at check-out, 30 days.
	inv := s.invoiceOf(o)
	if inv.SubmissionDeadline == nil {
		d := now.AddDate(0, 0, 30)
		inv.SubmissionDeadline = &d
	}
	s.touch(o, now)
}

func (c *call) checkIn() (any, error) {
	return c.visit("checking in", api.StatusCheckedIn, api.StatusAccepted, api.StatusPaused)
}

func (c *call) pause() (any, error) {
	return c.visit("pausing", api.StatusPaused, api.StatusCheckedIn)
}

// checkOut: CheckedIn → CheckedOut with the completion information the
// customer requires (service-facts §4.1). A Request work order without it
// is refused (2100, naming each missing item); a PMRM one is checked out
// into NeedsCompletionDetails, to be completed by workDoneDetails. An
// answer the customer would not take is refused for both. Checking out
// from Paused is [UNK] in service-facts §13; the sandbox refuses it so the
// client learns to check in first.
func (c *call) checkOut() (any, error) {
	var req api.CheckOutRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	o, err := c.visitOrder(&req.VisitRequest, "checking out", api.StatusCheckedIn)
	if err != nil {
		return nil, err
	}
	missing, bad := completionGaps(o.cust, req.RepairInfo, req.CustomFields)
	if len(bad) > 0 || len(missing) > 0 && o.wo.Type != "PMRM" {
		return nil, refusal("Work order "+o.wo.WorkOrderNumber+" cannot be checked out", append(missing, bad...))
	}
	o.done = &completion{comment: req.Comment, repair: req.RepairInfo, fields: req.CustomFields}
	if len(missing) > 0 {
		o.wo.Status = api.StatusNeedsCompletionDetails
		c.s.st.touch(o, c.now)
		return nil, nil
	}
	c.checkedOut(o)
	return nil, nil
}

// appointmentStates: the allowed states are [UNK]; assumption: while the
// work is still ahead or under way.
var appointmentStates = []api.WorkOrderStatus{api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusOnHold}

func (c *call) appointment() (any, error) {
	var req api.AppointmentRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if req.ScheduledStart.IsZero() {
		return nil, serve.Invalid("ScheduledStart", "ScheduledStart is required")
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if !statusIn(o.wo.Status, appointmentStates...) {
		return nil, wrongStatus(o, "scheduling", appointmentStates...)
	}
	start := req.ScheduledStart.UTC()
	sched := &api.Schedule{ScheduledStart: &start, Pte: req.Pte}
	if sched.Pte == "" && o.wo.Schedule != nil {
		sched.Pte = o.wo.Schedule.Pte
	}
	if sched.Pte == "" {
		sched.Pte = "Appointment"
	}
	o.wo.Schedule = sched // a new value: generated orders may share nothing mutable
	c.s.st.touch(o, c.now)
	c.s.notify.send(o, api.ActionAppointmentInfoChanged, apiSender, c.now, api.AppointmentInfoChangedEvent{Appointment: *sched})
	return nil, nil
}
