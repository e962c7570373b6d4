package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/storage"
)

// missingSecret: a connection is configured but its client secret cannot
// be had: it is not saved on this computer, or the keyring cannot be read
// now (cause says which).
type missingSecret struct {
	clientID string
	cause    error // Secrets.Get's: ErrNoSecret, or a *storage.KeyringProblem
}

func (m *missingSecret) Error() string {
	return "the client secret for client id " + m.clientID + " cannot be read on this computer"
}

// keyring reports that the keyring, not the secret, is what is missing:
// worth waiting for.
func (m *missingSecret) keyring() bool {
	var p *storage.KeyringProblem
	return errors.As(m.cause, &p)
}

// notice is the window's banner: what is true, and what to do. fix names
// where the secret is typed, data what the window shows meanwhile.
func (m *missingSecret) notice(fix, data string) string {
	until := fmt.Sprintf(" Until then you see %s as last synced, and your actions wait in the outbox.", data)
	var p *storage.KeyringProblem
	switch {
	case errors.As(m.cause, &p) && p.Locked:
		return fmt.Sprintf("Not connected: the keyring is locked, so the client secret for client id %s cannot be read. "+
			"Unlock the keyring and the window connects by itself, or type the secret in %s.", m.clientID, fix) + until
	case errors.As(m.cause, &p):
		return fmt.Sprintf("Not connected: %s The client secret for client id %s cannot be read: type it in %s to connect for this session only.",
			p.Reason, m.clientID, fix) + until
	}
	return fmt.Sprintf("Not connected: the client secret for client id %s is not saved on this computer. Type it in %s to connect.", m.clientID, fix) + until
}

// keyringRetry is how soon a locked keyring is asked again; one with no
// keyring service behind it is asked less often (tests shorten both).
var (
	keyringRetry   = 5 * time.Second
	noKeyringRetry = 30 * time.Second
)

// waitForKeyring connects the window by itself once the keyring gives the
// secret it could not give when the window opened (the person unlocked
// it). The next launch, by any way, ends the wait.
func (s *session) waitForKeyring(m *missingSecret) {
	ctx, cancel := context.WithCancel(context.Background())
	s.stopWatch = cancel
	first := noKeyringRetry
	if p := (*storage.KeyringProblem)(nil); errors.As(m.cause, &p) && p.Locked {
		first = keyringRetry
	}
	do := s.do
	if do == nil {
		do = fyne.Do
	}
	s.secrets.WhenReadable(ctx, m.clientID, first, func(string) {
		do(func() {
			if ctx.Err() != nil {
				return // the window was replaced meanwhile
			}
			if err := s.launch(true); err != nil {
				s.desk.ShowError(err)
			}
		})
	})
}

// sessionOnly is the banner of a window connected with a secret that is
// kept for this session only ("" when the keyring keeps it).
func (s *session) sessionOnly() string {
	ok, why := s.secrets.Persistent()
	if ok {
		return ""
	}
	// why is a sentence of its own ("No keyring service found: …"): after
	// a colon its capital would read wrong.
	return "Your client secret is kept for this session only. " + why +
		" It is held in memory until you quit and never written to a file; you will be asked for it at the next start."
}
