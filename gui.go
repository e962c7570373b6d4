package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/workorderdesk/workdesk/assets"
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
	a := app.NewWithID("com.workorderdesk.workdesk")
	a.SetIcon(assets.Icon)
	w := ui.NewMainWindow(a)
	if f.size.Width > 0 {
		w.Resize(f.size)
	}
	status := 0
	if f.screenshot != "" {
		go func() {
			status = captureWindow(w, f.screenshot)
			fyne.Do(a.Quit)
		}()
	}
	w.ShowAndRun()
	return status
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
