package main

import (
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"time"

	"fyne.io/fyne/v2"
)

// openURL is how the window opens a link in a browser, saying whether it
// did. On Linux Fyne starts xdg-open and reports only whether it started,
// so a missing xdg-open or one that found no browser looked like success:
// there it is run here and its end is waited for.
func openURL(a fyne.App) func(*url.URL) error {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		return xdgOpen
	}
	return a.OpenURL
}

// xdgOpenWait is how long xdg-open may take before it counts as having
// handed the link to a browser (some browsers keep it waiting while they run).
var xdgOpenWait = 5 * time.Second

func xdgOpen(u *url.URL) error {
	cmd := exec.Command("xdg-open", u.String())
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return errors.New("xdg-open, which opens links in a browser, is not installed")
		}
		return fmt.Errorf("xdg-open could not be started: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("xdg-open found no browser to open it (%v)", err)
		}
		return nil
	case <-time.After(xdgOpenWait):
		return nil // still running: a browser took the link and keeps it waiting
	}
}
