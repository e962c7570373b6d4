// Package list is the work order list, the window's left pane: the search,
// the status, attention and assignee filters, the table with its sortable,
// resizable columns (which give way as the list narrows), the ticked rows'
// bulk Accept, Reject and Assign, and what an empty list hides. A
// keystroke costs a count and one page however many work orders match
// (the lister). It depends only on the small interfaces below, never on
// the window that shows it, so it is tested against a fake (fake_test.go).
package list

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the list reads of the local replica (a *storage.Store).
// Its reads go through the reader pool, beside the writer: the list calls
// them on the main goroutine (a page the table shows, a filter) or off it
// (a keystroke, a reload).
type Replica interface {
	// Count is how many work orders the replica holds.
	Count(ctx context.Context) (int, error)
	// List, CountList and ListAndCount read a query's rows and length.
	List(ctx context.Context, q storage.ListQuery) ([]storage.Row, error)
	CountList(ctx context.Context, q storage.ListQuery) (int, error)
	ListAndCount(ctx context.Context, q storage.ListQuery) ([]storage.Row, int, error)
	// ListedAmong are those of ids that q lists: the ticked rows shown.
	ListedAmong(ctx context.Context, q storage.ListQuery, ids []int64) ([]int64, error)
	// RowsOf are the rows of ids, held where the person acted on them.
	RowsOf(ctx context.Context, ids []int64) (map[int64]storage.Row, error)
	// AssigneesOf is who each of ids is assigned to; AllAssociates is
	// everyone to filter by.
	AssigneesOf(ctx context.Context, ids []int64) (map[int64]storage.Assignees, error)
	AllAssociates(ctx context.Context) ([]storage.Crew, error)
	// StatusCounts and NeedsAttentionCount label the filters.
	StatusCounts(ctx context.Context) (map[api.WorkOrderStatus]int, error)
	NeedsAttentionCount(ctx context.Context) (int, error)
	// QueuedStatuses is the status our waiting actions will give each
	// work order they touch.
	QueuedStatuses(ctx context.Context) (map[int64]api.WorkOrderStatus, error)
	// WarmSearch builds the in-memory search index, if not yet (closed
	// when it is built).
	WarmSearch() <-chan struct{}
}

// Window is what the list needs of the window around it.
type Window interface {
	ShowError(err error)
	// Background runs f off the main goroutine; Do hands f back to it.
	Background(f func())
	Do(f func())
	// OpenWorkOrder shows work order id on the right.
	OpenWorkOrder(id int64)
	// ListProblem says that rows could not be read (nil: they can be
	// again), once per failure however many cells asked.
	ListProblem(err error)
	// BulkAccept, BulkReject and BulkAssign act on the ticked work orders
	// the list shows.
	BulkAccept(ids []int64)
	BulkReject(ids []int64)
	BulkAssign(ids []int64)
	// Shortcut runs the window's shortcut s, if it is one, while the
	// search box has the keyboard.
	Shortcut(s fyne.Shortcut) bool
	// Resorted: the sort column changed, and with it the width its header
	// needs (the arrow): the window lays the panes out again.
	Resorted()
	// ShortcutLabel writes the shortcut of key as the keyboard says it:
	// "Ctrl+F", or "Cmd+F" on a Mac.
	ShortcutLabel(key string) string
}

// Colleagues are the work orders a colleague changed lately (office mode):
// their numbers carry the colleague's initials until the person opens
// them (MarkColleagues).
type Colleagues interface {
	// ColleagueMarks is called on the main goroutine once per reload and
	// returns the read, which runs on any.
	ColleagueMarks() func(ctx context.Context) map[int64]storage.ColleagueChange
	// UnseenMarks keeps, on the main goroutine, the changes the person
	// has not seen since.
	UnseenMarks(changes map[int64]storage.ColleagueChange) map[int64]storage.ColleagueChange
}
