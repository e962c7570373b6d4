package ui

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestMainWindowGolden pins what the main window shows in demo mode with a
// work order open: layout, columns, badges, NTE formatting and the status
// bar, which reports a token and a receiver as in the demo (harnessHealth).
// Regenerate after an intended change: run it, check the diff between
// testdata/failed/main_window.xml and testdata/main_window.xml, then copy
// the failed one over.
func TestMainWindowGolden(t *testing.T) {
	h := newHarness(t)
	test.ApplyTheme(t, newTheme(appearanceLight, false))
	// The last sync time comes from the replica's wall clock; pin it.
	if err := h.store.SetSetting(context.Background(), "sync.last_success", fixedNow.Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	h.desk.status.Refresh()
	h.desk.Showcase()
	h.flush()
	h.desk.list.Table().Refresh()
	h.settle()
	test.AssertRendersToMarkup(t, "main_window.xml", h.win.Canvas())
}
