package sandbox

import (
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// actionDateSlack is how far ActualActionDate may sit from the sandbox's now
// before it counts as future or back-dated. Assumption: the service's
// tolerance is unpublished; two minutes absorbs clock skew between a
// contractor's machine and the service without letting real back-dating through.
const actionDateSlack = 2 * time.Minute

// checkActionDate applies the ActualActionDate rules (service-facts §4.1):
// never in the future (2100), in the past only where the customer allows
// back-dating (3000), never before the work order existed (2100).
func checkActionDate(o *order, d *time.Time, now time.Time) error {
	if d == nil || d.IsZero() {
		return nil
	}
	if d.After(now.Add(actionDateSlack)) {
		return invalid("ActualActionDate", "ActualActionDate %s cannot be in the future", d.UTC().Format(time.RFC3339))
	}
	if d.Before(now.Add(-actionDateSlack)) {
		if !o.cust.AllowBackdating {
			return business(api.CodeBusinessRule, "%s does not allow back-dating: send the visit without ActualActionDate (now), or ask the customer to record it.", o.cust.Customer.Name)
		}
		if d.Before(o.wo.Created) {
			return invalid("ActualActionDate", "ActualActionDate cannot be before the work order was created (%s)", o.wo.Created.Format(time.RFC3339))
		}
	}
	return nil
}

func (c *call) visit(op string, to api.WorkOrderStatus, from ...api.WorkOrderStatus) (any, error) {
	var req api.VisitRequest
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
	if !statusIn(o.wo.Status, from...) {
		return nil, wrongStatus(o, op, from...)
	}
	if err := checkActionDate(o, req.ActualActionDate, c.now); err != nil {
		return nil, err
	}
	o.wo.Status = to
	if to == api.StatusCheckedOut {
		// Assumption: the invoice deadline starts at check-out, 30 days.
		inv := c.s.st.invoiceOf(o)
		if inv.SubmissionDeadline == nil {
			d := c.now.AddDate(0, 0, 30)
			inv.SubmissionDeadline = &d
		}
	}
	c.s.st.touch(o, c.now)
	return nil, nil
}

func (c *call) checkIn() (any, error) {
	return c.visit("checking in", api.StatusCheckedIn, api.StatusAccepted, api.StatusPaused)
}

func (c *call) pause() (any, error) {
	return c.visit("pausing", api.StatusPaused, api.StatusCheckedIn)
}

// checkOut: CheckedIn → CheckedOut. Checking out from Paused is [UNK] in
// service-facts §13; the sandbox refuses it so the client learns to check in first.
func (c *call) checkOut() (any, error) {
	return c.visit("checking out", api.StatusCheckedOut, api.StatusCheckedIn)
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
		return nil, invalid("ScheduledStart", "ScheduledStart is required")
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
