// Package decision is whether the contractor takes the work: Accept on
// one work order (the one the detail shows) or on the list's ticked rows,
// and Reject… with its reason (required; final, so only its button
// rejects), a refused rejection put back with its reason. It depends only
// on the small interfaces below, never on the window that shows it, so it
// is tested against a fake (fake_test.go).
package decision

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Queue turns the decisions into outbox rows (a *storage.Store). Its
// calls may wait for the replica's writer: they are made only inside
// Window.Act's write, off the main goroutine.
type Queue interface {
	Accept(ctx context.Context, woID int64, comment string) (*storage.OutboxRow, error)
	BulkAccept(ctx context.Context, ids []int64) (*storage.OutboxRow, error)
	Reject(ctx context.Context, woID int64, reason string) (*storage.OutboxRow, error)
	BulkReject(ctx context.Context, ids []int64, reason string) (*storage.OutboxRow, error)
}

// Window is what the decisions need of the window around them.
type Window interface {
	// Window is the window the reason dialog is shown over.
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
	// Shown is the work order the detail shows (nil: none) with its
	// Accept and Reject… buttons.
	Shown() (wo *api.WorkOrder, accept, reject fyne.Disableable)
	// BulkControls are the list's Accept N and Reject N: while a bulk
	// action is being queued, neither starts another.
	BulkControls() []fyne.Disableable
	// KeepInList holds the list's rows of ids in place while they are
	// acted on; Untick unticks them once they are.
	KeepInList(ids ...int64)
	Untick(ids []int64)
	// ShowResults shows each work order's result of bulk action row as
	// the service answers, titled as its button reads ("Accept").
	ShowResults(title string, row *storage.OutboxRow, ids []int64)
}

// Decision accepts and rejects work orders.
type Decision struct {
	queue Queue
	win   Window
}

// New is the decisions, queued on queue and asked over win.
func New(queue Queue, win Window) *Decision {
	return &Decision{queue: queue, win: win}
}
