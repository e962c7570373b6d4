// Package visit is the Visit tab of a work order: who goes (and Assign…),
// the scheduled start, and check-in, pause and check-out, now or
// back-dated where the customer allows it, with the completion details
// the customer requires asked for at check-out. Every change is queued
// through the outbox. It depends only on the small interfaces below,
// never on the window that shows it, so it is tested against a fake
// (fake_test.go).
package visit

import (
	"context"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the tab reads of the local replica (a *storage.Store).
type Replica interface {
	// CustomerSettings is what the customer requires at check-out and
	// whether it allows back-dating; an error while no sync read them.
	CustomerSettings(ctx context.Context, customerID int64) (*api.CustomerSettings, error)
	// OutboxRows is our actions on the work order: the newest is said
	// under the buttons.
	OutboxRows(ctx context.Context, woID int64) ([]storage.OutboxRow, error)
	// AssigneesOf is whom this office assigned (or queued) where a work
	// order's record does not say who is assigned; it reads the outbox
	// and the colleagues' events, so the tab calls it inside Window.Run.
	AssigneesOf(ctx context.Context, ids []int64) (map[int64]storage.Assignees, error)
}

// Queue turns the visit's actions into outbox rows (a *storage.Store).
// Its calls may wait for the replica's writer: the tab makes them only
// inside Window.Act's write, off the main goroutine.
type Queue interface {
	CheckIn(ctx context.Context, woID int64, actual *time.Time, comment string) (*storage.OutboxRow, error)
	Pause(ctx context.Context, woID int64, actual *time.Time, comment string) (*storage.OutboxRow, error)
	CheckOutWith(ctx context.Context, woID int64, actual *time.Time, comment string, done api.Completion) (*storage.OutboxRow, error)
	CompleteWorkDetails(ctx context.Context, woID int64, comment string, done api.Completion) (*storage.OutboxRow, error)
	SetAppointment(ctx context.Context, woID int64, start time.Time, pte string) (*storage.OutboxRow, error)
}

// Window is what the tab needs of the window around it.
type Window interface {
	ShowError(err error)
	// Window is the window the tab's questions are asked over.
	Window() fyne.Window
	// Act queues an action the controls started: write runs off the main
	// goroutine, done gets its error back on it. The controls stay
	// disabled until then, whatever the rules say meanwhile (Enable).
	Act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error))
	// Enable sets w as the rules have it, unless an action w started is
	// still being queued: then it takes that state once the action is back.
	Enable(w fyne.Disableable, on bool)
	// Run runs work off the main goroutine; done gets its error back on it.
	Run(work func(ctx context.Context) error, done func(error))
	// Replacing is the context to queue an action on work order woID from
	// the form of group with: while the person corrects a refused action
	// there, the new one replaces it. Read it when the person acts.
	Replacing(woID int64, group outbox.Group) context.Context
	// KeptComment is the comment the refused action on woID being
	// corrected in form carried (a check-out's form has no field for it).
	KeptComment(woID int64, form outbox.Form) string
	// KeptPte is the access type ("Appointment", "Call first") a new
	// scheduled start of wo goes out with, so that moving it never drops it.
	KeptPte(wo *api.WorkOrder) string
	// Unreachable says whether actions queued now will likely wait: the
	// service is not answering, or queued actions wait after a network error.
	Unreachable() bool
	// AssignCrew opens the Assign dialog for work order woID.
	AssignCrew(woID int64)
}
