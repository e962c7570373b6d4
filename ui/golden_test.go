package ui

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestMainWindowGolden pins what the main window shows in demo mode with a
// work order open: layout, columns, badges, NTE formatting and the status
// bar. Regenerate after an intended change by copying testdata/failed/ over
// testdata/.
func TestMainWindowGolden(t *testing.T) {
	h := newHarness(t)
	test.ApplyTheme(t, newTheme(false))
	// The last sync time comes from the replica's wall clock; pin it.
	if err := h.store.SetSetting(context.Background(), "sync.last_success", fixedNow.Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	h.desk.status.refresh()
	// httptest picks a new port each run.
	h.desk.status.mode.SetText("Demo · sandbox on 127.0.0.1:8089")
	h.desk.Showcase()
	h.flush()
	h.desk.list.table.Refresh()
	test.AssertRendersToMarkup(t, "main_window.xml", h.win.Canvas())
}
