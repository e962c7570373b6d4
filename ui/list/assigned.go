package list

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
)

// The list's Assigned column and its filter: who each work order is
// assigned to (a name, or several people's initials; "unknown" where the
// service did not say; "Kenji Sato +?" where it did not but this office
// assigned Kenji Sato), and a choice of anyone, nobody, or one person.

const (
	assigneeAnyone = "Any technician"
	assigneeNobody = "Unassigned"
)

// newAssigneeFilter is the filter; its people are read on reload.
func (v *View) newAssigneeFilter() *widget.Select {
	sel := widget.NewSelect([]string{assigneeAnyone, assigneeNobody}, nil)
	sel.PlaceHolder = assigneeAnyone
	sel.SetSelectedIndex(0)
	v.assignees = []int64{0, storage.NoAssignee}
	sel.OnChanged = func(string) {
		i := sel.SelectedIndex()
		if i < 0 || i >= len(v.assignees) {
			return
		}
		if v.query.Assignee != v.assignees[i] {
			v.query.Assignee = v.assignees[i]
			v.moveOn()
			v.requery()
		}
	}
	return sel
}

// showAssignees lists everyone the replica knows in the filter, keeping
// the one chosen.
func (v *View) showAssignees(crew []storage.Crew) {
	opts := []string{assigneeAnyone, assigneeNobody}
	ids := []int64{0, storage.NoAssignee}
	for _, c := range crew {
		opts = append(opts, c.Name)
		ids = append(ids, c.Id)
	}
	chosen := 0
	for i, id := range ids {
		if id == v.query.Assignee {
			chosen = i
		}
	}
	v.assignees = ids
	v.assigneeSel.Options = opts
	// A Select is as wide as its placeholder: the short choices', so the
	// search keeps its room; a longer name is shortened with "…".
	v.assigneeSel.PlaceHolder = assigneeAnyone
	v.assigneeSel.Selected = opts[chosen] // not SetSelected: the filter itself did not change
	v.assigneeSel.Refresh()
}

// readAssigned reads who the work orders of a page just read are
// assigned to.
func (v *View) readAssigned(rows []storage.Row) {
	got, err := v.store.AssigneesOf(context.Background(), RowIDs(rows))
	if err != nil {
		v.readFailed(err)
		return
	}
	if v.assigned == nil {
		v.assigned = map[int64]storage.Assignees{}
	}
	for id, a := range got {
		v.assigned[id] = a
	}
}

// RowIDs are the ids of rows, in order.
func RowIDs(rows []storage.Row) []int64 {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.Id
	}
	return ids
}

// assignedFit is the Assigned cell's text for a column room wide: a name
// too long for it gives way to initials, which the detail spells out.
func assignedFit(a storage.Assignees, room float32) string {
	s := AssignedText(a)
	if len(a.Who) == 1 && fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width > room {
		return a.Who[0].Initials() + Partly(a)
	}
	return s
}

// AssignedText is the list's Assigned cell: a name, or several people's
// initials; "unknown" where the service did not say, never "nobody";
// where it does not say but this office assigned some, those with
// partlyKnown after them (the rest are not known).
func AssignedText(a storage.Assignees) string {
	switch {
	case !a.Known:
		return "unknown"
	case len(a.Who) == 0:
		return "—"
	case len(a.Who) == 1:
		return a.Who[0].Name + Partly(a)
	}
	var in []string
	for _, p := range a.Who {
		in = append(in, p.Initials())
	}
	return strings.Join(in, ", ") + Partly(a)
}

// partlyKnown follows the people this office assigned to a work order
// whose record does not say who goes: others may be assigned too.
const partlyKnown = " +?"

// Partly is partlyKnown where the office's assignments are all a
// knows, else "".
func Partly(a storage.Assignees) string {
	if a.Partial {
		return partlyKnown
	}
	return ""
}
