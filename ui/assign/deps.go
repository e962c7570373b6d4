// Package assign is the Assign dialog: whom to assign to one work order
// (the Visit tab's Assign…: its people ticked, unticking takes them off)
// or to several (the list's ticked rows: each gets those of its branch,
// and what could not be assigned is said per work order), the people of
// each branch grouped under it by name, and a refused assignment put back
// with whom it named ticked. It depends only on the small interfaces
// below, never on the window that shows it, so it is tested against a
// fake (fake_test.go).
package assign

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the dialog reads of the local replica (a *storage.Store).
type Replica interface {
	// Pending is the work order as it will be once our queued actions
	// are sent: its branch, and who is on it.
	Pending(ctx context.Context, woID int64) (*storage.Pending, error)
	// Associates is a branch's people as the last sync read them; known
	// is false while the branch's list was never read.
	Associates(ctx context.Context, branch int64) (list []api.Associate, known bool, err error)
	// AllAssociates is everyone of every branch read, each once.
	AllAssociates(ctx context.Context) ([]storage.Crew, error)
	// AssociatesByID names the people an assignment left out; the dialog
	// calls it inside Window.Act's write, off the main goroutine.
	AssociatesByID(ctx context.Context) map[int64]api.Associate
}

// Queue queues assignments (a *storage.Store). Its calls may wait for the
// replica's writer: the dialog makes them only inside Window.Act's
// write, off the main goroutine.
type Queue interface {
	Assign(ctx context.Context, woIDs, associateIDs []int64) (*storage.OutboxRow, error)
	Unassign(ctx context.Context, woIDs, associateIDs []int64) (*storage.OutboxRow, error)
	// AssignWhereAllowed assigns to each of woIDs whose branch and status
	// allow it, and says per work order what it could not.
	AssignWhereAllowed(ctx context.Context, woIDs, associateIDs []int64) ([]*storage.OutboxRow, []storage.LeftOut, error)
}

// Window is what the dialog needs of the window around it.
type Window interface {
	// Window is the window the dialog is shown over.
	Window() fyne.Window
	ShowError(err error)
	// Queued says what was queued, where the window says it.
	Queued(what string)
	// Act queues an action the controls started: write runs off the main
	// goroutine, done gets its error back on it. The controls stay
	// disabled until then.
	Act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error))
	// Replacing is the context to queue an action on work order woID from
	// the form of group with: while the person corrects a refused action
	// there, the new one replaces it. Read it when the person acts.
	Replacing(woID int64, group outbox.Group) context.Context
	// ShortcutLabel is how the window writes the shortcut of key ("Ctrl+R").
	ShortcutLabel(key string) string
	// AssignControls are the buttons that start an assignment of woIDs
	// (the Visit tab's Assign…, the list's Assign N…): while one is being
	// queued, none starts another.
	AssignControls(woIDs []int64) []fyne.Disableable
	// Untick unticks the list's rows of woIDs: they were assigned.
	Untick(woIDs []int64)
	// StopCorrecting gives up correcting the refused action: it stays as
	// it was. StopCorrectingIfAny does so only while one is corrected.
	StopCorrecting()
	StopCorrectingIfAny()
	// Corrected says that the refused action of group on woID being
	// corrected, if any, was replaced: it is no longer being corrected.
	Corrected(woID int64, group outbox.Group)
}
