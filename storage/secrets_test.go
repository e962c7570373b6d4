package storage

import (
	"context"
	"errors"
	"strings"
	"sync"
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
	var p *KeyringProblem
	if v, err := NewSecrets().Get(ctx, "CLIENT1"); v != "" || !errors.As(err, &p) {
		t.Errorf("a new session must not find a session-only secret, and say why: %q, %v", v, err)
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

// lockedKeyring is a keyring whose collection is locked until unlock is
// called; while locked each call waits for its unlock prompt (prompt) or
// fails as a dismissed prompt does. It counts calls under way at once.
type lockedKeyring struct {
	mu       sync.Mutex
	locked   bool
	prompt   chan struct{} // non-nil: calls wait here while locked
	secrets  map[string]string
	now, top int
}

func (k *lockedKeyring) enter() {
	k.mu.Lock()
	k.now++
	k.top = max(k.top, k.now)
	k.mu.Unlock()
}

func (k *lockedKeyring) leave() {
	k.mu.Lock()
	k.now--
	k.mu.Unlock()
}

func (k *lockedKeyring) wait() error {
	k.mu.Lock()
	locked, prompt := k.locked, k.prompt
	k.mu.Unlock()
	if !locked {
		return nil
	}
	if prompt != nil {
		<-prompt
		return nil
	}
	return errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'")
}

func (k *lockedKeyring) unlock() {
	k.mu.Lock()
	k.locked = false
	if k.prompt != nil {
		close(k.prompt)
	}
	k.mu.Unlock()
}

func (k *lockedKeyring) Get(_, user string) (string, error) {
	k.enter()
	defer k.leave()
	if err := k.wait(); err != nil {
		return "", err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.secrets[user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (k *lockedKeyring) Set(_, user, secret string) error {
	k.enter()
	defer k.leave()
	if err := k.wait(); err != nil {
		return err
	}
	k.mu.Lock()
	k.secrets[user] = secret
	k.mu.Unlock()
	return nil
}

func (k *lockedKeyring) Delete(string, string) error { return nil }

// TestALockedKeyringIsToldAsLocked: a locked keyring is not "no secret":
// Get says the keyring is locked, and that a secret may be there.
func TestALockedKeyringIsToldAsLocked(t *testing.T) {
	s := NewSecrets()
	s.backend = &lockedKeyring{locked: true, secrets: map[string]string{"CLIENT1": "s3cret"}}
	_, err := s.Get(context.Background(), "CLIENT1")
	var p *KeyringProblem
	if !errors.As(err, &p) || !p.Locked || errors.Is(err, ErrNoSecret) {
		t.Fatalf("Get from a locked keyring = %v; want a KeyringProblem saying it is locked", err)
	}
	if ok, reason := s.Persistent(); ok || reason != "The system keyring is locked." {
		t.Errorf("Persistent = %v, %q", ok, reason)
	}

	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	defer keyring.MockInit()
	_, err = NewSecrets().Get(context.Background(), "CLIENT1")
	if !errors.As(err, &p) || p.Locked || !strings.Contains(p.Reason, "No keyring service") {
		t.Fatalf("Get with no keyring service = %v; want a KeyringProblem saying there is none", err)
	}
}

// TestTheSecretIsReadOnceTheKeyringIsUnlocked: the keyring was locked when
// the app started; once the person unlocks it, WhenReadable hands over the
// secret, and the keyring is used again. While its unlock prompt is up,
// no second call is made to it, and a save goes to memory at once.
func TestTheSecretIsReadOnceTheKeyringIsUnlocked(t *testing.T) {
	k := &lockedKeyring{locked: true, prompt: make(chan struct{}), secrets: map[string]string{"CLIENT1": "s3cret"}}
	s := NewSecrets()
	s.backend, s.timeout = k, 50*time.Millisecond
	if _, err := s.Get(context.Background(), "CLIENT1"); err == nil {
		t.Fatal("a keyring waiting on its unlock prompt gave the secret")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	found := make(chan string, 1)
	s.WhenReadable(ctx, "CLIENT1", 10*time.Millisecond, func(v string) { found <- v })
	time.Sleep(200 * time.Millisecond) // WhenReadable tries meanwhile; the prompt is up
	if err := s.Set(context.Background(), "OTHER", "typed"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get(context.Background(), "OTHER"); v != "typed" {
		t.Fatalf("a save while the keyring waits for its prompt was lost: %q", v)
	}
	k.unlock()
	select {
	case v := <-found:
		if v != "s3cret" {
			t.Fatalf("WhenReadable found %q", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the unlocked keyring's secret was never read")
	}
	if ok, reason := s.Persistent(); !ok {
		t.Errorf("the unlocked keyring is still said unusable: %q", reason)
	}
	k.mu.Lock()
	top := k.top
	k.mu.Unlock()
	if top > 1 {
		t.Errorf("%d calls waited on the locked keyring at once; an unlock prompt would pop up as often", top)
	}
}
