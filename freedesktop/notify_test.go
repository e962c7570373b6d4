package freedesktop

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// notificationServer is a notification server on a private session bus:
// it keeps what each Notify call asked for and answers ids 41, 42, ...
type notificationServer struct {
	mu    sync.Mutex
	calls []notifyCall
}

type notifyCall struct {
	app      string
	replaces uint32
	icon     string
	title    string
	body     string
	expiry   int32
}

func (s *notificationServer) Notify(app string, replaces uint32, icon, title, body string, _ []string, _ map[string]dbus.Variant, expiry int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, notifyCall{app, replaces, icon, title, body, expiry})
	return uint32(40 + len(s.calls)), nil
}

func (s *notificationServer) seen() []notifyCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]notifyCall(nil), s.calls...)
}

// privateBus starts a D-Bus session daemon of the test's own and returns
// its address.
func privateBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("needs dbus-daemon (apt-get install dbus)")
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1",
		"--address=unix:path="+filepath.Join(t.TempDir(), "bus"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the bus said no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// TestDesktopNotificationsExpireAndReplaceTheLast: over a real session
// bus, the window's notifications ask to expire (Fyne asks for "never"),
// carry the app's name and icon, and the second, sent to replace the
// first, names the first's id.
func TestDesktopNotificationsExpireAndReplaceTheLast(t *testing.T) {
	addr := privateBus(t)
	server, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	srv := &notificationServer{}
	if err := server.Export(srv, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if reply, err := server.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("taking the notification server's name: %v, %v", reply, err)
	}
	client, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	n := newNotifier(func() (*dbus.Conn, error) { return client, nil }, "Work Order Desk", "com.workorderdesk.workdesk", "/icons/workdesk.png")
	n.Notify("NTE changed: NWR73267", "The customer set the NTE to $1,000.00.", false)
	n.Notify("2 updates from your customers", "NTE changed on NWR73267. Quote approved on KFU73203.", true)
	n.close()

	got := srv.seen()
	if len(got) != 2 {
		t.Fatalf("the server got %d notifications: %+v", len(got), got)
	}
	for _, c := range got {
		if c.expiry <= 0 || time.Duration(c.expiry)*time.Millisecond > 30*time.Second {
			t.Errorf("%q asks to stay %d ms (0 is never); want a few seconds", c.title, c.expiry)
		}
		if c.app != "Work Order Desk" || c.icon != "/icons/workdesk.png" {
			t.Errorf("%q comes from %q with icon %q", c.title, c.app, c.icon)
		}
	}
	if got[0].replaces != 0 || got[1].replaces != 41 {
		t.Errorf("replaces_id %d then %d; want 0, then the first's id 41", got[0].replaces, got[1].replaces)
	}
}
