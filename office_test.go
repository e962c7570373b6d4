package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/storage"
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
	if _, _, err := s.officeCredentials(ctx); err == nil || !strings.Contains(err.Error(), "WORKDESK_CLIENT_ID") {
		t.Fatalf("without credentials: %v, want a word on WORKDESK_CLIENT_ID", err)
	}
	if _, err := startOffice(ctx, dir, "hub.office.example", "hub-ana", "x"); err == nil || !strings.Contains(err.Error(), "https://") {
		t.Fatalf("a hub address without a scheme: %v", err)
	}

	t.Setenv("WORKDESK_CLIENT_ID", "hub-ana")
	t.Setenv("WORKDESK_CLIENT_SECRET", "not-the-service-secret")
	id, secret, err := s.officeCredentials(ctx)
	if err != nil || id != "hub-ana" || secret != "not-the-service-secret" {
		t.Fatalf("credentials from the environment: %q %q %v", id, secret, err)
	}
	b, err := startOffice(ctx, dir, hub, id, secret)
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
