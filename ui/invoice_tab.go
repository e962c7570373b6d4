package ui

import (
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/invoice"
)

// A refused invoice save is corrected in the invoice form, as unsaved
// edits; a refused submission carries no content (it submits the invoice as
// saved), so the tab is only shown.
var _ = correctIn(outbox.FormInvoice, "in the Invoice tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*invoice.Tab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	if draft.Invoice == nil {
		start(nil)
		return true
	}
	d.unlessTyped(t.HoldsOther(*draft.Invoice), "The Invoice tab holds changes you have not saved.", "invoice", func() {
		start(func() { t.EditDraft(*draft.Invoice) })
	})
	return true
})
