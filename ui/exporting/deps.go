// Package exporting is the export of what a view shows to a file: File ›
// Export list… (the list as it is searched, filtered and sorted) and the
// receivables window's Export… (its invoices as filtered). Each asks the
// same things (Excel or CSV, then where to save), writes off the main
// goroutine with a progress bar and Cancel, removes a file it could not
// finish, and says where the file went in the view's own window. It
// depends only on the small interfaces below, never on the window that
// shows it, so it is tested against a fake (fake_test.go).
package exporting

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/storage"
)

// Window is what an export needs of the window around it.
type Window interface {
	// ShowErrorIn tells err in plain words in w, the view's own window.
	ShowErrorIn(w fyne.Window, err error)
	// Run runs work off the main goroutine and hands done its error back
	// on it; Do runs f on the main goroutine.
	Run(work func(ctx context.Context) error, done func(error))
	Do(f func())
	// Closed is closed when the main window goes away: the replica an
	// export reads is closing, so the export ends.
	Closed() <-chan struct{}
}

// Replica is what the list's export reads (a *storage.Store), off the
// main goroutine, a row at a time.
type Replica interface {
	// EachRow calls each with every row query q lists, in its order.
	EachRow(ctx context.Context, q storage.ListQuery, each func(storage.Row) error) error
	// AssigneesOf is who each of ids is assigned to.
	AssigneesOf(ctx context.Context, ids []int64) (map[int64]storage.Assignees, error)
}

// ListWords is how the list writes whom a work order is assigned to
// (ui/list's words): the export writes it the same where it does not
// spell out every name.
type ListWords interface {
	// AssignedText is the list's Assigned cell ("unknown" where the
	// service did not say).
	AssignedText(a storage.Assignees) string
	// Partly is what follows the people this office assigned where
	// others may be assigned too ("" otherwise).
	Partly(a storage.Assignees) string
}

// Receivables is the receivables view (a *receivables.View) as it
// filters now.
type Receivables interface {
	// ExportTable is its rows, in its order, as a table to export.
	ExportTable() export.Table
	// Narrowed says what its filters keep: " (status Disputed)", "" when
	// none does.
	Narrowed() string
}
