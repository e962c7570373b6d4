package list

import (
	"context"
	"fmt"
	"slices"

	"github.com/workorderdesk/workdesk/ui/arrange"
)

// Bulk Accept and Reject act on the ticked work orders the list shows.
// A tick on a row the search or a filter then hides is kept (it shows
// again with the row) but left out, and the list says so under the
// filters: nobody accepts a work order they cannot see.

// selectedIDs are the ticked work orders, in id order, shown or not.
func (v *View) selectedIDs() []int64 {
	ids := make([]int64, 0, len(v.selected))
	for id := range v.selected {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// untick clears the ticks of ids (acted on), keeping any others.
func (v *View) untick(ids []int64) {
	for _, id := range ids {
		delete(v.selected, id)
	}
	v.table.Refresh()
	v.updateBulk()
}

// updateBulk labels Accept and Reject with how many ticked work orders the
// list shows, and notes the ticked ones it hides.
func (v *View) updateBulk() {
	ticked := v.selectedIDs()
	v.shownTicked = nil
	if len(ticked) > 0 {
		q := v.shown
		q.Held = nil // drawn by the list, still listed (q.Keep)
		shown, err := v.store.ListedAmong(context.Background(), q, ticked)
		if err != nil {
			v.readFailed(err)
		} else {
			v.shownTicked = shown
		}
	}
	n, hidden := len(v.shownTicked), len(ticked)-len(v.shownTicked)
	switch {
	case hidden == 0:
		v.hiddenNote.Hide()
	case hidden == 1:
		v.hiddenNote.SetText("1 ticked work order is hidden by the search or filters: Accept and Reject leave it out.")
		v.hiddenNote.Show()
	default:
		v.hiddenNote.SetText(fmt.Sprintf("%d ticked work orders are hidden by the search or filters: Accept and Reject leave them out.", hidden))
		v.hiddenNote.Show()
	}
	if n == 0 {
		v.bulkHint.Label.SetText(v.hintText())
		v.bulkHint.Refresh()
		v.bulkHint.Show()
		v.acceptBtn.Hide()
		v.rejectBtn.Hide()
		v.assignBtn.Hide()
		return
	}
	v.bulkHint.Hide()
	v.acceptBtn.SetText(fmt.Sprintf("Accept %d", n))
	v.rejectBtn.SetText(fmt.Sprintf("Reject %d", n))
	v.assignBtn.SetText(fmt.Sprintf("Assign %d…", n))
	v.acceptBtn.Show()
	v.rejectBtn.Show()
	v.assignBtn.Show()
	if v.bulkRow != nil {
		// Shown, the buttons are laid out at once: the wrapping row's
		// minimum width (its widest button) did not change, so nothing
		// above would lay it out again.
		arrange.Relayout(v.bulkRow)
	}
}

// hintText is what the row of bulk buttons says while nothing is ticked:
// how to act on several, or, while the list holds rows the person acted on
// where they were, that they stay until the person moves on.
func (v *View) hintText() string {
	switch len(v.held) {
	case 0:
		return bulkHintText
	case 1:
		if r, ok := v.heldRows[v.held[0].id]; ok {
			return r.Number + " stays here until you open another"
		}
	}
	return fmt.Sprintf("%d work orders stay here until you open another", len(v.held))
}

const bulkHintText = "Tick rows to accept, reject or assign together"
