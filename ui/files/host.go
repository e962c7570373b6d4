// Package files is the files of a place (a work order, its invoice, a
// procedure step) as the window shows them: the panel that lists, adds and
// removes them through the outbox, and the dialog that opens or saves one
// through its 15-minute download link. It knows api's and storage's types;
// what it needs of the window around it is Host, and of the replica
// Outbox.
package files

import (
	"context"
	"io"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Host is what the panel needs of the window it is in.
type Host interface {
	Links
	ShowError(err error)
	// Queued tells the person an action is safe in the outbox.
	Queued(what string)
	// Run does work off the main goroutine, then done with its error on
	// it (at once when work ran before Run returned).
	Run(work func(ctx context.Context) error, done func(error))
	// Write is Run for a write to the replica, after every write asked
	// for before it: the person's actions reach the outbox in order.
	Write(work func(ctx context.Context) error, done func(error))
	// Connected is false when the window has no service to ask: files
	// can then be neither listed from it nor opened.
	Connected() bool
}

// Links is what a file's dialog needs to fetch, open, copy and save a
// temporary link, which it never hands anywhere else.
type Links interface {
	// Window is where the dialogs open.
	Window() fyne.Window
	// Background runs f off the main goroutine; Do hands f back to it.
	Background(f func())
	Do(f func())
	// Closed is closed with the window: countdowns and downloads stop.
	Closed() <-chan struct{}
	// Ticking says whether the link's countdown ticks each second (not
	// on Fyne's test driver, where tests move the clock themselves).
	Ticking() bool
	// OpenURL hands a link to the system's browser; an error says it did not.
	OpenURL(link api.DownloadURL) error
	Download(ctx context.Context, link api.DownloadURL, w io.Writer, progress func(done, total int64)) error
}

// Outbox is the replica's record of a work order's queued actions: the
// panel shows ours to the files on their way.
type Outbox interface {
	OutboxRows(ctx context.Context, woID int64) ([]storage.OutboxRow, error)
}

// Items is the files listed now.
func (p *Panel) Items() []api.Attachment { return p.items }
