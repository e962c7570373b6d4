package realwindow

import (
	"regexp"
	"strings"
	"testing"
)

// TestRealWindowKeysAndFirstDay: the demo's first start opens Help ›
// Getting started, which Esc closes; Help › Keyboard shortcuts shows the
// whole table; in the dispatch board's own window, a dialog answers Esc
// (A03); the status bar says where the work orders come from in plain
// words, and a click on it shows the technical details.
func TestRealWindowKeysAndFirstDay(t *testing.T) {
	t.Parallel()
	a := startFresh(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", t.TempDir()})
	a.step("first-start", "ready")
	if texts := a.do("texts"); !strings.Contains(texts, "Getting started") || !strings.Contains(texts, "Customer menu") {
		t.Fatalf("the demo's first start shows no guide: %s", texts)
	}
	a.shoot("first-start-guide")
	a.closes("first-start-guide-esc", "key Escape")

	a.dialog("help-shortcuts", "menu Help/Keyboard shortcuts")
	if texts := a.do("texts"); !strings.Contains(texts, "Check out (on the Visit tab") || !strings.Contains(texts, "Move to the next field or button") {
		t.Errorf("the shortcut table is not shown whole: %s", texts)
	}
	a.shoot("help-shortcuts-drawn") // after a round trip: the dialog is drawn by now
	a.closes("help-shortcuts-esc", "key Escape")

	if texts := a.do("texts"); !strings.Contains(texts, "Demo: sample work orders from a made-up customer") || strings.Contains(texts, "Token until") {
		t.Errorf("the status bar reads: %s", texts)
	}
	a.dialog("connection-details", "tap ^Demo: sample work orders")
	if texts := a.do("texts"); !strings.Contains(texts, "Token until") || !strings.Contains(texts, "127.0.0.1") {
		t.Errorf("the connection details read: %s", texts)
	}
	a.shoot("connection-details-drawn")
	a.closes("connection-details-enter", "key Return")

	a.step("board-opened", "menu View/Dispatch board")
	a.do("window ^Dispatch board")
	a.step("board-1280x800", "resize 1280x800")
	waiting := usNumber.FindAllString(a.do("texts *board.waitingList"), -1)
	if len(waiting) == 0 {
		t.Fatal("nothing waits on the board")
	}
	a.step("board-select", "tap ^"+regexp.QuoteMeta(waiting[0])+" · ")
	a.dialog("board-plan-visit", "tap ^Plan visit…$")
	if texts := a.do("texts"); !strings.Contains(texts, "Plan visit: "+waiting[0]) {
		t.Fatalf("Plan visit… shows %s", texts)
	}
	a.shoot("board-plan-visit-drawn")
	a.closes("board-plan-visit-esc", "key Escape")
}
