package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/settings"
)

// `workdesk --hub http://…` to another computer is refused (the person's
// secret and tokens would cross the network in the clear) unless the
// person allowed an unencrypted connection to that very address in
// Connect to office hub…; --hub-ca names a CA file that must hold one.
func TestHubFlagRefusesAnUnencryptedHubUnlessAllowed(t *testing.T) {
	keyring.MockInit()
	const hub = "http://192.0.2.10:9" // nothing listens: office mode opens all the same
	t.Setenv("WORKDESK_CLIENT_ID", "hub-ana")
	t.Setenv("WORKDESK_CLIENT_SECRET", "not-the-service-secret")
	a := test.NewTempApp(t)
	dir := t.TempDir()
	s := &session{app: a, flags: guiFlags{dataDir: dir, hub: hub}, secrets: storage.NewSecrets()}
	ctx := context.Background()
	open := func() error {
		b, _, _, err := s.openOffice(ctx, hub)
		if b != nil {
			b.Close()
		}
		return err
	}
	if err := open(); !errors.Is(err, storage.ErrUnencryptedHub) {
		t.Fatalf("--hub %s without the opt-in: %v, want it refused as unencrypted", hub, err)
	}
	settings.Office{HubURL: "http://192.0.2.11:9", ClientID: "hub-ana", AllowUnencrypted: true}.Save(a.Preferences())
	if err := open(); !errors.Is(err, storage.ErrUnencryptedHub) {
		t.Fatalf("--hub %s with the opt-in given for another hub: %v, want it refused", hub, err)
	}
	settings.Office{HubURL: hub, ClientID: "hub-ana", AllowUnencrypted: true}.Save(a.Preferences())
	if err := open(); err != nil {
		t.Fatalf("--hub %s with the opt-in: %v", hub, err)
	}

	notCA := filepath.Join(dir, "ca.pem")
	os.WriteFile(notCA, []byte("not a certificate"), 0o644)
	s.flags.hubCA = notCA
	if err := open(); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("--hub-ca naming a file without a certificate: %v", err)
	}
}
