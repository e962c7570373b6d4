package ui

import (
	"context"
	"slices"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/visit"
)

// The Visit tab (ui/visit) asks the window what a correction keeps (the
// comment of a refused check-out, the access type of a refused scheduled
// start), whether the service is reachable, and to open Assign….

func (h host) AssignCrew(woID int64) { h.d.assign.Show([]int64{woID}, nil) }

// KeptComment is the comment the refused action on woID being corrected
// in form carried, for forms without a field for it (a check-out's): the
// correction keeps it rather than drop what the person had written.
func (h host) KeptComment(woID int64, form outbox.Form) string {
	if c := h.d.correcting; c != nil && c.wo == woID && c.form == form && c.draft != nil {
		return c.draft.Text
	}
	return ""
}

// KeptPte is the access type ("Appointment", "Call first") a new scheduled
// start goes out with: the one of the refused appointment being corrected,
// else the work order's own, so that moving the start never drops it.
func (h host) KeptPte(wo *api.WorkOrder) string {
	if c := h.d.correcting; c != nil && c.wo == wo.WorkOrderId && c.form == outbox.FormSchedule && c.draft != nil && c.draft.Pte != "" {
		return c.draft.Pte
	}
	if wo.Schedule != nil {
		return wo.Schedule.Pte
	}
	return ""
}

// Unreachable says whether actions queued now will likely wait: the last
// sync failed, the service is not answering, or queued actions are
// waiting after a network error.
func (h host) Unreachable() bool {
	d := h.d
	if d.status != nil && (d.status.LastErr() != nil || d.status.Silent() != nil) {
		return true
	}
	rows, err := d.store.UnfinishedOutbox(context.Background())
	if err != nil {
		return false
	}
	return slices.ContainsFunc(rows, actiontext.Waiting)
}

// A refused scheduled start is corrected in its pickers; a refused
// check-in, pause or check-out in "when did it happen", a check-out with
// its completion details.
var (
	_ = correctIn(outbox.FormSchedule, "in the Visit tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
		t, ok := tabIn[*visit.Tab](v)
		if ok {
			v.selectTab(t)
			start(func() { t.EditSchedule(draft.At) })
		}
		return ok
	})
	_ = correctIn(outbox.FormVisit, "in the Visit tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
		return correctVisit(d, v, draft, start, false)
	})
	_ = correctIn(outbox.FormCheckOut, "in the Visit tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
		return correctVisit(d, v, draft, start, true)
	})
)

// correctVisit puts a refused visit action back: its moment and, for a
// check-out (completes), its completion details.
func correctVisit(d *Desk, v *detailView, draft *outbox.Draft, start func(func()), completes bool) bool {
	t, ok := tabIn[*visit.Tab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	typed := completes && t.HoldsOther(draft.Completion)
	d.unlessTyped(typed, "The check-out form holds completion details you have not sent.", "check-out", func() {
		start(func() {
			t.EditVisit(draft.At)
			if completes {
				t.FillCompletion(draft.Completion)
			}
		})
	})
	return true
}
