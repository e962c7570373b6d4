// Package summary is the Summary tab of a work order: every field the
// service gave that the person may need (what it is, its status and what
// that means for them now, the service level and its deadlines, the
// contact, the site, the IVR check-in, how far its procedures are, the
// equipment), under Job sheet…. It depends only on the small interfaces
// below, never on the window that shows it, so it is tested against a
// fake (fake_test.go).
package summary

import (
	"context"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the tab reads of the local replica (a *storage.Store).
type Replica interface {
	// Invoice is the replica's copy of the work order's invoice: once it
	// is submitted, its status says what comes next.
	Invoice(ctx context.Context, woID int64) (*api.Invoice, error)
	// Events and OutboxRows are the notifications received for the work
	// order and our actions on it: a rejected work order's reason is read
	// from them.
	Events(ctx context.Context, woID int64) ([]storage.EventRecord, error)
	OutboxRows(ctx context.Context, woID int64) ([]storage.OutboxRow, error)
}

// Window is what the tab needs of the window around it.
type Window interface {
	// ShowJobSheet offers wo's job sheet to open, save or print.
	ShowJobSheet(wo *api.WorkOrder)
}
