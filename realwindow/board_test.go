package realwindow

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// usNumber finds the numbers of work orders of the demo's US branch, the
// one Kenji Sato works for (Northwind, Harbor Point, Lakeside).
var usNumber = regexp.MustCompile(`\b(?:NWR|HPH|LMG)\d{5}\b`)

// TestRealWindowDispatchBoard opens View › Dispatch board in the demo and
// plans as a person does: drags a waiting work order onto Kenji Sato's
// Wednesday next week at 10:00 (and, when the board says what is wrong,
// plans it anyway), sees the block there and the plan queued; is warned
// that a second one at 10:30 overlaps and cancels; moves the block to
// Thursday; plans another with the keyboard (select it, Plan visit…,
// Enter); and, offline, plans one more, queued. The work order's Activity
// in the main window lists the assignment and the appointment. Screenshots
// of the board at 1280x800 and 1024x700 are among the steps'.
func TestRealWindowDispatchBoard(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("board-start", "ready")
	a.step("board-opened", "menu View/Dispatch board")
	a.do("window ^Dispatch board")
	a.step("board-1280x800", "resize 1280x800")
	a.step("board-next-week", "tapicon forward") // every day of it ahead

	waiting := usNumber.FindAllString(a.do("texts *board.waitingList"), -1)
	if len(waiting) < 3 {
		t.Fatalf("the waiting list shows %d work orders of the US branch: %v", len(waiting), waiting)
	}
	first, second, third := waiting[0], waiting[1], waiting[2]

	// plan drags number's text to Kenji Sato's day at hh:mm and, if the
	// board asks (late, busy), plans it anyway.
	plan := func(name, number string, day int, at string) {
		t.Helper()
		xy := a.do("boardat Kenji Sato " + strconv.Itoa(day) + " " + at)
		answer := a.step(name, "drag ^"+regexp.QuoteMeta(number)+"( · |$) "+xy)
		if now, were := dialogCounts(answer); now > were {
			if texts := a.do("texts"); !strings.Contains(texts, "on-site-by") && !strings.Contains(texts, "already has") {
				t.Fatalf("%s: the board asked without saying what is wrong: %s", name, texts)
			}
			a.closes(name+"-anyway", "tap ^Plan anyway$")
		}
		a.waitUntil(number+" on the board", "texts *board.area", number)
	}

	plan("board-dropped", first, 2, "10:00")
	if status := a.do("texts *widget.Label"); !strings.Contains(status, "Queued: "+first+" for Kenji Sato, ") {
		t.Errorf("the board does not say the plan was queued: %s", status)
	}

	// A second visit overlapping the first: the board says so; Esc plans
	// nothing, though Tab gave the keyboard to Plan anyway (issue 38: a
	// dialog's focused button kept Esc and Enter in the board's window).
	xy := a.do("boardat Kenji Sato 2 10:30")
	a.dialog("board-overlap", "drag ^"+regexp.QuoteMeta(second)+" · "+xy)
	if texts := a.do("texts"); !strings.Contains(texts, "Kenji Sato already has "+first) {
		t.Fatalf("the overlap is not said: %s", texts)
	}
	on := a.do("tab")
	for tabs := 1; tabs < 3 && !strings.HasSuffix(on, " Plan anyway"); tabs++ {
		on = a.do("tab")
	}
	if !strings.HasSuffix(on, " Plan anyway") {
		t.Fatalf("Tab in the overlap question did not reach Plan anyway: %s", on)
	}
	a.shoot("board-overlap-tabbed")
	a.closes("board-overlap-esc", "key Escape")
	if blocks := a.do("texts *board.area"); strings.Contains(blocks, second) {
		t.Fatalf("a cancelled plan shows on the board: %s", blocks)
	}

	// The block moves to Thursday 14:00.
	plan("board-moved", first, 3, "14:00")

	// Without a mouse: the second work order, Plan visit…, Enter (the
	// first technician of its branch, the week's first day, 09:00).
	a.step("board-select", "tap ^"+regexp.QuoteMeta(second)+" · ")
	a.dialog("board-plan-visit", "tap ^Plan visit…$")
	if texts := a.do("texts"); !strings.Contains(texts, "Plan visit: "+second) || !strings.Contains(texts, "| 09:00 |") {
		t.Fatalf("Plan visit… for %s proposes no technician, day and 09:00: %s", second, texts)
	}
	a.step("board-plan-visit-enter", "key Return")
	if texts := a.do("texts"); strings.Contains(texts, "Plan visit: ") {
		t.Fatalf("Enter did not submit Plan visit…: %s", texts)
	} else if strings.Contains(texts, "Plan anyway") {
		a.closes("board-plan-visit-anyway", "tap ^Plan anyway$")
	}
	a.waitUntil(second+" on the board", "texts *board.area", second)

	// Offline: planned the same, queued.
	a.do("offline")
	plan("board-offline", third, 4, "11:00")
	if status := a.do("texts *widget.Label"); !strings.Contains(status, "Queued: "+third) {
		t.Errorf("offline, the board does not say the plan was queued: %s", status)
	}

	a.step("board-day", "tap ^Day$")
	a.step("board-week", "tap ^Week$")
	a.step("board-today", "tap ^Today$")
	a.step("board-1024x700", "resize 1024x700")

	// The main window: the first work order's Activity lists the
	// assignment and the appointment.
	a.do("window")
	a.step("main-search", "typein *list.SearchEntry "+first)
	a.step("main-open", "tap ^"+first+"$")
	a.step("main-activity", "tapin *container.AppTabs ^Activity$")
	activity := a.do("texts *container.AppTabs")
	for _, want := range []string{"Assign Kenji Sato", "Schedule the visit"} {
		if !strings.Contains(activity, want) {
			t.Errorf("the Activity of %s lacks %q: %s", first, want, activity)
		}
	}
}
