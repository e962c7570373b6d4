package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/storage"
)

// Connect to office hub… refuses an http:// hub across the network, saying
// it would be unencrypted, until the person ticks "Allow an unencrypted
// connection"; the choice and the office's CA file are saved with the hub.
func TestConnectToOfficeHubRefusesUnencryptedUnlessAllowed(t *testing.T) {
	keyring.MockInit()
	h := newHarness(t)
	h.desk.deps.Secrets = storage.NewSecrets()
	var got *OfficeSettings
	h.desk.deps.ConnectOffice = func(s OfficeSettings, secret string) error {
		got = &s
		s.Save(h.desk.app.Preferences())
		return nil
	}
	h.win.SetMainMenu(h.desk.mainMenu())
	h.menuItem("Connect to office hub…").Action()
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	test.Type(formEntry(t, dlg, "Hub address"), "http://10.0.0.5:8095")
	test.Type(formEntry(t, dlg, "Your client id"), "bo")
	test.Type(formEntry(t, dlg, "Your client secret"), "s3cret")
	test.Type(formEntry(t, dlg, "Office CA file"), "/etc/office-ca.pem")
	test.Tap(buttonIn(t, dlg, "Connect"))
	h.flush()
	if got != nil || !strings.Contains(h.overlayText(), "unencrypted") {
		t.Fatalf("an http:// hub across the network: connected with %+v; the dialog says %q", got, h.overlayText())
	}
	test.Tap(checkIn(t, dlg, "Allow an unencrypted connection (http://)"))
	test.Tap(buttonIn(t, dlg, "Connect"))
	h.flush()
	if got == nil || got.HubURL != "http://10.0.0.5:8095" || !got.AllowUnencrypted || got.CAFile != "/etc/office-ca.pem" {
		t.Fatalf("with the box ticked: connected with %+v", got)
	}
	saved := LoadOfficeSettings(h.desk.app.Preferences())
	if !saved.AllowUnencrypted || saved.CAFile != "/etc/office-ca.pem" {
		t.Fatalf("saved %+v", saved)
	}
	// Opened again, the dialog shows the choice made.
	h.menuItem("Connect to office hub…").Action()
	h.flush()
	dlg = h.win.Canvas().Overlays().Top()
	if !checkIn(t, dlg, "Allow an unencrypted connection (http://)").Checked || formEntry(t, dlg, "Office CA file").Text != "/etc/office-ca.pem" {
		t.Fatal("the dialog forgot the choices saved")
	}
}
