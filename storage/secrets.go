package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringTimeout bounds every keyring call: a locked collection waits for a
// GUI prompt with no timeout of its own, and the app must not hang on it.
const KeyringTimeout = 3 * time.Second

// ErrNoSecret means no secret is stored for that user.
var ErrNoSecret = errors.New("no secret stored")

// KeyringProblem is Get's error when the keyring cannot be read now: it is
// locked (or did not answer, which is how a locked one waiting on its
// unlock prompt looks), or there is none. It is not ErrNoSecret: the secret
// may well be there.
type KeyringProblem struct {
	Locked bool
	Reason string // one sentence a person can act on (keyringProblem)
}

func (p *KeyringProblem) Error() string { return p.Reason }

// Secrets keeps client secrets in the OS keyring under service AppID and
// user = the client id (or profile). When the keyring cannot be used (no
// Secret Service, locked, timed out, any error other than "not found") the
// secret is held in memory for this session only; Persistent says so and why.
// A secret is never written to a file, the database, settings or a log.
type Secrets struct {
	backend keyringBackend
	service string
	timeout time.Duration
	log     *slog.Logger

	mu          sync.Mutex
	mem         map[string]string
	unavailable string // reason the keyring is not used; "" while it works
	locked      bool   // the reason is a locked keyring (or one that did not answer)
	// busy is closed when the keyring call under way returns; nil when
	// none is. A call left waiting on an unlock prompt is never doubled.
	busy chan struct{}
}

// NewSecrets returns the keyring-backed store for the app.
func NewSecrets() *Secrets {
	return &Secrets{
		backend: osKeyring{},
		service: AppID,
		timeout: KeyringTimeout,
		log:     slog.Default().With("component", "secrets"),
		mem:     map[string]string{},
	}
}

// Keyring is go-keyring's API: the OS keyring in the app; tests give one
// that is locked, then unlocked, or hangs.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

type keyringBackend = Keyring

// NewSecretsOn returns a store on keyring k instead of the OS keyring.
func NewSecretsOn(k Keyring) *Secrets {
	s := NewSecrets()
	s.backend = k
	return s
}

type osKeyring struct{}

func (osKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osKeyring) Set(service, user, secret string) error   { return keyring.Set(service, user, secret) }
func (osKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// Persistent reports whether secrets survive a restart (the keyring works);
// when not, reason is one sentence saying what is wrong, in words a person
// can act on.
func (s *Secrets) Persistent() (ok bool, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unavailable != "" {
		return false, s.unavailable
	}
	return true, ""
}

// Get returns the secret for user: from memory when the keyring is
// unavailable, else from the keyring. ErrNoSecret when there is none.
func (s *Secrets) Get(ctx context.Context, user string) (string, error) {
	if v, ok := s.fromMemory(user); ok {
		return v, nil
	}
	if !s.usable() {
		return "", s.problem()
	}
	var secret string
	err := s.call(ctx, func() error {
		v, err := s.backend.Get(s.service, user)
		secret = v
		return err
	})
	switch {
	case err == nil:
		return secret, nil
	case errors.Is(err, keyring.ErrNotFound):
		return "", ErrNoSecret
	case errors.Is(err, context.Canceled):
		return "", err
	}
	s.markUnavailable(err)
	return "", s.problem()
}

// problem is why the keyring cannot be read (mu not held).
func (s *Secrets) problem() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &KeyringProblem{Locked: s.locked, Reason: s.unavailable}
}

// Set stores the secret for user. When the keyring is unavailable it keeps
// the secret in memory instead and still returns nil: the app works for this
// session, and Persistent tells the UI to say it will be asked again. Each
// save tries the keyring again (the person may have unlocked it since),
// unless a call to it still waits on its unlock prompt.
func (s *Secrets) Set(ctx context.Context, user, secret string) error {
	if user == "" {
		return errors.New("secrets: no client id to store the secret under")
	}
	err := s.call(ctx, func() error { return s.backend.Set(s.service, user, secret) })
	if err == nil {
		s.mu.Lock()
		delete(s.mem, user)
		s.unavailable, s.locked = "", false
		s.mu.Unlock()
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	s.markUnavailable(err)
	s.mu.Lock()
	s.mem[user] = secret
	s.mu.Unlock()
	return nil
}

// Delete forgets the secret for user, in memory and in the keyring.
func (s *Secrets) Delete(ctx context.Context, user string) error {
	s.mu.Lock()
	delete(s.mem, user)
	s.mu.Unlock()
	if !s.usable() {
		return nil
	}
	err := s.call(ctx, func() error { return s.backend.Delete(s.service, user) })
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	s.markUnavailable(err)
	return fmt.Errorf("secrets: the keyring could not delete the secret: %w", err)
}

func (s *Secrets) fromMemory(user string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.mem[user]
	return v, ok
}

func (s *Secrets) usable() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unavailable == ""
}

// errKeyringTimeout reports a keyring call that did not answer in time.
var errKeyringTimeout = errors.New("the keyring did not answer in time (it may be locked)")

// errKeyringBusy: an earlier call still waits on the keyring (its unlock
// prompt, most likely); another would only wait behind it.
var errKeyringBusy = errors.New("the keyring is still waiting to be unlocked")

// PatientTimeout is how long a save the person started waits: long enough
// to find and answer the keyring's unlock prompt.
const PatientTimeout = 2 * time.Minute

// call runs fn in a goroutine and gives up at ctx's deadline or, without
// one, after the timeout. A call that never returns leaks its goroutine,
// which is why one timeout marks the keyring unavailable for the rest of
// the session: no more goroutines pile up.
func (s *Secrets) call(ctx context.Context, fn func() error) error {
	cancel := func() {}
	if _, ok := ctx.Deadline(); !ok {
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
	}
	defer cancel()
	s.mu.Lock()
	if s.busy != nil {
		s.mu.Unlock()
		return errKeyringBusy
	}
	busy := make(chan struct{})
	s.busy = busy
	s.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		err := fn()
		s.mu.Lock()
		s.busy = nil
		s.mu.Unlock()
		close(busy)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return errKeyringTimeout
		}
		return ctx.Err()
	}
}

func (s *Secrets) markUnavailable(err error) {
	reason := keyringProblem(err)
	s.mu.Lock()
	first := s.unavailable == ""
	s.unavailable, s.locked = reason, keyringLocked(err)
	s.mu.Unlock()
	if first {
		// The error text comes from the keyring library and holds no secret.
		s.log.Warn("keyring unavailable; secrets kept in memory for this session", "err", err)
	}
}

// keyringLocked reports a keyring that is there but locked: its unlock
// prompt was dismissed, or it did not answer (waiting on that prompt).
func keyringLocked(err error) bool {
	if errors.Is(err, errKeyringTimeout) || errors.Is(err, errKeyringBusy) {
		return true
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unlock") || strings.Contains(msg, "locked")
}

// keyringProblem says in one plain sentence what is wrong with the keyring;
// what follows for the secret is for the caller to add.
func keyringProblem(err error) string {
	if errors.Is(err, errKeyringTimeout) || errors.Is(err, errKeyringBusy) {
		return "The system keyring did not answer; it may be locked."
	}
	if keyringLocked(err) {
		return "The system keyring is locked."
	}
	msg := err.Error()
	for _, sign := range []string{"org.freedesktop.secrets", "ServiceUnknown", "dbus", "DBUS_SESSION_BUS_ADDRESS", "secret service", "Secret Service"} {
		if strings.Contains(msg, sign) {
			return "No keyring service found: install GNOME Keyring or KWallet."
		}
	}
	return "The system keyring failed: " + strings.TrimSuffix(msg, ".") + "."
}

// WhenReadable waits, until ctx ends, for the keyring that could not be
// read to give user's secret, and then calls found with it: the person
// unlocked it, or a keyring service started. It asks again and again,
// never with a call of its own still waiting (a locked keyring's unlock
// prompt stays up until answered), each time a little later after a
// failure, so a prompt the person dismissed does not pop up at once again.
// Once the keyring answers, the secret goes to and comes from it again.
func (s *Secrets) WhenReadable(ctx context.Context, user string, first time.Duration, found func(secret string)) {
	go func() {
		wait := first
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			s.mu.Lock()
			busy := s.busy
			s.mu.Unlock()
			if busy != nil {
				select {
				case <-ctx.Done():
					return
				case <-busy:
				}
			}
			var v string
			// No short timeout: an unlock prompt takes the person's time.
			long, cancel := context.WithTimeout(ctx, time.Hour)
			err := s.call(long, func() error {
				var err error
				v, err = s.backend.Get(s.service, user)
				return err
			})
			cancel()
			switch {
			case ctx.Err() != nil:
				return
			case err == nil || errors.Is(err, keyring.ErrNotFound):
				s.mu.Lock()
				s.unavailable, s.locked = "", false
				s.mu.Unlock()
				s.log.Info("the keyring answers again")
				if err == nil && v != "" {
					found(v)
				}
				return
			}
			wait = min(2*wait, 5*time.Minute)
		}
	}()
}
