package ui

import (
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/procedures"
)

// AsSent is, for the Procedures tab (ui/procedures), the open work order
// as the service last said it, to tell a step's change still queued.
func (h host) AsSent(woID int64) *api.WorkOrder {
	if p := h.d.detail.pending; p != nil && p.Replica.WorkOrderId == woID {
		return p.Replica
	}
	return nil
}

// A refused step is corrected in its editor: the step chosen, what was
// entered put back.
var _ = correctIn(outbox.FormStep, "in the Procedures tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*procedures.Tab](v)
	if !ok || draft.Step == nil || !t.HasStep(draft.Step.Ref()) {
		return false
	}
	v.selectTab(t)
	r := *draft.Step
	t.ChooseStep(r.Ref())
	d.unlessTyped(t.HoldsOther(), "The step's editor holds what you have not saved.", "step", func() {
		start(func() { t.EditDraft(r) })
	})
	return true
})
