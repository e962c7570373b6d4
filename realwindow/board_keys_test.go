package realwindow

import (
	"regexp"
	"strings"
	"testing"
)

// TestRealWindowPlanAVisitFromTheKeyboard: Ctrl+D (on the X keyboard)
// opens the dispatch board with the keyboard in the list of work orders
// waiting for a visit, its first block ringed; Space picks it, Ctrl+P
// opens Plan visit… for it and Enter plans it. The keys after Ctrl+D go
// to the board's focused widget through the driver: with no window
// manager, Xvfb keeps the X keyboard on the window that had it.
func TestRealWindowPlanAVisitFromTheKeyboard(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("keys-board-start", "ready")
	a.keys("ctrl+d")
	a.until("the board opened by Ctrl+D", "texts", func(string) bool {
		out, err := a.xdotool("search", "--name", "^Dispatch board").Output()
		return err == nil && len(strings.TrimSpace(string(out))) > 0
	})
	a.do("window ^Dispatch board")
	a.until("the waiting list has the keyboard", "focused", func(f string) bool { return strings.Contains(f, "waitingList") })
	a.shoot("keys-board-opened")

	first := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindString(a.do("texts *board.waitingList"))
	a.do("key Space")
	a.step("keys-board-plan-visit", "shortcut ctrl+P")
	texts := a.do("texts")
	m := regexp.MustCompile(`Plan visit: (\S+)`).FindStringSubmatch(texts)
	if m == nil {
		t.Fatalf("Ctrl+P after Space opened no Plan visit… for a work order: %s", texts)
	}
	number := m[1]
	if first == "" || number != first {
		t.Errorf("Space picked %s, not the first waiting work order (%s)", number, first)
	}
	a.step("keys-board-plan-visit-enter", "key Return")
	if texts := a.do("texts"); strings.Contains(texts, "Plan visit: ") {
		t.Fatalf("Enter did not submit Plan visit…: %s", texts)
	} else if strings.Contains(texts, "Plan anyway") {
		a.closes("keys-board-plan-anyway", "tap ^Plan anyway$")
	}
	a.waitUntil(number+" on the board", "texts *board.area", number)
	a.shoot("keys-board-planned")
}
