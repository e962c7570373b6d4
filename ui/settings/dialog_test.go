package settings

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// TestConnectionResultsAreReadable runs Test connection against the
// sandbox with no certificate: every step gets its own line in a panel
// tall enough to read several, and the missing certificate is a warning,
// not a tick.
func TestConnectionResultsAreReadable(t *testing.T) {
	sb := sandboxtest.New(t)
	f := newFake(t)
	f.test = func(ctx context.Context, conn api.Connection, report func(api.Check)) bool {
		return api.Diagnose(ctx, conn, nil, report)
	}
	f.dialogs.ShowLive()
	test.Type(f.entry("Base URL"), sb.Info.BaseURL)
	test.Type(f.entry("Token URL"), sb.Info.TokenURL)
	test.Type(f.entry("Client id"), sb.Info.ClientID)
	test.Type(f.entry("Client secret"), sb.Info.ClientSecret)
	test.Tap(f.button("Test connection"))

	var cert, last *widget.Label
	var scroll *container.Scroll
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && len(labels(s)) >= 5 {
			scroll = s
		}
	})
	if scroll == nil {
		t.Fatalf("no panel lists the checks; the dialog says %q", f.said())
	}
	rows := labels(scroll)
	var lines []string
	for _, l := range rows {
		lines = append(lines, l.Text)
		if strings.HasPrefix(l.Text, "Certificate:") {
			cert = l
		}
	}
	last = rows[len(rows)-1]
	if cert == nil || cert.Importance != widget.WarningImportance || !strings.Contains(cert.Text, "notifications will not be received") {
		t.Fatalf("the missing certificate should be a warning line; lines: %q", lines)
	}
	if last.Text != "The connection works; read the warning above." {
		t.Errorf("the summary says %q", last.Text)
	}
	if min := scroll.MinSize().Height; min < 4*widget.NewLabel("one line").MinSize().Height {
		t.Errorf("the results panel is %.0f px tall: fewer than four lines can be read", min)
	}
}

// TestWithoutAKeyringTheDialogTellsTheTruth: with no keyring service, a
// saved secret is kept for the session only, the person is told so in plain
// words (one sentence, not one nested in another), and the reopened
// dialog does not claim the keyring holds it.
func TestWithoutAKeyringTheDialogTellsTheTruth(t *testing.T) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	f := newFake(t)
	f.secrets = storage.NewSecrets()

	f.dialogs.ShowLive()
	test.Type(f.entry("Base URL"), "https://api.example.test/Direct/")
	test.Type(f.entry("Token URL"), "https://api.example.test/oauth/token")
	test.Type(f.entry("Client id"), "CLIENT1")
	test.Type(f.entry("Client secret"), "s3cret")
	test.Tap(f.button("Save"))
	said := f.said()
	if !strings.Contains(said, "no keyring service found: install gnome keyring or kwallet. the client secret is held in memory until you quit") {
		t.Fatalf("after saving without a keyring the window says %q", said)
	}
	if strings.Contains(said, "(") || strings.Contains(said, "saved in the system keyring") {
		t.Errorf("the explanation nests or contradicts itself: %q", said)
	}
	f.dismiss()

	f.dialogs.ShowLive()
	if e := f.entry("Client secret"); !strings.Contains(e.PlaceHolder, "kept for this session only") {
		t.Errorf("the reopened dialog says %q about a secret no keyring holds", e.PlaceHolder)
	}
}

// TestSavingLiveSettingsReconnects: in Live mode, Save (not only Save and
// connect) reconnects, so that a certificate replaced on disk, or a new
// address, takes effect at once rather than at the next start. main's
// reconnect reads the certificate file again (TestReconnectReadsTheReplacedCertificate).
func TestSavingLiveSettingsReconnects(t *testing.T) {
	keyring.MockInit()
	sb := sandboxtest.New(t)
	f := newFake(t)
	f.secrets = storage.NewSecrets()
	f.demo, f.canSwitch = false, true

	f.dialogs.ShowLive()
	test.Type(f.entry("Base URL"), "https://api.example.test/Direct/")
	test.Type(f.entry("Token URL"), "https://api.example.test/oauth/token")
	test.Type(f.entry("Client id"), "CLIENT1")
	test.Type(f.entry("Client secret"), "s3cret")
	cert := filepath.Join(t.TempDir(), "new-cert.pem")
	if err := os.WriteFile(cert, sb.Info.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	test.Type(f.entry("Certificate"), cert)
	test.Tap(f.button("Save"))
	if len(f.switched) != 1 || !f.switched[0] {
		t.Fatalf("Save in Live mode reconnected %v; want once, to Live (the window says %q, errors %q)", f.switched, f.said(), f.Errors)
	}
	if got := LoadLive(f.prefs).CertPath; got != cert {
		t.Errorf("the saved certificate is %q", got)
	}
}

// TestLiveConnectionPortAndMessages: the receiver port is empty with a
// placeholder when any free port will do, an empty port saves as 0, and
// Test connection's message about a mistake reads as a sentence.
func TestLiveConnectionPortAndMessages(t *testing.T) {
	f := newFake(t)
	f.dialogs.ShowLive()
	port := f.entry("Receiver port")
	if port.Text != "" || port.PlaceHolder != "any free port" {
		t.Errorf("with no port set the field holds %q, placeholder %q", port.Text, port.PlaceHolder)
	}
	test.Type(f.entry("Base URL"), "am-api.example.test")
	test.Tap(f.button("Test connection"))
	var msg *widget.Label
	for _, l := range labels(f.top()) {
		if strings.Contains(strings.ToLower(l.Text), "base url must be") {
			msg = l
		}
	}
	if msg == nil {
		t.Fatal("Test connection says nothing about an incomplete base URL")
	}
	if !strings.HasPrefix(msg.Text, "The base URL must be") || msg.Importance != widget.DangerImportance {
		t.Errorf("the message reads %q (importance %v), want a capitalised sentence shown as a problem", msg.Text, msg.Importance)
	}

	// An empty port saves as any free port; a number is kept.
	f.entry("Base URL").SetText("https://am-api.example.test/Direct/")
	test.Type(f.entry("Token URL"), "https://oauth.example.test/OAuth/Token")
	test.Type(f.entry("Client id"), "client")
	test.Tap(f.button("Save"))
	if f.top() != nil || len(f.Errors) > 0 {
		t.Fatalf("saving with an empty port shows %q, errors %q", f.said(), f.Errors)
	}
	if got := LoadLive(f.prefs).ReceiverPort; got != 0 {
		t.Errorf("an empty port saved as %d, want 0 (any free port)", got)
	}
	f.dialogs.ShowLive()
	test.Type(f.entry("Receiver port"), "8443")
	test.Tap(f.button("Save"))
	if got := LoadLive(f.prefs).ReceiverPort; got != 8443 {
		t.Errorf("port 8443 saved as %d", got)
	}
	f.dialogs.ShowLive()
	if got := f.entry("Receiver port").Text; got != "8443" {
		t.Errorf("the saved port shows as %q", got)
	}
}

// Connect to office hub… refuses an address that is not one, in plain
// words and without connecting; with a good one it hands over the hub,
// the client id and the secret, and saves the first two (never the
// secret) in the preferences.
func TestConnectToOfficeHubDialog(t *testing.T) {
	keyring.MockInit()
	f := newFake(t)
	f.secrets = storage.NewSecrets()
	var got []string
	f.connect = func(s Office, secret string) error {
		got = append(got, s.HubURL, s.ClientID, secret)
		s.Save(f.prefs)
		return nil
	}
	f.dialogs.ShowOffice()
	test.Type(f.entry("Hub address"), "hub.office.example")
	test.Type(f.entry("Your client id"), "bo")
	test.Type(f.entry("Your client secret"), "s3cret")
	test.Tap(f.button("Connect"))
	if got != nil || !strings.Contains(f.said(), "must start with https://") {
		t.Fatalf("a bad address: connected with %q; dialog says %q", got, f.said())
	}
	f.entry("Hub address").SetText("https://hub.office.example/")
	test.Tap(f.button("Connect"))
	if !slices.Equal(got, []string{"https://hub.office.example", "bo", "s3cret"}) {
		t.Fatalf("connected with %q", got)
	}
	if f.top() != nil {
		t.Fatal("the dialog stays open after connecting")
	}
	saved := LoadOffice(f.prefs)
	if saved.HubURL != "https://hub.office.example" || saved.ClientID != "bo" {
		t.Fatalf("saved %+v", saved)
	}
	if kept, err := f.secrets.Get(context.Background(), "bo"); err != nil || kept != "s3cret" {
		t.Fatalf("the keyring holds %q (%v), want the secret typed", kept, err)
	}

	// Next time the secret is in the keyring: the dialog says so and
	// connects without it being typed again.
	got = nil
	f.dialogs.ShowOffice()
	if ph := f.entry("Your client secret").PlaceHolder; !strings.Contains(ph, "saved in the system keyring") {
		t.Fatalf("the secret's placeholder says %q", ph)
	}
	test.Tap(f.button("Connect"))
	if !slices.Equal(got, []string{"https://hub.office.example", "bo", "s3cret"}) {
		t.Fatalf("connected with %q, want the saved secret", got)
	}
}

// Connect to office hub… refuses an http:// hub across the network, saying
// it would be unencrypted, until the person ticks "Allow an unencrypted
// connection"; the choice and the office's CA file are saved with the hub.
func TestConnectToOfficeHubRefusesUnencryptedUnlessAllowed(t *testing.T) {
	keyring.MockInit()
	f := newFake(t)
	f.secrets = storage.NewSecrets()
	var got *Office
	f.connect = func(s Office, secret string) error {
		got = &s
		s.Save(f.prefs)
		return nil
	}
	f.dialogs.ShowOffice()
	test.Type(f.entry("Hub address"), "http://10.0.0.5:8095")
	test.Type(f.entry("Your client id"), "bo")
	test.Type(f.entry("Your client secret"), "s3cret")
	test.Type(f.entry("Office CA file"), "/etc/office-ca.pem")
	test.Tap(f.button("Connect"))
	if got != nil || !strings.Contains(f.said(), "unencrypted") {
		t.Fatalf("an http:// hub across the network: connected with %+v; the dialog says %q", got, f.said())
	}
	test.Tap(f.check("Allow an unencrypted connection (http://)"))
	test.Tap(f.button("Connect"))
	if got == nil || got.HubURL != "http://10.0.0.5:8095" || !got.AllowUnencrypted || got.CAFile != "/etc/office-ca.pem" {
		t.Fatalf("with the box ticked: connected with %+v", got)
	}
	saved := LoadOffice(f.prefs)
	if !saved.AllowUnencrypted || saved.CAFile != "/etc/office-ca.pem" {
		t.Fatalf("saved %+v", saved)
	}
	// Opened again, the dialog shows the choice made.
	f.dialogs.ShowOffice()
	if !f.check("Allow an unencrypted connection (http://)").Checked || f.entry("Office CA file").Text != "/etc/office-ca.pem" {
		t.Fatal("the dialog forgot the choices saved")
	}
}

// An office hub the window was asked to open fills the address, without
// another hub's client id.
func TestConnectToOfficeHubOffersTheHubAskedFor(t *testing.T) {
	f := newFake(t)
	Office{HubURL: "https://hub.one.example", ClientID: "bo"}.Save(f.prefs)
	f.ask = "https://hub.two.example/"
	f.dialogs.ShowOffice()
	if hub, id := f.entry("Hub address").Text, f.entry("Your client id").Text; hub != "https://hub.two.example" || id != "" {
		t.Errorf("asked for another hub, the dialog offers %q with client id %q", hub, id)
	}
	f.dismiss()
	f.ask = "https://hub.one.example"
	f.dialogs.ShowOffice()
	if hub, id := f.entry("Hub address").Text, f.entry("Your client id").Text; hub != "https://hub.one.example" || id != "bo" {
		t.Errorf("asked for the saved hub, the dialog offers %q with client id %q", hub, id)
	}
}
