// Package freedesktop is what the window asks of a Linux or BSD desktop by
// freedesktop.org's conventions: notifications over the session bus that
// expire and replace one another (notify.go), and links handed to
// xdg-open, saying whether a browser took them (open.go).
package freedesktop

import (
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/godbus/dbus/v5"
)

// Notifier sends desktop notifications over the session bus
// (org.freedesktop.Notifications), as Fyne 2.8 does on Linux, with two
// differences. Fyne sends expire_timeout 0, "never": with a customer acting
// every minute they piled up on the screen until clicked; these expire. And
// a notification may replace the last one sent (replaces_id), so the
// window's "3 updates from your customers" takes the place of the first.
type Notifier struct {
	bus     func() (*dbus.Conn, error)
	appName string
	entry   string // the app's desktop entry (its .desktop file's name), which the server may show
	icon    string // a PNG file, or "" for none
	queue   chan desktopNote
	last    uint32 // the id of the last one sent (the sending goroutine's)
	done    chan struct{}
}

type desktopNote struct {
	title, body string
	replace     bool
}

// notifyExpiry is how long a notification stays on screen where the
// notification server honours it (GNOME Shell hides its banners itself).
const notifyExpiry = 8 * time.Second

// SessionNotifier is the window's notifier, as appName with the desktop
// entry and icon (PNG bytes) given: over D-Bus where Linux and the BSDs
// have a session bus, else nil (Fyne's own: other systems expire their
// notifications themselves).
func SessionNotifier(appName, desktopEntry string, icon []byte) *Notifier {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
	default:
		return nil
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return nil
	}
	return newNotifier(dbus.SessionBus, appName, desktopEntry, notificationIcon(icon))
}

func newNotifier(bus func() (*dbus.Conn, error), appName, desktopEntry, icon string) *Notifier {
	n := &Notifier{bus: bus, appName: appName, entry: desktopEntry, icon: icon, queue: make(chan desktopNote, 32), done: make(chan struct{})}
	go n.run()
	return n
}

// Notify queues the notification: the bus is called off the window's
// goroutine, one call at a time, in order.
func (n *Notifier) Notify(title, body string, replace bool) {
	select {
	case n.queue <- desktopNote{title, body, replace}:
	default: // a burst this long would only replace itself
	}
}

func (n *Notifier) run() {
	defer close(n.done)
	for x := range n.queue {
		n.send(x)
	}
}

// close sends what is queued, then stops.
func (n *Notifier) close() {
	close(n.queue)
	<-n.done
}

func (n *Notifier) send(x desktopNote) {
	conn, err := n.bus()
	if err != nil {
		slog.Warn("desktop notification not shown: no session bus", "err", err)
		return
	}
	replaces := uint32(0)
	if x.replace {
		replaces = n.last
	}
	hints := map[string]dbus.Variant{"desktop-entry": dbus.MakeVariant(n.entry)}
	call := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications").Call(
		"org.freedesktop.Notifications.Notify", 0, n.appName, replaces, n.icon, x.title, x.body,
		[]string{}, hints, int32(notifyExpiry/time.Millisecond))
	if call.Err != nil {
		slog.Warn("desktop notification not shown", "err", call.Err)
		return
	}
	if err := call.Store(&n.last); err != nil {
		n.last = 0
	}
}

// notificationIcon writes the app's icon where the notification server can
// read it (the user's cache folder) and returns its path; "" when it cannot.
func notificationIcon(icon []byte) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	path := filepath.Join(dir, "workdesk", "notification-icon.png")
	if b, err := os.ReadFile(path); err == nil && len(b) == len(icon) {
		return path
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return ""
	}
	if err := os.WriteFile(path, icon, 0o600); err != nil {
		return ""
	}
	return path
}
