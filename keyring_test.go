package main

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// lockedKeyring is the error go-keyring gives for a GNOME Keyring whose
// login collection is locked (its unlock prompt dismissed, or none shown).
var lockedKeyring = errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'")

// mainQueue is fyne.Do for a session under test: work handed to the
// window is run on the test's goroutine when it flushes.
type mainQueue struct {
	mu sync.Mutex
	q  []func()
}

func (m *mainQueue) do(f func()) {
	m.mu.Lock()
	m.q = append(m.q, f)
	m.mu.Unlock()
}

func (m *mainQueue) flush() {
	for {
		m.mu.Lock()
		q := m.q
		m.q = nil
		m.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, f := range q {
			f()
		}
	}
}

// switchKeyring is a keyring that is locked until unlocked, safe to
// switch while the app asks it (go-keyring's mock is not).
type switchKeyring struct {
	mu      sync.Mutex
	locked  bool
	secrets map[string]string
}

func (k *switchKeyring) Get(_, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.locked {
		return "", lockedKeyring
	}
	v, ok := k.secrets[user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (k *switchKeyring) Set(_, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.locked {
		return lockedKeyring
	}
	k.secrets[user] = secret
	return nil
}

func (k *switchKeyring) Delete(string, string) error { return nil }

func (k *switchKeyring) unlock(user, secret string) {
	k.mu.Lock()
	k.locked = false
	k.secrets[user] = secret
	k.mu.Unlock()
}

// liveSession is an app configured for a live service (a sandbox) whose
// secret is not where the app can read it (the keyring k is locked), with
// the window's work run on the test's goroutine.
func liveSession(t *testing.T, k *switchKeyring) (*session, *mainQueue, sandbox.ConnectionInfo) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Seed: 3, WorkOrders: 60})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); sb.Close() })
	info := sb.InfoFor(srv.URL + "/")
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetString("live.base_url", info.BaseURL)
	p.SetString("live.token_url", info.TokenURL)
	p.SetString("live.client_id", info.ClientID)
	q := &mainQueue{}
	s := &session{app: a, flags: guiFlags{dataDir: t.TempDir()}, secrets: storage.NewSecretsOn(k),
		background: func(f func()) { f() }, do: q.do}
	t.Cleanup(func() {
		if s.stopWatch != nil {
			s.stopWatch()
		}
		if s.desk != nil {
			s.desk.Window().Close()
			s.backend.Close()
		}
	})
	return s, q, info
}

// said is every text the window (or its topmost dialog) shows.
func said(w fyne.Window) string {
	var out []string
	top := w.Canvas().Overlays().Top()
	if top == nil {
		top = w.Content()
	}
	eachShown(top, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, x.Text)
		case *canvas.Text:
			out = append(out, x.Text)
		}
	})
	return strings.Join(out, " | ")
}

// eachShown calls visit with o and every object shown under it.
func eachShown(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			eachShown(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			eachShown(c, visit)
		}
	}
}

func menuItem(t *testing.T, w fyne.Window, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no menu item %q", label)
	return nil
}

// formField is the entry beside label in the topmost dialog's form.
func formField(t *testing.T, w fyne.Window, label string) fyne.Focusable {
	t.Helper()
	var found fyne.Focusable
	eachShown(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if f, ok := o.(*widget.Form); ok {
			for _, it := range f.Items {
				if it.Text == label {
					found, _ = it.Widget.(fyne.Focusable)
				}
			}
		}
	})
	if found == nil {
		t.Fatalf("no %q field in the dialog: %s", label, said(w))
	}
	return found
}

func tapButton(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	var found fyne.Tappable
	eachShown(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if found != nil {
			return
		}
		switch b := o.(type) {
		case *widget.Button:
			if b.Text == text {
				found = b
			}
		case *dialogs.Button: // a dialog's own, which answers Enter and Esc
			if b.Text == text {
				found = b
			}
		}
	})
	if found == nil {
		t.Fatalf("no %q button in the dialog: %s", text, said(w))
	}
	test.Tap(found)
}

// TestALockedKeyringIsNoDeadEnd: the app starts with its live connection
// configured and the keyring locked. The window says what is true (the
// keyring is locked, not "no secret"), keeps File › Switch to Demo, and
// when the person types the secret in Connection settings and taps Save
// and connect, it connects at once, without a restart, saying in a banner
// that the secret is kept for this session only.
func TestALockedKeyringIsNoDeadEnd(t *testing.T) {
	s, q, info := liveSession(t, &switchKeyring{locked: true, secrets: map[string]string{}})
	if err := s.launch(true); err != nil {
		t.Fatal(err)
	}
	q.flush()
	w := s.desk.Window()
	if s.backend.Client != nil {
		t.Fatal("connected without the secret")
	}
	if got := said(w); !strings.Contains(got, "Not connected: the keyring is locked, so the client secret for client id "+info.ClientID+" cannot be read. Unlock the keyring and the window connects by itself") {
		t.Fatalf("the window does not say the keyring is locked: %s", got)
	}
	menuItem(t, w, "Switch to Demo")

	menuItem(t, w, "Live connection…").Action()
	q.flush()
	test.Type(formField(t, w, "Client secret"), info.ClientSecret)
	tapButton(t, w, "Save and connect")
	q.flush()
	if s.backend.Client == nil {
		t.Fatalf("Save and connect with the secret typed did not connect; the window says %s", said(s.desk.Window()))
	}
	if n, err := s.backend.Store.Count(context.Background()); err != nil || n == 0 {
		t.Fatalf("connected, but the first sync brought %d work orders (%v)", n, err)
	}
	if got := said(s.desk.Window()); !strings.Contains(got, "Your client secret is kept for this session only. The system keyring is locked.") {
		t.Fatalf("the window does not say the secret is kept for this session only: %s", got)
	}
}

// TestUnlockingTheKeyringConnects: the keyring was locked when the app
// started; once the person unlocks it, the window connects by itself.
func TestUnlockingTheKeyringConnects(t *testing.T) {
	keyringRetry = 20 * time.Millisecond
	t.Cleanup(func() { keyringRetry = 5 * time.Second })
	k := &switchKeyring{locked: true, secrets: map[string]string{}}
	s, q, info := liveSession(t, k)
	if err := s.launch(true); err != nil {
		t.Fatal(err)
	}
	q.flush()
	if s.backend.Client != nil {
		t.Fatal("connected without the secret")
	}

	k.unlock(info.ClientID, info.ClientSecret) // the secret was there all along
	for deadline := time.Now().Add(15 * time.Second); s.backend.Client == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the keyring was unlocked, but the window did not connect: %s", said(s.desk.Window()))
		}
		q.flush()
	}
	if got := said(s.desk.Window()); strings.Contains(got, "Not connected") || strings.Contains(got, "session only") {
		t.Fatalf("connected through the keyring, the window still says: %s", got)
	}
}

// TestHubWithoutCredentialsAsksForThem: `workdesk --hub URL` with no
// client id anywhere opens the window (from a shortcut there is no
// terminal to read an error in) with Connect to office hub… open on that
// hub.
func TestHubWithoutCredentialsAsksForThem(t *testing.T) {
	keyring.MockInit()
	t.Setenv("WORKDESK_CLIENT_ID", "")
	t.Setenv("WORKDESK_CLIENT_SECRET", "")
	a := test.NewTempApp(t)
	q := &mainQueue{}
	s := &session{app: a, flags: guiFlags{dataDir: t.TempDir(), hub: "http://127.0.0.1:9/"}, secrets: storage.NewSecrets(),
		background: func(f func()) { f() }, do: q.do}
	if err := s.launch(true); err != nil {
		t.Fatalf("--hub without credentials: %v; want the window, asking for them", err)
	}
	t.Cleanup(func() { s.desk.Window().Close(); s.backend.Close() })
	q.flush()
	got := said(s.desk.Window())
	if !strings.Contains(got, "Connect to office hub") && !strings.Contains(got, "Connect |") {
		t.Fatalf("the window does not ask for the credentials: %s", got)
	}
	if !strings.Contains(got, "http://127.0.0.1:9") {
		t.Fatalf("the dialog is not on the hub asked for: %s", got)
	}
	if s.backend.sb != nil || s.backend.person == nil {
		t.Fatal("--hub without credentials did not open office mode")
	}
}
