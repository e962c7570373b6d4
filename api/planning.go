package api

import "time"

// Planning a visit: what the dispatch board checks before it queues an
// assignment and an appointment. The service records only a visit's start
// (Schedule.ScheduledStart) and its access type; how long a visit lasts is
// the office's own estimate.

// DefaultVisitLength is how long a planned visit is taken to last unless
// the person changes it: the service has no visit length.
const DefaultVisitLength = 2 * time.Hour

// Booked is a visit a technician already has.
type Booked struct {
	WorkOrderId int64
	Name        string // the work order's number, to name it
	Start       time.Time
}

// VisitProblems is what a visit planned at a start runs into.
type VisitProblems struct {
	// Refused: the work order's status allows no appointment (the rules of
	// Can(SetAppointment)); nothing may be queued.
	Refused error
	// Late: the visit starts after the on-site-by deadline (OnSiteBy).
	Late     bool
	OnSiteBy time.Time
	// Overlaps are the technician's other visits the new one overlaps,
	// each taken to last as long as the new one.
	Overlaps []Booked
}

// Any reports whether there is anything to say before queuing.
func (p VisitProblems) Any() bool { return p.Refused != nil || p.Late || len(p.Overlaps) > 0 }

// CheckVisit says what a visit of w starting at start, lasting length, by
// a technician who already has booked, runs into. The late check and the
// overlaps are warnings (the person may go ahead); Refused is not.
func (w *WorkOrder) CheckVisit(start time.Time, length time.Duration, booked []Booked) VisitProblems {
	var p VisitProblems
	p.Refused = w.Can(SetAppointment)
	if w.Sla != nil && w.Sla.OnSiteBy != nil && start.After(*w.Sla.OnSiteBy) {
		p.Late, p.OnSiteBy = true, *w.Sla.OnSiteBy
	}
	if length <= 0 {
		length = DefaultVisitLength
	}
	end := start.Add(length)
	for _, b := range booked {
		if b.WorkOrderId == w.WorkOrderId {
			continue // the same visit, being moved
		}
		if b.Start.Before(end) && start.Before(b.Start.Add(length)) {
			p.Overlaps = append(p.Overlaps, b)
		}
	}
	return p
}

// VisitAhead are the statuses in which a work order waits for a visit to
// be planned: not yet accepted (it may be planned before), accepted, or
// paused to come back. On hold waits for the customer, not for a visit.
var VisitAhead = []WorkOrderStatus{StatusNew, StatusAccepted, StatusPaused}

// VisitOver reports whether the work order's visit is behind it: checked
// out (whatever the customer made of it since) or closed. Its planned
// start no longer books anyone: the board leaves it out of the plan, and
// a technician's calendar cancels it.
func (s WorkOrderStatus) VisitOver() bool {
	switch s {
	case StatusCheckedOut, StatusNeedsCompletionDetails, StatusVerified, StatusRejected, StatusRecalled:
		return true
	}
	return false
}
