package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/storage"
)

// TestSavingLiveSettingsReconnects: in Live mode, Save (not only Save and
// connect) reconnects, so that a certificate replaced on disk, or a new
// address, takes effect at once rather than at the next start. main's
// reconnect reads the certificate file again (TestReconnectReadsTheReplacedCertificate).
func TestSavingLiveSettingsReconnects(t *testing.T) {
	keyring.MockInit()
	h := newHarness(t)
	h.desk.deps.Secrets = storage.NewSecrets()
	h.desk.deps.Demo = false
	var switched []bool
	h.desk.deps.SwitchMode = func(toLive bool) { switched = append(switched, toLive) }

	h.menuItem("Live connection…").Action()
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	test.Type(formEntry(t, dlg, "Base URL"), "https://api.example.test/Direct/")
	test.Type(formEntry(t, dlg, "Token URL"), "https://api.example.test/oauth/token")
	test.Type(formEntry(t, dlg, "Client id"), "CLIENT1")
	test.Type(formEntry(t, dlg, "Client secret"), "s3cret")
	cert := filepath.Join(t.TempDir(), "new-cert.pem")
	if err := os.WriteFile(cert, h.info.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	test.Type(formEntry(t, dlg, "Certificate"), cert)
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush()
	if len(switched) != 1 || !switched[0] {
		t.Fatalf("Save in Live mode reconnected %v; want once, to Live (the window says %q)", switched, h.overlayText())
	}
	if got := LoadLiveSettings(fyne.CurrentApp().Preferences()).CertPath; got != cert {
		t.Errorf("the saved certificate is %q", got)
	}
}
