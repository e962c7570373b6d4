package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/assets"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui"
)

type guiFlags struct {
	screenshot string
	size       fyne.Size
	dataDir    string
	demo       bool
}

func parseGUIFlags(args []string) (guiFlags, error) {
	var f guiFlags
	fs := flag.NewFlagSet("workdesk", flag.ContinueOnError)
	fs.StringVar(&f.screenshot, "screenshot", "", "render the main window, write a PNG of it to `FILE` and exit")
	size := fs.String("window-size", "", "window size `WxH` (default: the last size used)")
	fs.StringVar(&f.dataDir, "data-dir", "", "keep the local replica in `DIR` instead of the per-user app data folder")
	fs.BoolVar(&f.demo, "demo", false, "run against the built-in sandbox even when a live connection is configured")
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
	ctx := context.Background()

	b, err := startBackend(ctx, a.Preferences(), f)
	if err != nil {
		fmt.Fprintln(os.Stderr, "workdesk:", err)
		return 1
	}
	defer b.Close()

	ready := make(chan struct{})
	desk := ui.New(a, ui.Deps{
		Store: b.store, Online: b, Demo: b.sb != nil, Service: b.service,
		Health: b.health, Ready: ready,
	})
	w := desk.Window()
	if f.size.Width > 0 {
		w.Resize(f.size)
	}
	status := 0
	if f.screenshot != "" {
		go func() {
			select {
			case <-ready:
			case <-time.After(90 * time.Second):
				fmt.Fprintln(os.Stderr, "screenshot: the first sync did not finish in 90 s; capturing anyway")
			}
			fyne.DoAndWait(desk.Showcase)
			status = captureWindow(w, f.screenshot)
			fyne.Do(a.Quit)
		}()
	}
	w.Show()
	desk.Start()
	a.Run()
	return status
}

const appID = "com.workorderdesk.workdesk"

// startBackend connects to the configured live service, or to the built-in
// sandbox when nothing (or --demo) is configured.
func startBackend(ctx context.Context, prefs fyne.Preferences, f guiFlags) (*backend, error) {
	conn := liveConnection(prefs)
	if f.demo || len(conn.Missing()) > 0 {
		return startDemo(ctx, f.dataDir)
	}
	secret, err := storage.NewSecrets().Get(ctx, conn.ClientID)
	if err != nil || secret == "" {
		slog.Warn("live connection configured but its client secret is not available; starting in demo mode", "err", err)
		return startDemo(ctx, f.dataDir)
	}
	conn.ClientSecret = secret
	addr := fmt.Sprintf("127.0.0.1:%d", prefs.Int(prefReceiverPort))
	return startLive(ctx, f.dataDir, conn, addr, prefs.Bool(prefCheckSource))
}

// Live connection settings (never the secret) live in the app preferences,
// so the live replica can be found before it is opened.
const (
	prefBaseURL      = "live.base_url"
	prefTokenURL     = "live.token_url"
	prefClientID     = "live.client_id"
	prefCertPath     = "live.cert_path"
	prefReceiverPort = "live.receiver_port"
	prefCheckSource  = "live.check_source"
)

func liveConnection(p fyne.Preferences) api.Connection {
	return api.Connection{
		BaseURL: p.String(prefBaseURL), TokenURL: p.String(prefTokenURL),
		ClientID: p.String(prefClientID), CertPath: p.String(prefCertPath),
	}
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
