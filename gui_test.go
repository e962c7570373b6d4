package main

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/storage"
)

// TestRestartWithoutTheSecretOpensTheLiveReplica: Live is configured but
// the keyring has no secret (it was session-only, or the keyring lost it).
// The app must open the live replica and say what to do, never fall back
// to the demo without a word.
func TestRestartWithoutTheSecretOpensTheLiveReplica(t *testing.T) {
	keyring.MockInit() // an empty keyring
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetString("live.base_url", "https://api.example.test/Direct/")
	p.SetString("live.token_url", "https://api.example.test/oauth/token")
	p.SetString("live.client_id", "CLIENT1")
	s := &session{app: a, flags: guiFlags{dataDir: t.TempDir()}, secrets: storage.NewSecrets()}
	if err := s.launch(true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.desk.Window().Close(); s.backend.Close() })

	if s.backend.sb != nil {
		t.Fatal("without the secret the app opened the demo")
	}
	if got := s.backend.Store.Path(); !strings.Contains(got, storage.ProfileForBaseURL("https://api.example.test/Direct/")) {
		t.Errorf("the replica opened is %s, not the live one", got)
	}
	var said []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			said = append(said, w.Text)
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
	if all := strings.Join(said, "\n"); !strings.Contains(all, "Not connected: the client secret for client id CLIENT1 is not saved on this computer") {
		t.Fatalf("the window does not say why it is not connected; it shows %q", all)
	}
}
