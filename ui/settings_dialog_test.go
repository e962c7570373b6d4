package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// labelsIn lists the labels under o with their importance.
func labelsIn(o fyne.CanvasObject) []*widget.Label {
	var out []*widget.Label
	walk(o, func(c fyne.CanvasObject) {
		if l, ok := c.(*widget.Label); ok {
			out = append(out, l)
		}
	})
	return out
}

// TestConnectionResultsAreReadable runs Test connection against the
// sandbox with no certificate: every step gets its own line in a panel
// tall enough to read several, and the missing certificate is a warning,
// not a tick.
func TestConnectionResultsAreReadable(t *testing.T) {
	h := newHarness(t)
	h.desk.deps.TestConnection = func(ctx context.Context, conn api.Connection, report func(api.Check)) bool {
		return api.Diagnose(ctx, conn, nil, report)
	}
	h.menuItem("Live connection…").Action()
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	test.Type(formEntry(t, dlg, "Base URL"), h.info.BaseURL)
	test.Type(formEntry(t, dlg, "Token URL"), h.info.TokenURL)
	test.Type(formEntry(t, dlg, "Client id"), h.info.ClientID)
	test.Type(formEntry(t, dlg, "Client secret"), h.info.ClientSecret)
	test.Tap(buttonIn(t, dlg, "Test connection"))
	h.flush()

	var cert, last *widget.Label
	var scroll *container.Scroll
	walk(dlg, func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && len(labelsIn(s)) >= 5 {
			scroll = s
		}
	})
	if scroll == nil {
		t.Fatalf("no panel lists the checks; the dialog says %q", h.overlayText())
	}
	rows := labelsIn(scroll)
	for _, l := range rows {
		if strings.HasPrefix(l.Text, "Certificate:") {
			cert = l
		}
	}
	last = rows[len(rows)-1]
	if cert == nil || cert.Importance != widget.WarningImportance || !strings.Contains(cert.Text, "notifications will not be received") {
		t.Fatalf("the missing certificate should be a warning line; lines: %q", labelTexts(rows))
	}
	if last.Text != "The connection works; read the warning above." {
		t.Errorf("the summary says %q", last.Text)
	}
	if min := scroll.MinSize().Height; min < 4*widget.NewLabel("one line").MinSize().Height {
		t.Errorf("the results panel is %.0f px tall: fewer than four lines can be read", min)
	}
}

func labelTexts(ls []*widget.Label) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Text)
	}
	return out
}

// TestWithoutAKeyringTheDialogTellsTheTruth: with no keyring service, a
// saved secret is kept for the session only, the person is told so in plain
// words (one sentence, not one nested in another), and the reopened
// dialog does not claim the keyring holds it.
func TestWithoutAKeyringTheDialogTellsTheTruth(t *testing.T) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	h := newHarness(t)
	h.desk.deps.Secrets = storage.NewSecrets()

	h.menuItem("Live connection…").Action()
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	test.Type(formEntry(t, dlg, "Base URL"), "https://api.example.test/Direct/")
	test.Type(formEntry(t, dlg, "Token URL"), "https://api.example.test/oauth/token")
	test.Type(formEntry(t, dlg, "Client id"), "CLIENT1")
	test.Type(formEntry(t, dlg, "Client secret"), "s3cret")
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush()
	said := h.overlayText() // lower case
	if !strings.Contains(said, "no keyring service found: install gnome keyring or kwallet. the client secret is held in memory until you quit") {
		t.Fatalf("after saving without a keyring the window says %q", said)
	}
	if strings.Contains(said, "(") || strings.Contains(said, "saved in the system keyring") {
		t.Errorf("the explanation nests or contradicts itself: %q", said)
	}
	h.dismissOverlays()

	h.menuItem("Live connection…").Action()
	h.flush()
	if f := formEntry(t, h.win.Canvas().Overlays().Top(), "Client secret"); !strings.Contains(f.PlaceHolder, "kept for this session only") {
		t.Errorf("the reopened dialog says %q about a secret no keyring holds", f.PlaceHolder)
	}
}

// TestTheNotificationURLIsTheOneToGiveTheCustomer: the dialog names the
// whole URL with its path, not host:port.
func TestTheNotificationURLIsTheOneToGiveTheCustomer(t *testing.T) {
	for _, c := range []struct {
		s    LiveSettings
		want string
	}{
		{LiveSettings{ReceiverPort: 8090}, "http://127.0.0.1:8090/notify"},
		{LiveSettings{ReceiverPort: 8443, ListenAll: true}, ":8443/notify"},
		{LiveSettings{}, "set a fixed port"},
	} {
		if got := c.s.NotificationURL(); !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want it to name %q", c.s, got, c.want)
		}
	}
}
