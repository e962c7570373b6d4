package api

import (
	"slices"
	"strings"
	"time"
)

// How the SLA deadlines were kept: each deadline against the moment the
// work met it (acknowledged: accepted or rejected; on site: checked in;
// completed: checked out), judged only from what was recorded.

// SlaDeadlines are the deadlines judged, in the order the work meets them.
var SlaDeadlines = []Deadline{AcknowledgeBy, OnSiteBy, DueBy}

// SlaRecord is one work order's deadlines and the recorded moments that
// met them.
type SlaRecord struct {
	WorkOrderId int64
	Customer    Customer
	Status      WorkOrderStatus
	Sla         *Sla
	// Met holds when each deadline was met, where a time was recorded (a
	// notification's ActionDate, or our own action as the service took it).
	Met map[Deadline]time.Time
}

// SlaVerdict is how one deadline was kept.
type SlaVerdict int

const (
	SlaNotCounted SlaVerdict = iota // no such deadline, not due yet, or outside the period
	SlaKept
	SlaMissed
	SlaUnjudged // due, and met or not: no recorded time says when
)

// Judge says how deadline d was kept, as of now, counting only deadlines
// from from on. A recorded moment decides. Without one, a deadline that
// passed while the work still waits for it (a New work order after its
// acknowledge-by) is missed: its status says so. Any other passed
// deadline without a recorded moment cannot be judged: the work moved on,
// but nothing says when.
func (r SlaRecord) Judge(d Deadline, from, now time.Time) SlaVerdict {
	due := d.Of(r.Sla)
	if due == nil || due.Before(from) {
		return SlaNotCounted
	}
	if met, ok := r.Met[d]; ok {
		if met.After(*due) {
			if due.After(now) {
				return SlaNotCounted // a clock skew: not judged against the future
			}
			return SlaMissed
		}
		return SlaKept
	}
	if due.After(now) {
		return SlaNotCounted
	}
	if r.Status.Ahead(d) {
		return SlaMissed
	}
	if r.Status.Closed() {
		return SlaNotCounted // rejected or recalled: nothing more was owed
	}
	return SlaUnjudged
}

// CustomerSla is how one customer's deadlines were kept in a period.
type CustomerSla struct {
	Customer Customer
	Kept     [4]int // indexed by Deadline (NoDeadline unused)
	Missed   [4]int
	Unjudged [4]int
}

// Sum adds up a per-deadline count.
func Sum(counts [4]int) int { return counts[1] + counts[2] + counts[3] }

// TallySla counts kept, missed and unjudged deadlines per customer, from
// from to now; customers with nothing counted are left out. Customers
// come by name.
func TallySla(rs []SlaRecord, from, now time.Time) []CustomerSla {
	by := map[int64]*CustomerSla{}
	for _, r := range rs {
		for _, d := range SlaDeadlines {
			v := r.Judge(d, from, now)
			if v == SlaNotCounted {
				continue
			}
			c := by[r.Customer.Id]
			if c == nil {
				c = &CustomerSla{Customer: r.Customer}
				by[r.Customer.Id] = c
			}
			switch v {
			case SlaKept:
				c.Kept[d]++
			case SlaMissed:
				c.Missed[d]++
			case SlaUnjudged:
				c.Unjudged[d]++
			}
		}
	}
	out := make([]CustomerSla, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b CustomerSla) int { return strings.Compare(a.Customer.Name, b.Customer.Name) })
	return out
}
