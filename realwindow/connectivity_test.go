package realwindow

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// TestRealWindowConnectivity uses the app against a separate `workdesk
// sandbox` as the customer's service, on a computer without a keyring
// (Xvfb has none): the window opens on the live replica and says so; the
// secret typed into Connection settings connects it at once, kept for this
// session only. Then the service stops answering (the sandbox process is
// stopped, as a hung server or a dead network would be) while an accept
// goes out: within 10 s the status bar names the customer's service as
// silent, with the accept waiting, and the list row and the header both
// show Accepted marked queued. The sandbox goes on: within 10 s the words
// are gone and the accept is sent.
func TestRealWindowConnectivity(t *testing.T) {
	// Not parallel: it times the window's words (10 s each way), so it
	// runs before the other windows start, on a machine they do not load.
	scr := newScreen(t, "1920x1200")
	svc := startSandbox(t, os.Getenv("WORKDESK_BIN"))

	config := t.TempDir()
	prefs := filepath.Join(config, "fyne", "com.workorderdesk.workdesk")
	if err := os.MkdirAll(prefs, 0o755); err != nil {
		t.Fatal(err)
	}
	live, _ := json.Marshal(map[string]string{"live.base_url": svc.cfg.BaseURL, "live.token_url": svc.cfg.TokenURL, "live.client_id": svc.cfg.ClientID})
	if err := os.WriteFile(filepath.Join(prefs, "preferences.json"), live, 0o644); err != nil {
		t.Fatal(err)
	}
	a := startWith(t, scr, []string{"--window-size", "1280x800", "--data-dir", t.TempDir()}, "XDG_CONFIG_HOME="+config, "DBUS_SESSION_BUS_ADDRESS=")

	// No keyring: the window says so, and how to connect.
	banner := a.waitUntil("the banner", "texts", "Connection settings…")
	if !strings.Contains(banner, "No keyring service found") || !strings.Contains(banner, "for this session only") {
		t.Errorf("the banner does not say there is no keyring: %s", banner)
	}
	a.shoot("connectivity-no-keyring")
	a.dialog("connectivity-settings", "tap ^Connection settings…$")
	if texts := a.do("texts"); !strings.Contains(texts, "kept for this session only") {
		t.Errorf("the connection dialog does not say where the secret will be kept: %s", texts)
	}
	a.do("typefield Client secret=" + svc.cfg.ClientSecret)
	a.step("connectivity-save-and-connect", "tap ^Save and connect$")
	connected := a.waitUntil("the session-only banner", "texts", "Your client secret is kept for this session only")
	a.do("ready")
	if !strings.Contains(connected, "Live: ") || strings.Contains(connected, "Not connected") {
		t.Fatalf("Save and connect did not connect: %s", connected)
	}
	a.shoot("connectivity-connected")

	a.dialog("connectivity-status-filter", "tap ^All statuses")
	a.closes("connectivity-new-only", `tap ^New \(\d+\)$`)
	number := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindString(a.do("texts *list.Table"))
	if number == "" {
		t.Fatal("no New work order in the sandbox's list")
	}
	a.step("connectivity-open-"+number, "tap ^"+number+"$")

	// The service stops answering while the accept goes out.
	svc.signal(syscall.SIGSTOP)
	asked := time.Now()
	t.Log(a.do("tap ^Accept$"))
	// Both are told, in either order: the silence by whichever call hangs
	// first (on a busy machine the open's own refresh may still be out
	// when the service stops), the accept once the replica has it.
	silent := a.waitFor("the silent service and the waiting accept", func(texts string) bool {
		return strings.Contains(texts, "Customer's service not answering since") && strings.Contains(texts, "· 1 action waiting")
	})
	if took := time.Since(asked); took > 10*time.Second {
		t.Errorf("the silence was told %v after the accept, want within 10 s", took.Round(100*time.Millisecond))
	}
	if !strings.Contains(silent, "· 1 action waiting") {
		t.Errorf("the status bar does not count the waiting accept: %s", silent)
	}
	if !strings.Contains(silent, "Accepted · queued") {
		t.Errorf("the header does not show the accept queued: %s", silent)
	}
	if !regexp.MustCompile(number + ` \| [^|]+ \| Accepted \|`).MatchString(a.do("texts *list.Table")) {
		t.Errorf("the list row of %s does not show Accepted while the header does: %s", number, a.do("texts *list.Table"))
	}
	a.shoot("connectivity-service-silent")

	// It answers again: the words go, and the accept is sent.
	svc.signal(syscall.SIGCONT)
	resumed := time.Now()
	a.waitFor("the service answering again", func(texts string) bool { return !strings.Contains(texts, "not answering") })
	if took := time.Since(resumed); took > 10*time.Second {
		t.Errorf("the silence was still told %v after the service answered again, want within 10 s", took.Round(100*time.Millisecond))
	}
	back := a.waitFor("the accept sent", func(texts string) bool {
		return strings.Contains(texts, "Outbox: all sent") && !strings.Contains(texts, "· queued")
	})
	if took := time.Since(resumed); took > 10*time.Second {
		t.Errorf("the accept was sent %v after the service answered again, want within 10 s", took.Round(100*time.Millisecond))
	}
	if strings.Contains(back, "Offline") || !strings.Contains(back, "Synced ") {
		t.Errorf("answered again, the status bar says: %s", back)
	}
	a.shoot("connectivity-answering-again")
}

// sandboxProcess is a `workdesk sandbox` running beside the app.
type sandboxProcess struct {
	t   *testing.T
	cmd *exec.Cmd
	cfg sandbox.FileConfig
}

// startSandbox runs `workdesk sandbox` on a free loopback port and reads
// the connection it writes.
func startSandbox(t *testing.T, bin string) *sandboxProcess {
	t.Helper()
	out := filepath.Join(t.TempDir(), "sandbox.json")
	cmd := exec.Command(bin, "sandbox", "--addr", "127.0.0.1:0", "--config-out", out, "--customer-every", "0")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the sandbox: %v", err)
	}
	s := &sandboxProcess{t: t, cmd: cmd}
	t.Cleanup(func() {
		s.signal(syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if raw, err := os.ReadFile(out); err == nil && json.Unmarshal(raw, &s.cfg) == nil && s.cfg.ClientSecret != "" {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatal("the sandbox wrote no connection settings in 30 s")
		}
	}
}

func (s *sandboxProcess) signal(sig syscall.Signal) {
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Logf("signalling the sandbox: %v", err)
	}
}
