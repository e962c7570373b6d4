// Package daysheet hands a technician their day (or week): the visits the
// dispatch board planned for them, in order, as a PDF to print (where to
// go, whom to call, how to get in, what to do) and as a calendar (.ics,
// RFC 5545) that any calendar program imports, and imports again to
// update. It knows api's types and nothing of storage or the window.
package daysheet

import (
	"cmp"
	"slices"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Visit is one visit on the sheet.
type Visit struct {
	// WorkOrder is the work order as the office sees it (queued plans
	// applied): its ScheduledStart is the visit's start.
	WorkOrder *api.WorkOrder
	// Note is the work order's internal note, where the office keeps gate
	// codes and key safes; it prints only when asked (AccessNotes).
	Note string
}

// Start is when the visit is planned to start.
func (v Visit) Start() time.Time { return v.WorkOrder.ScheduledStart() }

// Off reports a visit that is no longer to be made: done (checked out)
// or closed. The PDF leaves it out; the calendar cancels it.
func (v Visit) Off() bool { return v.WorkOrder.Status.VisitOver() }

// Sheet is one technician's visits over some days.
type Sheet struct {
	Technician api.Associate
	// From is the first day (its date in the sheet's time zone counts);
	// Days how many days from it.
	From time.Time
	Days int
	// Visits are the technician's visits starting in those days, those
	// off included.
	Visits []Visit
}

// ordered is the sheet's visits by start (ties by number): the order the
// technician makes them in.
func (s Sheet) ordered() []Visit {
	out := slices.Clone(s.Visits)
	slices.SortStableFunc(out, func(a, b Visit) int {
		if c := a.Start().Compare(b.Start()); c != 0 {
			return c
		}
		return cmp.Compare(a.WorkOrder.WorkOrderNumber, b.WorkOrder.WorkOrderNumber)
	})
	return out
}

// visitLength is how long a visit is taken to last: the service records
// only its start, so the board's length is the office's estimate.
func visitLength(d time.Duration) time.Duration {
	if d <= 0 {
		return api.DefaultVisitLength
	}
	return d
}
