// Package settings is where the window connects to: the Live
// connection's settings (kept in the preferences, never the secret) and
// its dialog, with Test connection's steps listed as they run; the office
// hub's settings and the Connect to office hub dialog; and where a client
// secret typed in either is kept (the OS keyring, or this session only,
// said so). Nothing here waits on the keyring or the network on the main
// goroutine. It depends only on the small interfaces below, never on the
// window that shows it.
package settings

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
)

// Window is what the dialogs need of the window around them.
type Window interface {
	// Window is the window the dialogs are shown over.
	Window() fyne.Window
	ShowError(err error)
	// Info tells the person something that is not an error.
	Info(title, msg string)
	// Background runs work off the main goroutine; Do hands work back
	// to it.
	Background(f func())
	Do(f func())
	// Preferences are the app's, where the settings are kept.
	Preferences() fyne.Preferences
}

// Connecting is how the window connects, as main handed it over (ui.Deps):
// each is read when the person acts.
type Connecting interface {
	// Demo reports whether the window runs the built-in demo.
	Demo() bool
	// Secrets keeps the client secret; nil: no secret store is available.
	Secrets() SecretStore
	// TestConnection runs `workdesk doctor`'s checks on conn, each
	// reported as it ends; CanTestConnection is false where it cannot.
	CanTestConnection() bool
	TestConnection(ctx context.Context, conn api.Connection, report func(api.Check)) bool
	// SwitchMode restarts behind a new window on the live replica (or the
	// demo's); CanSwitchMode is false where the window cannot.
	CanSwitchMode() bool
	SwitchMode(live bool)
	// ConnectOffice saves the office connection (the secret in the
	// keyring) and opens office mode behind a new window;
	// CanConnectOffice is false where the window cannot.
	CanConnectOffice() bool
	ConnectOffice(s Office, secret string) error
	// AskOffice is the office hub the window was asked to open without
	// the person's client id and secret ("": none).
	AskOffice() string
}

// SecretStore keeps the client secret (storage.Secrets in the app).
type SecretStore interface {
	Get(ctx context.Context, user string) (string, error)
	Set(ctx context.Context, user, secret string) error
	Persistent() (ok bool, reason string)
}

// Dialogs opens the connection dialogs over the window.
type Dialogs struct {
	win  Window
	conn Connecting
}

// New is the dialogs, shown over win and connecting through conn.
func New(win Window, conn Connecting) *Dialogs {
	return &Dialogs{win: win, conn: conn}
}
