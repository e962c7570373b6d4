// Package procedures is the Procedures tab of a work order: its
// procedures and steps in a tree, the chosen step's editor (status, a
// value of its type, a comment) and its files, listed live from the
// service; a procedure marked N/A, or applicable again, where the customer
// allows it. Every change is queued through the outbox. It depends only on
// the small interfaces below, never on the window that shows it, so it is
// tested against a fake (fake_test.go).
package procedures

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/files"
)

// Replica is what the tab reads of the local replica (a *storage.Store):
// our queued actions, so that a step's files on their way are shown.
type Replica interface {
	files.Outbox
}

// Queue turns the person's changes to procedures and steps into outbox
// rows (a *storage.Store). Its calls may wait for the replica's writer:
// the tab makes them only inside Window.Act's or the file panel's writes,
// off the main goroutine.
type Queue interface {
	UpdateStep(ctx context.Context, ref api.StepRef, u api.StepUpdate) (*storage.OutboxRow, error)
	MarkProcedureNA(ctx context.Context, woID, procID int64) (*storage.OutboxRow, error)
	ClearProcedureNA(ctx context.Context, woID, procID int64) (*storage.OutboxRow, error)
	AddStepAttachment(ctx context.Context, step api.StepRef, path string) (*storage.OutboxRow, error)
	RemoveStepAttachment(ctx context.Context, step api.StepRef, attachmentID string) (*storage.OutboxRow, error)
}

// Links asks the service for a step's files and a temporary link to one
// (the window's connection): step files are not kept in the replica. It
// is called off the main goroutine, and only while files.Host says it is
// connected.
type Links interface {
	StepAttachments(ctx context.Context, step api.StepRef) ([]api.StepAttachment, error)
	StepAttachmentLink(ctx context.Context, step api.StepRef, attachmentID string) (api.DownloadURL, error)
}

// Window is what the tab needs of the window around it: its file panel's
// needs (files.Host: dialogs, errors, the queued note), and the actions it
// starts.
type Window interface {
	files.Host
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
	// Reload shows work order woID again as the replica has it, if it is
	// still open.
	Reload(woID int64)
	// AsSent is work order woID as the service last said it, without our
	// queued actions, when it is the one open (else nil): the step editor
	// tells by it a change still waiting to be sent.
	AsSent(woID int64) *api.WorkOrder
}
