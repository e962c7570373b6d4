package freedesktop

import (
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"time"
)

// xdgOpenWait is how long xdg-open may take before it counts as having
// handed the link to a browser (some browsers keep it waiting while they run).
var xdgOpenWait = 5 * time.Second

// Open hands the link to xdg-open and says whether a browser took it. Fyne
// starts xdg-open and reports only whether it started, so a missing
// xdg-open or one that found no browser looked like success: here its end
// is waited for.
func Open(u *url.URL) error {
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
