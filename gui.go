package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/assets"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui"
)

type guiFlags struct {
	screenshot string
	replica    string
	probe      bool
	size       fyne.Size
	dataDir    string
	demo       bool
	hub        string
	hubCA      string
}

func parseGUIFlags(args []string) (guiFlags, error) {
	var f guiFlags
	fs := flag.NewFlagSet("workdesk", flag.ContinueOnError)
	fs.StringVar(&f.screenshot, "screenshot", "", "render the main window, write a PNG of it to `FILE` and exit")
	size := fs.String("window-size", "", "window size `WxH` (default: the last size used)")
	fs.StringVar(&f.dataDir, "data-dir", "", "keep the local replica in `DIR` instead of the per-user app data folder")
	fs.BoolVar(&f.demo, "demo", false, "run against the built-in sandbox even when a live connection is configured")
	fs.StringVar(&f.replica, "replica", "", "browse the replica `FILE` offline, without connecting to any service")
	fs.StringVar(&f.hub, "hub", "", "open office mode on the hub at `URL` (client id and secret from WORKDESK_CLIENT_ID / WORKDESK_CLIENT_SECRET or the saved settings)")
	fs.StringVar(&f.hubCA, "hub-ca", "", "trust the office hub's certificate authority in PEM `FILE` (beside the system's), for a hub whose certificate no public authority signed")
	fs.BoolVar(&f.probe, "startup-probe", false, "print the time from process start to the first frame, then quit (for measuring)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if *size != "" {
		var w, h float32
		if _, err := fmt.Sscanf(strings.ToLower(*size), "%fx%f", &w, &h); err != nil || w < 200 || h < 200 {
			return f, fmt.Errorf("--window-size wants WxH, e.g. 1280x800")
		}
		f.size = fyne.NewSize(w, h)
	}
	return f, nil
}

func runGUI(args []string) int {
	f, err := parseGUIFlags(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if f.screenshot != "" && os.Getenv("GALLIUM_DRIVER") == "" {
		// Fyne captures by reading the GL front buffer, which Mesa's llvmpipe
		// (the renderer under Xvfb) leaves black; softpipe keeps it.
		os.Setenv("GALLIUM_DRIVER", "softpipe")
	}
	a := app.NewWithID(appID)
	a.SetIcon(assets.Icon)
	s := &session{app: a, flags: f, secrets: storage.NewSecrets()}
	if f.probe {
		a.Lifecycle().SetOnStarted(func() { go probeFirstFrame(a) })
	}
	if err := s.launch(!f.demo); err != nil {
		fmt.Fprintln(os.Stderr, "workdesk:", err)
		return 1
	}
	defer func() { s.backend.Close() }()

	status := 0
	if f.screenshot != "" {
		desk, ready := s.desk, s.ready
		go func() {
			select {
			case <-ready:
			case <-time.After(90 * time.Second):
				fmt.Fprintln(os.Stderr, "screenshot: the first sync did not finish in 90 s; capturing anyway")
			}
			fyne.DoAndWait(desk.Showcase)
			status = captureWindow(desk.Window(), f.screenshot)
			fyne.Do(a.Quit)
		}()
	}
	if drive != nil {
		drive(a, s)
	}
	a.Run()
	return status
}

// drive is set only in a build with the realwindow tag (realwindow.go): it
// lets a test drive the running window as a person does.
var drive func(a fyne.App, s *session)

const appID = "com.workorderdesk.workdesk"

// session is the running window and the backend behind it; switching
// between Demo and Live replaces both, each on its own replica.
type session struct {
	app     fyne.App
	flags   guiFlags
	secrets *storage.Secrets
	backend *backend
	desk    *ui.Desk
	ready   chan struct{}
	// officeGiven is what File › Connect to office hub… was last given.
	officeGiven officeLogin
}

// officeLogin is a person's client id and secret at an office hub.
type officeLogin struct{ id, secret string }

// officeHub is the hub to open office mode on: --hub, else the saved one
// when the person last used office mode.
func (s *session) officeHub() string {
	if s.flags.hub != "" {
		return s.flags.hub
	}
	if o := ui.LoadOfficeSettings(s.app.Preferences()); o.InUse {
		return o.HubURL
	}
	return ""
}

// launch opens a window on the live service when one is configured and
// wanted, otherwise on the built-in sandbox.
func (s *session) launch(wantLive bool) error {
	ctx := context.Background()
	if s.desk != nil && !s.desk.WaitForWrites(10*time.Second) {
		// Still waiting for the replica's writer after 10 s: the switch
		// goes on, and the action's error (if any) is logged.
		slog.Warn("switching with an action still being queued")
	}
	prefs := s.app.Preferences()
	live := ui.LoadLiveSettings(prefs)
	var b *backend
	var err error
	notice := ""
	switch {
	case s.flags.replica != "":
		b, err = openOffline(ctx, s.flags.replica)
	case s.officeHub() != "" && wantLive:
		b, notice, err = s.openOffice(ctx, s.officeHub())
	case wantLive && live.Configured():
		b, err = s.startLive(ctx, live)
		switch {
		case errors.Is(err, errNoSecret):
			// Never Demo without a word: the person's own data, as last
			// synced, with the way to reconnect.
			notice = fmt.Sprintf("Not connected: the client secret for client id %s is not saved on this computer. "+
				"Enter it to connect; until then you see the live data as last synced, and your actions wait in the outbox.", live.ClientID)
			b, err = openLiveReplica(ctx, s.flags.dataDir, live.BaseURL)
		case err != nil && s.desk == nil:
			slog.Warn("live connection unavailable; starting in demo mode", "err", err)
			notice = "The live connection could not start, so this is the demo. " + ui.Sentence(err.Error()) + " Fix the connection settings, then Save and connect."
			b, err = startDemo(ctx, s.flags.dataDir)
		}
	default:
		b, err = startDemo(ctx, s.flags.dataDir)
	}
	if err != nil {
		return err
	}
	deps := ui.Deps{
		Store: b.Store, Online: b, Demo: b.sb != nil, Office: b.person != nil, Service: b.Service, Health: b.health,
		ConnectOffice: s.connectOffice,
		Ready:         make(chan struct{}), Secrets: s.secrets, SyncEvery: live.SyncEvery, Notice: notice,
		NoDesktopNotifications: runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "",
		// FYNE_THEME=dark (or light) is a preference stated to Fyne.
		SystemThemeSilent: runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" && os.Getenv("FYNE_THEME") == "",
		TestConnection: func(ctx context.Context, conn api.Connection, report func(api.Check)) bool {
			return api.Diagnose(ctx, conn, nil, report)
		},
		SwitchMode: func(toLive bool) {
			// A choice of Live or Demo from the menu leaves office mode,
			// for this run and the next start.
			s.flags.hub, s.officeGiven = "", officeLogin{}
			ui.SetOfficeInUse(prefs, false)
			if err := s.launch(toLive); err != nil {
				s.desk.ShowError(err)
			}
		},
	}
	if b.Client == nil {
		deps.Online, deps.SwitchMode = nil, nil
	}
	if b.sb != nil {
		deps.Customer = sandbox.NewControl(b.Service)
		deps.SyncEvery = time.Minute
		deps.ResetDemo = func() {
			// The running demo lets go of its world and replica before they
			// are removed (Windows cannot remove an open file); the new
			// window replaces the old one within this same call.
			s.backend.Close()
			if err := resetDemo(s.flags.dataDir); err != nil {
				s.desk.ShowError(err)
			}
			if err := s.launch(false); err != nil {
				s.desk.ShowError(err)
			}
		}
	}
	desk := ui.New(s.app, deps)
	b.OnEvent(desk.EventReceived)
	w := desk.Window()
	addHelpMenu(w)
	if s.flags.size.Width > 0 {
		w.Resize(s.flags.size)
	}
	w.Show()
	desk.Start()
	old, oldDesk := s.backend, s.desk
	s.backend, s.desk, s.ready = b, desk, deps.Ready
	if oldDesk != nil {
		oldDesk.Window().Close()
		old.Close()
	}
	return nil
}

// errNoSecret: the live connection is configured but its secret is not on
// this computer (no keyring, or a keyring that lost it).
var errNoSecret = errors.New("the client secret is not saved on this computer")

func (s *session) startLive(ctx context.Context, live ui.LiveSettings) (*backend, error) {
	secret, err := s.secrets.Get(ctx, live.ClientID)
	if err != nil || secret == "" {
		return nil, errNoSecret
	}
	return startLive(ctx, s.flags.dataDir, live.Connection(secret), live.ReceiverAddr(), live.CheckSource)
}

// captureWindow waits for the window to settle, then writes its pixels.
func captureWindow(w fyne.Window, path string) int {
	time.Sleep(1500 * time.Millisecond)
	var img image.Image
	fyne.DoAndWait(func() { img = w.Canvas().Capture() })
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		return 1
	}
	if err := png.Encode(out, img); err != nil {
		out.Close()
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		return 1
	}
	if err := out.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		return 1
	}
	return 0
}

// probeFirstFrame waits two turns of the event loop after start (the first
// frame is drawn in between), prints how long the process has run, and quits.
func probeFirstFrame(a fyne.App) {
	fyne.DoAndWait(func() {})
	fyne.DoAndWait(func() {})
	fmt.Printf("first frame after %d ms\n", processAge().Milliseconds())
	fyne.Do(a.Quit)
}
