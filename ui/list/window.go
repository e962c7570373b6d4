package list

import (
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/storage"
)

// What the window asks of the list: to open a work order, to hold rows it
// acted on, to untick them, where the keyboard goes, and what the list
// shows now (the export, the split's least width, the reload pace).

// MarkColleagues marks the work orders colleagues changed lately (office
// mode); called before the first layout, so the Number column has room
// for a mark.
func (v *View) MarkColleagues(c Colleagues) {
	v.colleagues = c
	v.marked = true
}

// ForgetMark drops work order id's colleague mark, now that the person
// opened it, and returns it (false: it had none).
func (v *View) ForgetMark(id int64) (storage.ColleagueChange, bool) {
	c, ok := v.marks[id]
	if !ok {
		return c, false
	}
	delete(v.marks, id)
	v.table.Refresh()
	return c, true
}

// Open opens work order id, as a tap on its row does.
func (v *View) Open(id int64) { v.open(id) }

// OpenFirst opens the list's first work order, if it lists any.
func (v *View) OpenFirst() { v.openFirstRow() }

// Keep holds the work orders the person just acted on where they are
// (keep).
func (v *View) Keep(ids ...int64) { v.keep(ids...) }

// Untick clears the ticks of ids (acted on), keeping any others.
func (v *View) Untick(ids []int64) { v.untick(ids) }

// BulkControls are the ticked rows' Accept and Reject buttons, kept
// disabled while their action is queued; AssignControl is Assign's.
func (v *View) BulkControls() []fyne.Disableable {
	return []fyne.Disableable{v.acceptBtn, v.rejectBtn}
}

func (v *View) AssignControl() fyne.Disableable { return v.assignBtn }

// Search is the search box and Table the table, for the keyboard.
func (v *View) Search() *SearchEntry { return v.search }
func (v *View) Table() *Table        { return v.table }

// Shown is the query whose rows the table shows and how many it shows.
func (v *View) Shown() (storage.ListQuery, int) { return v.shown, v.total }

// Len is how many rows the table shows; Row is the i-th of them. The
// whole-window tests read the list by them, and by UpToDate and
// Table.KeyboardRow.
func (v *View) Len() int                      { return v.total }
func (v *View) Row(i int) (storage.Row, bool) { return v.rowAt(i) }

// UpToDate reports whether the answer to the newest query is shown (main
// goroutine only).
func (v *View) UpToDate() bool { return v.lister.upToDate() }

// LeastWidth is the width the list's kept columns need: the split never
// gives the list less while the window has it.
func (v *View) LeastWidth() float32 { return v.leastWidth() }

// Pace is how many work orders the last reload counted and what its reads
// took, summed (the window paces reloads by them); any goroutine.
func (v *View) Pace() (works int, cost time.Duration) {
	return int(v.size.Load()), time.Duration(v.cost.Load())
}
