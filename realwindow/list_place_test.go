package realwindow

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var woNumber = regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`)

// listed is the work order numbers the list draws, top to bottom.
func (a *app) listed() []string {
	a.t.Helper()
	var out []string
	for _, n := range woNumber.FindAllString(a.do("texts *list.Table"), -1) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// TestRealWindowTheListKeepsItsPlace: a new work order accepted with
// Ctrl+Shift+A stays on its row, marked, Accepted, no row moving, until
// another is opened (A05, A14). Scrolled down with the keyboard, a search
// that finds one work order draws it at the top, and Ctrl+L, Enter opens
// it (A06). A work order with an invoice badge, opened first after a
// restart, has its header whole above the tabs (A10).
func TestRealWindowTheListKeepsItsPlace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", dir})
	a.step("place-start", "ready")
	a.do("stillcustomer") // its next tick may re-sort the rows this test watches

	before := a.listed()
	m := regexp.MustCompile(`([A-Z]{3}\d{5}) \| [^|]+ \| New \|`).FindStringSubmatch(a.do("texts *list.Table"))
	if m == nil {
		t.Fatalf("no new work order in view: %v", before)
	}
	acted := m[1]
	a.open(acted)
	a.shoot("place-opened")
	a.keys("ctrl+shift+a")
	a.until(acted+" accepted in the list", "texts *list.Table", func(s string) bool {
		return regexp.MustCompile(acted + ` \| [^|]+ \| Accepted`).MatchString(s)
	})
	a.waitUntil("the accept sent", "texts", "Outbox: all sent")
	a.shoot("place-accepted-stays")
	if after := a.listed(); !slices.Equal(after, before) {
		t.Errorf("rows moved after accepting %s:\n%v\n%v", acted, before, after)
	}
	if texts := a.do("texts"); !strings.Contains(texts, acted+" stays here until you open another") {
		t.Errorf("the list does not say %s stays: %s", acted, texts)
	}
	at := slices.Index(before, acted)
	other := before[(at+1)%len(before)]
	a.open(other)
	a.shoot("place-moved-on")
	if texts := a.do("texts"); strings.Contains(texts, "stays here until") {
		t.Errorf("after opening %s the list still holds %s: %s", other, acted, texts)
	}
	t.Logf("%s was row %d; after moving on, row %d", acted, at, slices.Index(a.listed(), acted))

	// Scrolled down with the keyboard, then a search for one work order.
	a.keys("ctrl+l")
	for range 4 {
		a.keys("Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down")
	}
	a.shoot("place-scrolled-down")
	want := before[3]
	a.keys("ctrl+f")
	a.typeText(want)
	a.until("the search lists "+want+" alone", "texts *list.Table", func(s string) bool {
		n := woNumber.FindAllString(s, -1)
		return len(n) == 1 && n[0] == want
	})
	a.shoot("place-search-one-at-top")
	a.keys("ctrl+l", "Return")
	a.until(want+" opened with Ctrl+L, Enter", "texts", func(s string) bool { return strings.Count(s, want) >= 2 })
	a.shoot("place-search-enter-opened")

	// A work order with an invoice badge beside the status, for the restart.
	a.keys("ctrl+f", "Escape")
	a.until("the whole list back", "texts *list.Table", func(s string) bool { return len(woNumber.FindAllString(s, -1)) > 5 })
	badged := ""
	for _, row := range regexp.MustCompile(`([A-Z]{3}\d{5}) \| [^|]+ \| Checked out \|`).FindAllStringSubmatch(a.do("texts *list.Table"), -1) {
		if strings.Contains(strings.ToLower(a.open(row[1])), "| invoice disputed |") {
			badged = row[1]
			break
		}
	}
	if badged == "" {
		t.Fatal("no checked-out work order in view has a disputed invoice")
	}
	a.cmd.Process.Kill() // ended as a crash or a power cut would: the replica keeps what it had
	select {
	case <-a.exited:
	case <-time.After(patience):
		t.Fatal("the app did not end")
	}

	b := startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", dir})
	b.step("restart-start", "ready")
	b.do("stillcustomer")
	b.do("typein *list.SearchEntry " + badged)
	b.until("the search lists "+badged, "texts *list.Table", func(s string) bool { return strings.Contains(s, badged) })
	b.step("restart-badged-header", "tap ^"+badged+"$")
	// Nothing was open before: the badge can only be badged's own.
	b.until("after the restart "+badged+" with its invoice badge", "texts", func(s string) bool {
		return strings.Count(s, badged) >= 2 && strings.Contains(strings.ToLower(s), "| invoice disputed |")
	})
	b.shoot("restart-badged-header-drawn")
}

// open taps work order n's row and waits until the detail names it, so
// that what is read next is n's and not the last work order's.
func (a *app) open(n string) string {
	a.t.Helper()
	a.do("tap ^" + n + "$")
	return a.until(n+" opened", "texts", func(s string) bool { return strings.Count(s, n) >= 2 })
}

// TestRealWindowAssignWhereItCan: Assign 2… over a work order of the US
// branch and one of another, with Kenji Sato (US only) ticked, assigns
// the first and says why not the second, in a dialog that is not an
// error; the dialog lists each branch's people under it, by name.
func TestRealWindowAssignWhereItCan(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("assign-start", "ready")
	a.dialog("assign-status-filter", "tap ^All statuses")
	a.closes("assign-accepted-only", `tap ^Accepted \(\d+\)$`)
	var us, other string
	for _, n := range a.listed() {
		switch {
		case us == "" && usNumber.MatchString(n):
			us = n
		case other == "" && !usNumber.MatchString(n):
			other = n
		}
	}
	if us == "" || other == "" {
		t.Fatalf("the Accepted filter lacks a work order of the US branch or of another: %v", a.listed())
	}
	a.step("assign-ticked-us", "tick ^"+us+"$")
	a.step("assign-ticked-other", "tick ^"+other+"$")
	a.dialog("assign-dialog", `tap ^Assign 2…$`)
	texts := a.do("texts")
	if len(regexp.MustCompile(`\bBranch \d+ · [A-Z]{3}\d{5}`).FindAllString(texts, -1)) != 2 || !strings.Contains(texts, "Kenji Sato (technician)") {
		t.Fatalf("the Assign dialog does not group by branch: %s", texts)
	}
	// Clicked through the X server on its box, as a person clicks it.
	var x, y int
	if _, err := fmt.Sscanf(a.do(`at ^Kenji Sato \(technician\)$`), "%d %d", &x, &y); err != nil {
		t.Fatal(err)
	}
	if out, err := a.xdotool("mousemove", "--window", a.xWindow(), strconv.Itoa(x-16), strconv.Itoa(y), "click", "1").CombinedOutput(); err != nil {
		t.Fatalf("clicking Kenji Sato: %v: %s", err, out)
	}
	a.until("Kenji Sato's box ticked by the click", `checked ^Kenji Sato \(technician\)$`, func(s string) bool { return s == "true" })
	a.step("assign-kenji-ticked", "dialogs")
	a.do("tap ^Save$")
	said := a.waitUntil("the per work order answer", "texts", "Assigned to 1 of 2 work orders")
	a.until("the answer drawn", "dialogs", func(s string) bool { return s == "1" })
	a.shoot("assign-where-it-can")
	if !strings.Contains(said, "Kenji Sato does not work for the branch of "+other) || strings.Contains(said, "| Error |") {
		t.Errorf("the answer: %s", said)
	}
}

// TestRealWindowTheGhostKeepsToAFreeLane: on the dispatch board, a work
// order held over Kenji Sato's day that has a visit draws its ghost
// below that visit, the row grown for it, with two lines; over a
// technician of another branch, still held, the board says it cannot be
// planned there, not that nothing was assigned. The hint ends "Plan
// visit…".
func TestRealWindowTheGhostKeepsToAFreeLane(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("ghost-start", "ready")
	a.step("ghost-board", "menu View/Dispatch board")
	a.do("window ^Dispatch board")
	a.step("ghost-1280x800", "resize 1280x800")
	a.step("ghost-next-week", "tapicon forward")
	if status := a.do("texts *widget.Label"); strings.Contains(status, "….") {
		t.Errorf("a fourth dot: %s", status)
	}
	waiting := usNumber.FindAllString(a.do("texts *board.waitingList"), -1)
	if len(waiting) < 2 {
		t.Fatalf("the waiting list shows %v", waiting)
	}
	first, second := waiting[0], waiting[1]
	xy := a.do("boardat Kenji Sato 2 10:00")
	if now, were := dialogCounts(a.step("ghost-planned-first", "drag ^"+regexp.QuoteMeta(first)+"( · |$) "+xy)); now > were {
		a.closes("ghost-planned-anyway", "tap ^Plan anyway$")
	}
	a.waitUntil(first+" on the board", "texts *board.area", first)

	xy = a.do("boardat Kenji Sato 2 14:00")
	a.step("ghost-held-below", "hold ^"+regexp.QuoteMeta(second)+"( · |$) "+xy)
	area := a.do("texts *board.area")
	if !strings.Contains(area, "Wed") && !strings.Contains(area, second) {
		t.Errorf("no ghost of %s over Kenji's day: %s", second, area)
	}
	xy = a.do("boardat Hannah Schmidt 2 14:00")
	a.step("ghost-held-other-branch", "hold ^"+regexp.QuoteMeta(second)+"( · |$) "+xy)
	status := a.do("texts *widget.Label")
	if strings.Contains(status, "nothing was assigned") || !strings.Contains(status, "cannot be planned here") {
		t.Errorf("held over another branch's technician the board says: %s", status)
	}
	// Let go over the waiting list: nothing planned.
	a.do("hold ^" + regexp.QuoteMeta(second) + "( · |$) 1200 300")
	a.step("ghost-released", "release")
}
