package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/assets"
	"github.com/workorderdesk/workdesk/freedesktop"
	"github.com/workorderdesk/workdesk/probe"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/settings"
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
	dialect    sandbox.Dialect
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
	dialect := fs.String("demo-dialect", "plain", "the demo's sandbox answers reads without a published schema with our guessed names (plain) or others (renamed)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	var err error
	if f.dialect, err = sandbox.ParseDialect(*dialect); err != nil {
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

// guiMemoryLimit is the Go heap the window keeps itself near (unless
// GOMEMLIMIT says otherwise). A first sync's garbage let Go's default
// pacing grow the heap to twice what was live, some 280 MB at 100,000
// work orders against 120 MB live, and the pages stayed resident for
// minutes after; near the limit Go collects more often and hands freed
// pages back sooner. It is soft: a heap that needs more gets more.
const guiMemoryLimit = 160 << 20

func runGUI(args []string) int {
	f, err := parseGUIFlags(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(guiMemoryLimit)
	}
	if f.screenshot != "" && os.Getenv("GALLIUM_DRIVER") == "" {
		// Fyne captures by reading the GL front buffer, which Mesa's llvmpipe
		// (the renderer under Xvfb) leaves black; softpipe keeps it.
		os.Setenv("GALLIUM_DRIVER", "softpipe")
	}
	a := app.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.IconPNG))
	s := &session{app: a, flags: f, secrets: storage.NewSecrets(), notifier: freedesktop.SessionNotifier("Work Order Desk", appID, assets.IconPNG)}
	if f.probe {
		a.Lifecycle().SetOnStarted(func() { go probe.FirstFrame(a, os.Stdout) })
	}
	if err := s.launch(!f.demo); err != nil {
		fmt.Fprintln(os.Stderr, "workdesk:", err)
		if f.screenshot != "" || f.probe {
			return 1
		}
		// Started from a shortcut there is no terminal: a window says it.
		ui.ShowStartFailure(a, err)
		a.Run()
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
			status = probe.Capture(desk.Window(), f.screenshot)
			fyne.Do(a.Quit)
			// Fyne 2.8 can miss the quit: a window event queued as its loop
			// ends waits for that loop for ever (seen under load: the PNG
			// written, the process never gone). A screenshot is a script's
			// step, and a script must not hang on it.
			time.Sleep(screenshotQuitWait)
			fmt.Fprintln(os.Stderr, "screenshot: the window did not close; exiting")
			s.backend.Close()
			os.Exit(status)
		}()
	}
	if drive != nil {
		drive(a, s)
	}
	a.Run()
	return status
}

// screenshotQuitWait is how long --screenshot lets the window close after
// its picture is written before the process ends without it.
const screenshotQuitWait = 15 * time.Second

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
	// stopWatch ends the wait for a keyring that could not be read when
	// this window opened (nil: none waits).
	stopWatch context.CancelFunc
	// notifier shows the window's desktop notifications (nil: Fyne's).
	notifier *freedesktop.Notifier
	// background and do are the window's Deps.Background and Deps.Do
	// (nil in the app: a goroutine, fyne.Do); tests run the window's work
	// on their own goroutine.
	background, do func(func())
}

// officeLogin is a person's client id and secret at an office hub.
type officeLogin struct{ id, secret string }

// officeHub is the hub to open office mode on: --hub, else the saved one
// when the person last used office mode.
func (s *session) officeHub() string {
	if s.flags.hub != "" {
		return s.flags.hub
	}
	if o := settings.LoadOffice(s.app.Preferences()); o.InUse {
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
	if s.stopWatch != nil {
		s.stopWatch()
		s.stopWatch = nil
	}
	prefs := s.app.Preferences()
	live := settings.LoadLive(prefs)
	var b *backend
	var err error
	var missing *missingSecret
	notice, askOffice := "", ""
	switch {
	case s.flags.replica != "":
		b, err = openOffline(ctx, s.flags.replica)
	case s.officeHub() != "" && wantLive:
		b, notice, askOffice, err = s.openOffice(ctx, s.officeHub())
		errors.As(err, &missing)
		if missing != nil {
			err = nil
		}
	case wantLive && live.Configured():
		b, err = s.startLive(ctx, live)
		switch {
		case errors.As(err, &missing):
			// Never Demo without a word: the person's own data, as last
			// synced, with the way to reconnect.
			notice = missing.notice("Connection settings…", "the live data")
			b, err = openLiveReplica(ctx, s.flags.dataDir, live.BaseURL)
		case err == nil:
			notice = s.sessionOnly()
		case err != nil && s.desk == nil:
			slog.Warn("live connection unavailable; starting in demo mode", "err", err)
			notice = "The live connection could not start, so this is the demo. " + format.Sentence(err.Error()) + " Fix the connection settings, then Save and connect."
			b, err = startDemoIn(ctx, s.flags.dataDir, s.flags.dialect)
		}
	default:
		b, err = startDemoIn(ctx, s.flags.dataDir, s.flags.dialect)
	}
	if err != nil {
		return err
	}
	deps := ui.Deps{
		Store: b.Store, Online: b, Demo: b.sb != nil, Office: b.person != nil, Service: b.Service, Health: b.health,
		ConnectOffice: s.connectOffice, AskOffice: askOffice, Background: s.background, Do: s.do, OpenURL: openURL(s.app),
		Ready: make(chan struct{}), Secrets: s.secrets, SyncEvery: live.SyncEvery, Notice: notice,
		NoDesktopNotifications: runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "",
		// FYNE_THEME=dark (or light) is a preference stated to Fyne.
		SystemThemeSilent: runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" && os.Getenv("FYNE_THEME") == "",
		TestConnection: func(ctx context.Context, conn api.Connection, report func(api.Check)) bool {
			return api.Diagnose(ctx, conn, nil, report)
		},
		CheckContract: b.checkContract,
		SwitchMode: func(toLive bool) {
			// A choice of Live or Demo from the menu leaves office mode,
			// for this run and the next start.
			s.flags.hub, s.officeGiven = "", officeLogin{}
			settings.SetOfficeInUse(prefs, false)
			if err := s.launch(toLive); err != nil {
				s.desk.ShowError(err)
			}
		},
	}
	if b.Client == nil {
		deps.Online = nil
	} else if b.person == nil {
		deps.SetPerformedBy = b.Client.SetPerformedBy // no hub: the person names themselves
	}
	if s.notifier != nil {
		deps.Notifier = s.notifier
	}
	if s.flags.replica != "" {
		deps.SwitchMode = nil // --replica opens the same replica whatever is chosen
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
	b.OnSilence(desk.ConnectivityChanged)
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
	if missing != nil && missing.keyring() {
		s.waitForKeyring(missing)
	}
	return nil
}

func (s *session) startLive(ctx context.Context, live settings.Live) (*backend, error) {
	secret, err := s.secrets.Get(ctx, live.ClientID)
	if err != nil || secret == "" {
		return nil, &missingSecret{clientID: live.ClientID, cause: err}
	}
	return startLive(ctx, s.flags.dataDir, live.Connection(secret), live.ReceiverAddr(), live.CheckSource)
}

// openURL is how the window opens a link in a browser, saying whether it
// did: where the freedesktop.org conventions hold, through xdg-open, whose
// end is waited for (Fyne reports only whether xdg-open started).
func openURL(a fyne.App) func(*url.URL) error {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		return freedesktop.Open
	}
	return a.OpenURL
}
