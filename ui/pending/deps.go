// Package pending is what the window says of our actions that the
// service does not have yet. A work order's header (Header) lists those
// still waiting ("Check-in queued 10:02"), and each one the service
// refused, in its words, with Retry, Edit and Discard, or one stopped
// before it was sent because only the person can decide (Keep mine, Merge
// by hand, Take theirs); each refusal is announced once wherever the
// person looks (Notice); and a bulk action's dialog says where each of
// its work orders stands as the service answers (Results). It depends only on the small interfaces below,
// never on the window that shows it, so it is tested against fakes
// (fake_test.go).
package pending

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Queue answers a refused or stopped action (a *storage.Store). Its
// calls may wait for the replica's writer: the header makes them only
// inside Window.Write, off the main goroutine.
type Queue interface {
	Retry(ctx context.Context, rowID int64) (*storage.OutboxRow, error)
	Discard(ctx context.Context, rowID int64) error
	OutboxRow(ctx context.Context, rowID int64) (*storage.OutboxRow, error)
	// KeepMine sends a stopped action over what stopped it.
	KeepMine(ctx context.Context, rowID int64) (*storage.OutboxRow, error)
}

// Window is what the header needs of the window around it.
type Window interface {
	// Window is the window the header's questions are asked over.
	Window() fyne.Window
	ShowError(err error)
	// Queued says what was queued, where the window says it.
	Queued(what string)
	// Write runs work off the main goroutine in its turn among the
	// window's writes; done gets its error back on it.
	Write(work func(ctx context.Context) error, done func(error))
	// Changed shows the work orders ids again as the replica has them.
	Changed(ids []int64)
	// ColleagueFirst explains refused action r on work order woID by what
	// a colleague did first, when the office hub says so ("": nothing).
	ColleagueFirst(woID int64, r storage.OutboxRow) string
	// Edit opens the form of refused action r filled with what it carried,
	// for the person to correct it; StopCorrecting gives that up.
	Edit(r storage.OutboxRow)
	StopCorrecting()
	// Correcting reports whether the person is correcting the refused
	// action rowID in its form; CorrectingHint tells them meanwhile what
	// happens next.
	Correcting(rowID int64) bool
	CorrectingHint(r storage.OutboxRow) string
	// EndCorrecting ends the correction of action rowID, if it is the one
	// being corrected: it was sent again or given up.
	EndCorrecting(rowID int64)
}

// NoticeReplica is what Notice reads of the replica (a *storage.Store).
type NoticeReplica interface {
	UnfinishedOutbox(ctx context.Context) ([]storage.OutboxRow, error)
	// WorkOrder names a refused action's work order by its number.
	WorkOrder(ctx context.Context, id int64) (*api.WorkOrder, error)
}

// Announcer is where Notice tells the person of a refusal.
type Announcer interface {
	// NotifyDesktop shows a desktop notification, where the system can.
	NotifyDesktop(title, body string)
	// Alert says msg in the status bar's note, in red, until the refused
	// action rowID is dealt with; Settled is told, each look, which
	// refusals are still open.
	Alert(rowID int64, msg string)
	Settled(refused map[int64]bool)
}

// ResultsReplica is what Results reads of the replica (a *storage.Store).
type ResultsReplica interface {
	OutboxRow(ctx context.Context, rowID int64) (*storage.OutboxRow, error)
	// WorkOrder names each work order by its number.
	WorkOrder(ctx context.Context, id int64) (*api.WorkOrder, error)
}

// ResultsWindow is what Results needs of the window.
type ResultsWindow interface {
	// Window is the window the dialog is shown over.
	Window() fyne.Window
	// Subscribe calls f on the main goroutine when the replica changes,
	// changes that come while one call waits merged into it, until
	// cancel is called.
	Subscribe(f func(ids []int64)) (cancel func())
}
