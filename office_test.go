package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/settings"
)

// `workdesk --hub URL` with the person's credentials in the environment
// opens office mode on a replica of its own (not Demo's, not Live's), with
// no receiver; without credentials it says where to give them. It drives
// the backend main builds for the window, without a window: the Fyne test
// driver would run the window's background sync on the test's goroutines.
func TestHubFlagOpensOfficeModeOnItsOwnReplica(t *testing.T) {
	keyring.MockInit()
	const hub = "http://127.0.0.1:9/" // nothing listens: office mode opens all the same
	t.Setenv("WORKDESK_CLIENT_ID", "")
	t.Setenv("WORKDESK_CLIENT_SECRET", "")
	a := test.NewTempApp(t)
	dir := t.TempDir()
	s := &session{app: a, flags: guiFlags{dataDir: dir, hub: hub}, secrets: storage.NewSecrets()}
	ctx := context.Background()
	if _, _, _, err := s.officeCredentials(ctx); err == nil || !strings.Contains(err.Error(), "WORKDESK_CLIENT_ID") {
		t.Fatalf("without credentials: %v, want a word on WORKDESK_CLIENT_ID", err)
	}
	if _, err := startOffice(ctx, dir, "hub.office.example", "hub-ana", "x", hubTLS{}); err == nil || !strings.Contains(err.Error(), "https://") {
		t.Fatalf("a hub address without a scheme: %v", err)
	}

	t.Setenv("WORKDESK_CLIENT_ID", "hub-ana")
	t.Setenv("WORKDESK_CLIENT_SECRET", "not-the-service-secret")
	id, secret, _, err := s.officeCredentials(ctx)
	if err != nil || id != "hub-ana" || secret != "not-the-service-secret" {
		t.Fatalf("credentials from the environment: %q %q %v", id, secret, err)
	}
	b, err := startOffice(ctx, dir, hub, id, secret, hubTLS{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if b.person == nil || b.sb != nil {
		t.Fatal("--hub did not open office mode")
	}
	want := filepath.Join(dir, storage.OfficeProfile("http://127.0.0.1:9", "hub-ana")+".db")
	if got := b.Store.Path(); got != want {
		t.Errorf("office replica %s, want %s", got, want)
	}
	for _, other := range []string{storage.DemoProfile, storage.ProfileForBaseURL(hub)} {
		if strings.HasSuffix(b.Store.Path(), string(filepath.Separator)+other+".db") {
			t.Errorf("office mode shares the %s replica", other)
		}
	}
	if got := b.ReceiverStatus(); got != "off" {
		t.Errorf("office mode runs a receiver: %s", got)
	}
	if h := b.health(); h.Stream == storage.StreamOff {
		t.Errorf("the status bar hears of no event stream: %+v", h)
	}
}

// officeUsedLast is a person who used office mode before this start: the
// hub and client id in the preferences, and perhaps the secret in the
// keyring.
func officeUsedLast(t *testing.T, secret string) (*session, string) {
	t.Helper()
	keyring.MockInit()
	t.Setenv("WORKDESK_CLIENT_ID", "")
	t.Setenv("WORKDESK_CLIENT_SECRET", "")
	const hub = "http://127.0.0.1:9" // nothing listens: office mode opens all the same
	a := test.NewTempApp(t)
	settings.Office{HubURL: hub, ClientID: "hub-ana"}.Save(a.Preferences())
	settings.SetOfficeInUse(a.Preferences(), true)
	s := &session{app: a, flags: guiFlags{dataDir: t.TempDir()}, secrets: storage.NewSecrets(),
		do: (&mainQueue{}).do} // the test driver would run fyne.Do on the calling goroutine: what the window's background hands it waits here
	if secret != "" {
		if err := s.secrets.Set(context.Background(), "hub-ana", secret); err != nil {
			t.Fatal(err)
		}
	}
	return s, hub
}

// A restart after office mode opens office mode again, on the saved hub
// with the saved client id and the secret from the keyring: no flag, no
// retyping.
func TestRestartReopensOfficeMode(t *testing.T) {
	s, hub := officeUsedLast(t, "not-the-service-secret")
	if got := s.officeHub(); got != hub {
		t.Fatalf("after office mode the next start opens %q, want the hub %s", got, hub)
	}
	b, notice, _, err := s.openOffice(context.Background(), s.officeHub())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if b.person == nil || b.Client == nil || notice != "" {
		t.Fatalf("not connected in office mode: person %v, client %v, notice %q", b.person, b.Client, notice)
	}
	if want := storage.OfficeProfile(hub, "hub-ana") + ".db"; filepath.Base(b.Store.Path()) != want {
		t.Errorf("replica %s, want %s", b.Store.Path(), want)
	}
}

// Without the secret in the keyring the restart opens the person's office
// replica, as last synced, with a banner asking for the secret: never the
// demo, as for Live (TestRestartWithoutTheSecretOpensTheLiveReplica).
func TestRestartWithoutTheOfficeSecretOpensTheOfficeReplica(t *testing.T) {
	s, hub := officeUsedLast(t, "")
	ctx := context.Background()
	path := filepath.Join(s.flags.dataDir, storage.OfficeProfile(hub, "hub-ana")+".db")
	kept, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := kept.SetSetting(ctx, "hub.person_name", "Ana Ruiz"); err != nil { // as the last connection left it
		t.Fatal(err)
	}
	kept.Close()

	if err := s.launch(true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.desk.Window().Close(); s.backend.Close() })
	if s.backend.sb != nil || s.backend.person == nil {
		t.Fatal("without the secret the app did not open office mode")
	}
	if got := s.backend.Store.Path(); got != path {
		t.Fatalf("the replica opened is %s, want the office one %s", got, path)
	}
	if s.backend.Client != nil {
		t.Fatal("connected without a secret")
	}
	var said []string
	hasButton := false
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch w := o.(type) {
		case *widget.Label:
			said = append(said, w.Text)
		case *widget.Button:
			hasButton = hasButton || w.Text == "Connect to office hub…"
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(s.desk.Window().Content())
	all := strings.Join(said, "\n")
	if !strings.Contains(all, "Not connected: the client secret for client id hub-ana is not saved on this computer") || !hasButton {
		t.Fatalf("the window does not ask for the secret (button shown: %v); it shows %q", hasButton, all)
	}
	if !strings.Contains(all, "Office · 127.0.0.1:9 · Ana Ruiz") {
		t.Errorf("the status bar does not say whose office replica this is: %q", all)
	}
}
