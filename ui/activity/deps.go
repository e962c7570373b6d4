// Package activity is the Activity tab of a work order: what the customer
// did (its notifications) and what we did (our queued actions), newest
// first; a refused action of ours shows the service's message with Retry
// and Discard. It depends only on the small interfaces below, never on
// the window that shows it, so it is tested against a fake (fake_test.go).
package activity

import (
	"context"

	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the tab reads of the local replica (a *storage.Store):
// our actions on the work order and the notifications received for it.
type Replica interface {
	OutboxRows(ctx context.Context, woID int64) ([]storage.OutboxRow, error)
	Events(ctx context.Context, woID int64) ([]storage.EventRecord, error)
}

// Window is what the tab needs of the window around it.
type Window interface {
	// Retry sends a refused action of ours again; Discard gives it up once
	// the person confirms. Both take their turn in the window's outbox.
	Retry(rowID int64)
	Discard(rowID int64)
	// ColleagueFirst explains a refused action of ours by what a colleague
	// did first through the office hub ("Already accepted by Ben Okafor at
	// 10:02."); "" when nothing does.
	ColleagueFirst(woID int64, r storage.OutboxRow) string
	// OfficePerson is the name the office hub knows this window's person
	// by ("" when not in office mode or not known yet): their own actions
	// coming back from the hub are listed once, as ours.
	OfficePerson() string
}
