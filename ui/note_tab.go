package ui

import (
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/note"
)

// The Internal note tab (ui/note) asks the window whether the person is
// merging a stopped edit, for their name before the first save, and to
// show the work order again once an edit is queued.

func (h host) Correcting(rowID int64) bool {
	return h.d.correcting != nil && h.d.correcting.row == rowID
}
func (h host) WithPersonName(then func()) { h.d.withPersonName(then) }
func (h host) Reload(woID int64)          { h.d.detail.reloadIfOpen([]int64{woID}) }

// A stopped edit is merged by hand in the note's editor: theirs, then
// ours, for the person to make one note of; saving it replaces the edit.
var _ = correctIn(outbox.FormNote, "in the Internal note tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*note.Tab](v)
	if !ok || !t.Loaded() {
		return false
	}
	v.selectTab(t)
	d.unlessTyped(t.HoldsOther(draft.Text), "The Internal note tab holds an edit you have not saved.", "note", func() {
		start(func() { t.MergeByHand(draft.Text) })
	})
	return true
})
