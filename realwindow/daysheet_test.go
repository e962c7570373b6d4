package realwindow

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"
)

// TestRealWindowDaySheet hands a technician their plan as a coordinator
// does: on the dispatch board, next week, a waiting work order is planned
// for Kenji Sato (queued); a tap on his name opens his day sheet of the
// week shown, which has it; Save calendar… and Save PDF… save them through
// the real save picker; the calendar parses, one event per visit, and
// the PDF holds his name and the visit. A tap on a day's heading opens
// that day's sheet, his (the visit planned is still selected); File › Day
// sheet… opens it over the main window. Screenshots of each step, at
// 1280x800 and with the board at 1024x700.
func TestRealWindowDaySheet(t *testing.T) {
	t.Parallel()
	h := home(t)
	a := startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", t.TempDir()}, "HOME="+h)
	a.step("daysheet-start", "ready")
	a.step("daysheet-board", "menu View/Dispatch board")
	a.do("window ^Dispatch board")
	a.step("daysheet-board-1280x800", "resize 1280x800")
	a.step("daysheet-next-week", "tapicon forward")

	// Kenji gets a visit on Wednesday at 10:00 (queued: the sheet reads
	// the plan as the board shows it).
	waiting := usNumber.FindAllString(a.do("texts *board.waitingList"), -1)
	if len(waiting) == 0 {
		t.Fatal("no work order of the US branch waits for a visit")
	}
	planned := waiting[0]
	xy := a.do("boardat Kenji Sato 2 10:00")
	if now, were := dialogCounts(a.step("daysheet-planned", "drag ^"+regexp.QuoteMeta(planned)+"( · |$) "+xy)); now > were {
		a.closes("daysheet-planned-anyway", "tap ^Plan anyway$")
	}
	a.waitUntil(planned+" on the board", "texts *board.area", planned)

	// A technician's row: his sheet of the week shown. The dialog opens
	// once the technicians are read, off the main goroutine.
	a.step("daysheet-tap-row", "tap ^Kenji Sato$")
	texts := a.waitUntil("the day sheet dialog", "texts", "Day sheet and calendar")
	texts = a.waitUntil("the week's count", "texts", "Kenji Sato, ")
	a.shoot("daysheet-dialog")
	week := regexp.MustCompile(`Kenji Sato, (\w{3} \d+ \w{3} \d{4}) – \w{3} \d+ \w{3} \d{4}: ([^|]+)`).FindStringSubmatch(texts)
	if week == nil || strings.HasPrefix(week[2], "no visits") {
		t.Fatalf("the dialog does not say what Kenji's week holds: %s", texts)
	}
	a.step("daysheet-ics-picker", "tap ^Save calendar…$")
	a.step("daysheet-ics-saving", "tap ^Save$")
	a.waitUntil("the calendar's Saved as", "texts", "Saved as ")
	a.shoot("daysheet-ics-saved")
	files, _ := filepath.Glob(filepath.Join(h, "Kenji Sato day sheet *.ics"))
	if len(files) != 1 {
		t.Fatalf("no calendar saved in %s: %v", h, files)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the saved calendar does not parse: %v", err)
	}
	found := false
	for _, e := range cal.Events() {
		if !strings.HasSuffix(e.Id(), "-visit@demo.workorderdesk") {
			t.Errorf("an event's UID is %q", e.Id())
		}
		if strings.HasPrefix(e.GetProperty(ics.ComponentPropertySummary).Value, planned+" · ") {
			found = true
			if got := e.GetProperty(ics.ComponentPropertyDtStart).Value; !strings.HasSuffix(got, "Z") {
				t.Errorf("%s starts at %q, not in UTC", planned, got)
			}
		}
	}
	if !found {
		t.Errorf("the calendar has no event of %s, planned for Kenji: %s", planned, raw)
	}

	a.step("daysheet-pdf-picker", "tap ^Save PDF…$")
	a.step("daysheet-pdf-saving", "tap ^Save$")
	a.waitFor("the PDF's Saved as", func(texts string) bool {
		return strings.Contains(texts, ".pdf") && strings.Contains(texts, "Saved as ")
	})
	a.shoot("daysheet-pdf-saved")
	pdfs, _ := filepath.Glob(filepath.Join(h, "Kenji Sato day sheet *.pdf"))
	if len(pdfs) != 1 {
		t.Fatalf("no day sheet saved in %s: %v", h, pdfs)
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		out, err := exec.Command("pdftotext", pdfs[0], "-").Output()
		if err != nil || !strings.Contains(string(out), "Kenji Sato") || !strings.Contains(string(out), planned) {
			t.Errorf("the saved day sheet does not name Kenji Sato and %s (%v): %s", planned, err, out)
		}
	}
	if dir := os.Getenv("WORKDESK_SHOTS"); dir != "" {
		exec.Command("pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", pdfs[0], filepath.Join(dir, "TestRealWindowDaySheet-pdf")).Run()
	}
	a.closes("daysheet-closed", "tap ^Close$")

	// A day's heading: that day's sheet.
	a.step("daysheet-board-1024x700", "resize 1024x700")
	a.step("daysheet-tap-day", "tap ^Wed$")
	a.waitUntil("the day's sheet", "texts", "Day sheet and calendar")
	texts = a.waitUntil("the day's count", "texts", ", Wed ")
	a.shoot("daysheet-day-dialog")
	// The visit planned is still selected: the sheet is its technician's,
	// and holds it (with whatever else the demo world, whose dates follow
	// today's, planned for him that day).
	if !regexp.MustCompile(`Kenji Sato, Wed \d+ \w{3} \d{4}: [1-9]\d* visits?`).MatchString(texts) {
		t.Errorf("the day's sheet is not Kenji's Wednesday with the visit planned: %s", texts)
	}
	a.closes("daysheet-day-closed", "tap ^Close$")

	// File › Day sheet… over the main window.
	a.do("window")
	a.step("daysheet-menu", "menu File/Day sheet…")
	a.waitUntil("the menu's day sheet", "texts", "Day sheet and calendar")
	a.shoot("daysheet-menu-dialog")
	a.closes("daysheet-menu-closed", "tap ^Close$")
}
