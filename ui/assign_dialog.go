package ui

import (
	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/visit"
)

// The Assign dialog (ui/assign) is opened by the Visit tab's Assign… and
// the list's Assign N…; it asks the window for the buttons that start an
// assignment, to untick the rows assigned, and to end the correction of a
// refused assignment.

// AssignControls are the buttons that start an assignment of woIDs: while
// one is being queued, none starts another.
func (h host) AssignControls(woIDs []int64) []fyne.Disableable {
	if len(woIDs) > 1 {
		return []fyne.Disableable{h.d.list.AssignControl()}
	}
	if t, ok := tabIn[*visit.Tab](h.d.detail); ok {
		return []fyne.Disableable{t.AssignButton()}
	}
	return nil
}

func (h host) Untick(woIDs []int64) { h.d.list.Untick(woIDs) }
func (h host) StopCorrecting()      { h.d.stopCorrecting() }

func (h host) StopCorrectingIfAny() {
	if h.d.correcting != nil {
		h.d.stopCorrecting()
	}
}

func (h host) Corrected(woID int64, group outbox.Group) {
	if c := h.d.correcting; c != nil && c.wo == woID && c.group == group {
		h.d.correcting = nil
	}
}

// A refused assignment is corrected in the Visit tab's Assign… dialog,
// with whom it named ticked.
var _ = correctIn(outbox.FormCrew, "in the Visit tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*visit.Tab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	start(func() { d.assign.Show([]int64{v.wo.WorkOrderId}, draft.Associates) })
	return true
})
