// Package messages is the Messages tab of a work order: the thread with
// the customer and the crew, our messages still in the outbox in it
// ("sending…", or refused with Retry, Edit and Discard), and the compose
// box, whose message is queued through the outbox for whom the person
// chose. It depends only on the small interfaces below, never on the
// window that shows it, so it is tested against a fake (fake_test.go).
package messages

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the tab reads of the local replica (a *storage.Store):
// the thread as the service last listed it, with ours still queued.
type Replica interface {
	Thread(ctx context.Context, woID int64) ([]storage.ThreadMessage, error)
}

// Queue queues a message (a *storage.Store). It may wait for the
// replica's writer: the tab calls it only inside Window.Act's write, off
// the main goroutine.
type Queue interface {
	SendMessage(ctx context.Context, woID int64, text string, vis api.MessageVisibility) (*storage.OutboxRow, error)
}

// Window is what the tab needs of the window around it.
type Window interface {
	// Window is where the keyboard focus is put.
	Window() fyne.Window
	ShowError(err error)
	// Queued says what was queued, where the window says it.
	Queued(what string)
	// Act queues an action the controls started: write runs off the main
	// goroutine, done gets its error back on it. The controls stay
	// disabled until then, whatever the rules say meanwhile (Enable).
	Act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error))
	// Enable sets w as the rules have it, unless an action w started is
	// still being queued: then it takes that state once the action is back.
	Enable(w fyne.Disableable, on bool)
	// Replacing is the context to queue an action on work order woID from
	// the form of group with: while the person corrects a refused action
	// there, the new one replaces it. Read it when the person acts.
	Replacing(woID int64, group outbox.Group) context.Context
	// Retry sends a refused action of ours again; Discard gives it up once
	// the person confirms; Edit puts it back in its form to correct. All
	// take their turn in the window's outbox.
	Retry(rowID int64)
	Discard(rowID int64)
	Edit(r storage.OutboxRow)
	// Press taps b as the window's keyboard shortcut for action a does,
	// showing tab first: it says why not when nothing is open or a is not
	// allowed now.
	Press(b *widget.Button, tab string, a api.Action)
	// Shortcut runs the window's keyboard shortcut s, if it is one,
	// while the person types: it reports whether it was.
	Shortcut(s fyne.Shortcut) bool
}
