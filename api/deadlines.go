package api

import (
	"slices"
	"time"
)

// Deadline is one of the SLA dates a work order is measured against
// (service-facts §7): acknowledge (accept or reject) by, on site by, due.
type Deadline int

const (
	NoDeadline Deadline = iota
	AcknowledgeBy
	OnSiteBy
	DueBy
	// InvoiceBy is the invoice's SubmissionDeadline (service-facts §8): not
	// an SLA date, but what a finished work order is measured against until
	// its invoice is submitted.
	InvoiceBy
)

// Label names the deadline as the window and the list show it.
func (d Deadline) Label() string {
	switch d {
	case AcknowledgeBy:
		return "Acknowledge by"
	case OnSiteBy:
		return "On site by"
	case DueBy:
		return "Due"
	case InvoiceBy:
		return "Invoice by"
	}
	return ""
}

// Of is the work order's date for d (nil when the customer set none, and
// for InvoiceBy, which the invoice holds).
func (d Deadline) Of(s *Sla) *time.Time {
	if s == nil {
		return nil
	}
	switch d {
	case AcknowledgeBy:
		return s.AcknowledgeBy
	case OnSiteBy:
		return s.OnSiteBy
	case DueBy:
		return s.DueDate
	}
	return nil
}

// deadlinesAhead lists, per status, the dates the work has yet to meet,
// soonest stage first. A status missing here (closed, or one the service
// does not document) has none. The replica's work_orders.deadline column
// computes the first of each list in SQL so that it can be indexed; a
// storage test holds it to this table. InvoiceBy counts only while the
// invoice can still be submitted (Invoice.Status.Editable).
var deadlinesAhead = map[WorkOrderStatus][]Deadline{
	StatusNew:                    {AcknowledgeBy, OnSiteBy, DueBy},
	StatusAccepted:               {OnSiteBy, DueBy},
	StatusPaused:                 {OnSiteBy, DueBy},
	StatusCheckedIn:              {DueBy},
	StatusOnHold:                 {DueBy},
	StatusNeedsCompletionDetails: {DueBy},
	StatusCheckedOut:             {InvoiceBy},
	StatusVerified:               {InvoiceBy},
}

// Ahead reports whether d is still to be met in status s: its time left
// matters (and it can be overdue); otherwise it is history.
func (s WorkOrderStatus) Ahead(d Deadline) bool { return slices.Contains(deadlinesAhead[s], d) }

// NextDeadline is the SLA date that matters now in status s, or NoDeadline.
func (s WorkOrderStatus) NextDeadline() Deadline {
	if ds := deadlinesAhead[s]; len(ds) > 0 {
		return ds[0]
	}
	return NoDeadline
}
