// Package status is the status bar at the bottom of the window: where the
// work orders come from (Demo, Live, the office hub), what waits in the
// outbox, how the last sync went or who is not answering, a passing note
// about what the person just did or what the service refused, a failed
// read of the list, and the progress of a sync, an upload or the invoice
// fetch; a click on the mode shows the connection's details. It depends
// only on the small interfaces below, never on the window that shows it,
// so it is tested against a fake (fake_test.go).
package status

import (
	"context"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the status bar reads of the local replica (a *storage.Store).
type Replica interface {
	// OutboxSummary is how many actions wait and how many were refused.
	OutboxSummary(ctx context.Context) (pending, failed int)
	// LastSync is when the last sync finished (zero: never).
	LastSync(ctx context.Context) time.Time
	// UnfinishedOutbox are the actions not yet sent or settled.
	UnfinishedOutbox(ctx context.Context) ([]storage.OutboxRow, error)
}

// Window is what the status bar needs of the window around it.
type Window interface {
	// Window shows the connection details' dialog.
	Window() fyne.Window
	// Every runs f on the main goroutine each period until the window closes.
	Every(period time.Duration, f func())
	// Syncing is whether a sync is under way (it owns the progress bar).
	Syncing() bool
	// SignInRefused shows or hides the banner saying the hub refused the
	// sign-in.
	SignInRefused(on bool)
}

// Connection is where the work orders come from, fixed for the window's life.
type Connection struct {
	Service string // the base URL of the service or the office hub
	Demo    bool   // the built-in sandbox
	Office  bool   // Service is an office hub
	// Health reports the connection now (nil: nothing to report).
	Health func() Health
}

// Health reports the connection for the status bar.
type Health struct {
	TokenValidUntil time.Time
	Receiver        string // "listening on 127.0.0.1:8090" or "off"
	// Office mode: the hub's event stream ("connected", "reconnecting")
	// and the person the hub knows the credentials by.
	Stream, Person string
	// Silent is who is not answering (the office hub, the customer's
	// service) and since when; nil while they answer.
	Silent *storage.Silence
	// Heard is when the service (or hub) last answered anything.
	Heard time.Time
}
