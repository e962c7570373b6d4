// Package note is the Internal note tab of a work order: the company's
// own note, never shown to the customer, edited whole and saved through
// the outbox, with every earlier version; an edit stopped because the
// note changed meanwhile is shown beside the newer one, and merged by hand
// here. It depends only on the small interfaces below, never on the window
// that shows it, so it is tested against a fake (fake_test.go).
package note

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the tab reads of the local replica (a *storage.Store):
// the note as the service last listed it, with our edits still queued.
type Replica interface {
	Note(ctx context.Context, woID int64) (*storage.Note, error)
}

// Queue queues an edit of the note (a *storage.Store): text, begun from
// base, which is not sent if the note is no longer base by then. It may
// wait for the replica's writer: the tab calls it only inside Window.Act's
// write, off the main goroutine.
type Queue interface {
	SetNote(ctx context.Context, woID int64, text, base string) (*storage.OutboxRow, error)
}

// Window is what the tab needs of the window around it.
type Window interface {
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
	// Correcting reports whether the person is correcting the refused
	// action rowID in its form (the note's merge by hand).
	Correcting(rowID int64) bool
	// WithPersonName runs then once the person was asked for their name,
	// if they never were: the note's record names who wrote it.
	WithPersonName(then func())
	// Reload shows work order woID again as the replica has it, if it is
	// still open.
	Reload(woID int64)
}
