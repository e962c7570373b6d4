package storage

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// Keyring tests swap go-keyring's global provider, so none runs in parallel.

func TestSecretsKeyring(t *testing.T) {
	keyring.MockInit()
	ctx := context.Background()
	s := NewSecrets()
	if _, err := s.Get(ctx, "CLIENT1"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("Get before Set = %v; want ErrNoSecret", err)
	}
	if err := s.Set(ctx, "CLIENT1", "s3cret"); err != nil {
		t.Fatal(err)
	}
	// It is in the keyring under the app id, not just in this object.
	if v, err := keyring.Get(AppID, "CLIENT1"); err != nil || v != "s3cret" {
		t.Fatalf("keyring holds %q, %v", v, err)
	}
	if v, err := NewSecrets().Get(ctx, "CLIENT1"); err != nil || v != "s3cret" {
		t.Fatalf("a new session reads %q, %v", v, err)
	}
	if ok, reason := s.Persistent(); !ok || reason != "" {
		t.Errorf("Persistent = %v, %q", ok, reason)
	}
	if err := s.Delete(ctx, "CLIENT1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "CLIENT1"); !errors.Is(err, ErrNoSecret) {
		t.Errorf("Get after Delete = %v", err)
	}
	if err := s.Delete(ctx, "CLIENT1"); err != nil {
		t.Errorf("deleting what is not there: %v", err)
	}
}

func TestSecretsKeyringUnavailable(t *testing.T) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	defer keyring.MockInit()
	ctx := context.Background()
	s := NewSecrets()
	if err := s.Set(ctx, "CLIENT1", "s3cret"); err != nil {
		t.Fatalf("Set must still work for this session: %v", err)
	}
	if v, err := s.Get(ctx, "CLIENT1"); err != nil || v != "s3cret" {
		t.Fatalf("Get in the same session = %q, %v", v, err)
	}
	ok, reason := s.Persistent()
	if ok || reason != "No keyring service found: install GNOME Keyring or KWallet." {
		t.Errorf("Persistent = %v, %q", ok, reason)
	}
	if _, err := NewSecrets().Get(ctx, "CLIENT1"); !errors.Is(err, ErrNoSecret) {
		t.Errorf("a new session must not find a session-only secret: %v", err)
	}
}

// hangingKeyring is a locked keyring whose unlock prompt nobody answers.
type hangingKeyring struct{ release chan struct{} }

func (h hangingKeyring) Get(string, string) (string, error) { <-h.release; return "", nil }
func (h hangingKeyring) Set(string, string, string) error   { <-h.release; return nil }
func (h hangingKeyring) Delete(string, string) error        { <-h.release; return nil }

// promptingKeyring is a hangingKeyring that says when its prompt is up.
type promptingKeyring struct {
	hangingKeyring
	asked chan struct{}
}

func (p promptingKeyring) Set(service, user, secret string) error {
	select {
	case p.asked <- struct{}{}:
	default:
	}
	return p.hangingKeyring.Set(service, user, secret)
}

func TestSecretsKeyringTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := hangingKeyring{release: make(chan struct{})}
	defer close(h.release)
	s := NewSecrets()
	s.backend, s.timeout = h, 50*time.Millisecond
	start := time.Now()
	if err := s.Set(ctx, "CLIENT1", "s3cret"); err != nil {
		t.Fatalf("Set: %v", err)
	}
	if v, err := s.Get(ctx, "CLIENT1"); err != nil || v != "s3cret" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("a hanging keyring blocked the app for %v", took)
	}
	if ok, reason := s.Persistent(); ok || !strings.Contains(reason, "did not answer") {
		t.Errorf("Persistent = %v, %q", ok, reason)
	}
}

// TestSecretsWaitForUnlockWhenAsked: a save the person started may wait
// for the keyring's unlock prompt past the short timeout of background calls.
func TestSecretsWaitForUnlockWhenAsked(t *testing.T) {
	t.Parallel()
	release, asked := make(chan struct{}), make(chan struct{}, 1)
	s := NewSecrets()
	s.backend, s.timeout = promptingKeyring{hangingKeyring{release: release}, asked}, 50*time.Millisecond
	go func() {
		<-asked                   // the unlock prompt is up
		time.Sleep(4 * s.timeout) // the person takes longer than a background call waits
		close(release)            // and unlocks
	}()
	ctx, cancel := context.WithTimeout(context.Background(), PatientTimeout)
	defer cancel()
	if err := s.Set(ctx, "CLIENT1", "s3cret"); err != nil {
		t.Fatalf("Set: %v", err)
	}
	if ok, reason := s.Persistent(); !ok {
		t.Fatalf("a keyring unlocked after the short timeout was given up on: %q", reason)
	}
}
