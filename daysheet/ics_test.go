package daysheet_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/daysheet"
)

func calendar(t *testing.T, s daysheet.Sheet, now time.Time) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := daysheet.WriteICS(&buf, s, daysheet.CalendarOptions{Now: now, Domain: "demo"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCalendarParses: the .ics, read by an iCalendar parser of its own
// (arran4/golang-ical), holds one event per visit with a UID per work
// order's visit, DTSTART and DTEND in UTC from the planned start, the
// site's address as LOCATION, the work requested in DESCRIPTION, and the
// visit checked out CANCELLED; its lines are CRLF and at most 75 octets,
// folded between characters.
func TestCalendarParses(t *testing.T) {
	s := week(t)
	raw := calendar(t, s, time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC))
	for i, line := range strings.SplitAfter(string(raw), "\r\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "\r\n") || strings.Contains(strings.TrimSuffix(line, "\r\n"), "\n") {
			t.Fatalf("line %d does not end in CRLF alone: %q", i, line)
		}
		if n := len(line) - 2; n > 75 || !utf8.ValidString(line) {
			t.Errorf("line %d is %d octets or cuts a character: %q", i, n, line)
		}
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if m := cal.CalendarProperties; !slices.ContainsFunc(m, func(p ics.CalendarProperty) bool {
		return p.IANAToken == "METHOD" && p.Value == "PUBLISH"
	}) {
		t.Error("no METHOD:PUBLISH")
	}
	events := cal.Events()
	if len(events) != len(s.Visits) {
		t.Fatalf("%d events for %d visits", len(events), len(s.Visits))
	}
	byUID := map[string]*ics.VEvent{}
	for _, e := range events {
		byUID[e.Id()] = e
	}
	for _, v := range s.Visits {
		wo := v.WorkOrder
		uid := "workorder-" + strconv.FormatInt(wo.WorkOrderId, 10) + "-visit@demo.workorderdesk"
		e := byUID[uid]
		if e == nil {
			t.Fatalf("no event %s among %v", uid, keys(byUID))
		}
		prop := func(p ics.ComponentProperty) string {
			if x := e.GetProperty(p); x != nil {
				return x.Value
			}
			return ""
		}
		start := wo.ScheduledStart().UTC()
		if got := prop(ics.ComponentPropertyDtStart); got != start.Format("20060102T150405Z") {
			t.Errorf("%s: DTSTART %s, want %s in UTC", wo.WorkOrderNumber, got, start.Format("20060102T150405Z"))
		}
		if got := prop(ics.ComponentPropertyDtEnd); got != start.Add(api.DefaultVisitLength).Format("20060102T150405Z") {
			t.Errorf("%s: DTEND %s", wo.WorkOrderNumber, got)
		}
		if got, err := e.GetStartAt(); err != nil || !got.Equal(start) {
			t.Errorf("%s: the parser reads the start as %v (%v)", wo.WorkOrderNumber, got, err)
		}
		if got := prop(ics.ComponentPropertySummary); !strings.HasPrefix(got, wo.WorkOrderNumber+" · "+wo.Customer.Name) {
			t.Errorf("%s: SUMMARY %q", wo.WorkOrderNumber, got)
		}
		loc := prop(ics.ComponentPropertyLocation)
		for _, part := range []string{wo.SiteName(), wo.ServiceLocation.Address.Street1, wo.ServiceLocation.Address.City} {
			if !strings.Contains(loc, part) {
				t.Errorf("%s: LOCATION %q lacks %q", wo.WorkOrderNumber, loc, part)
			}
		}
		desc := prop(ics.ComponentPropertyDescription)
		if !strings.HasPrefix(desc, strings.TrimSpace(wo.AccompanyingMessage)) {
			t.Errorf("%s: DESCRIPTION does not start with the work requested: %q", wo.WorkOrderNumber, desc)
		}
		if strings.Contains(desc, v.Note) && v.Note != "" {
			t.Errorf("%s: the internal note is in the calendar unasked", wo.WorkOrderNumber)
		}
		want := "CONFIRMED"
		if wo.Status.VisitOver() {
			want = "CANCELLED"
		}
		if got := prop(ics.ComponentPropertyStatus); got != want {
			t.Errorf("%s (%s): STATUS %s, want %s", wo.WorkOrderNumber, wo.Status, got, want)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestCalendarAgainUpdates: made again later, after a visit moved and
// another was checked out, the calendar has the same UIDs with a higher
// SEQUENCE, so that importing it updates the events it made before.
func TestCalendarAgainUpdates(t *testing.T) {
	s := week(t)
	first := parse(t, calendar(t, s, time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)))
	moved := s.Visits[0].WorkOrder.ScheduledStart().Add(26 * time.Hour)
	s.Visits[0].WorkOrder.Schedule.ScheduledStart = &moved
	s.Visits[3].WorkOrder.Status = api.StatusCheckedOut
	second := parse(t, calendar(t, s, time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)))
	if !slices.Equal(keys(first), keys(second)) {
		t.Fatalf("the UIDs changed: %v, then %v", keys(first), keys(second))
	}
	for uid, e := range second {
		a, _ := strconv.Atoi(first[uid].GetProperty(ics.ComponentPropertySequence).Value)
		b, _ := strconv.Atoi(e.GetProperty(ics.ComponentPropertySequence).Value)
		if b <= a {
			t.Errorf("%s: SEQUENCE %d, then %d", uid, a, b)
		}
	}
	if got, _ := second[daysheet.UID(s.Visits[0].WorkOrder.WorkOrderId, "demo")].GetStartAt(); !got.Equal(moved) {
		t.Errorf("the moved visit starts at %v", got)
	}
	if got := second[daysheet.UID(s.Visits[3].WorkOrder.WorkOrderId, "demo")].GetProperty(ics.ComponentPropertyStatus).Value; got != "CANCELLED" {
		t.Errorf("the visit checked out since is %s", got)
	}
}

func parse(t *testing.T, raw []byte) map[string]*ics.VEvent {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ics.VEvent{}
	for _, e := range cal.Events() {
		out[e.Id()] = e
	}
	return out
}

// TestCalendarTextRoundTrips: commas, semicolons, backslashes, line
// breaks and every script in what the customer wrote come back from the
// parser as written.
func TestCalendarTextRoundTrips(t *testing.T) {
	s := week(t)
	wo := s.Visits[0].WorkOrder
	wo.AccompanyingMessage = "Freezer; door seal, hinge \\ latch.\nSecond line: さくら 서울 Москва Αθήνα Łódź"
	e := parse(t, calendar(t, s, time.Now()))[daysheet.UID(wo.WorkOrderId, "demo")]
	if got := e.GetProperty(ics.ComponentPropertyDescription).Value; !strings.HasPrefix(got, wo.AccompanyingMessage) {
		t.Errorf("DESCRIPTION reads back %q", got)
	}
}

// TestCalendarImportsIntoKhal: khal, a calendar program of Debian's,
// imports the file into a calendar and lists the visits at their times;
// the file made again after a visit moved and one was checked out,
// imported again, updates them (no second copy), the checked-out one
// cancelled.
func TestCalendarImportsIntoKhal(t *testing.T) {
	if _, err := exec.LookPath("khal"); err != nil {
		t.Skip("khal is not installed (apt-get install khal)")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	os.MkdirAll(filepath.Join(dir, "cal"), 0o700)
	os.WriteFile(conf, []byte(`[calendars]
[[visits]]
path = `+filepath.Join(dir, "cal")+`
type = calendar
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
default_timezone = UTC
local_timezone = UTC
`), 0o600)
	khal := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("khal", append([]string{"-c", conf}, args...)...)
		cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "HOME="+dir, "TZ=UTC")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("khal %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	importFile := func(raw []byte) {
		t.Helper()
		path := filepath.Join(dir, "visits.ics")
		os.WriteFile(path, raw, 0o600)
		khal("import", "--batch", "-a", "visits", path)
	}
	list := func() []string {
		t.Helper()
		out := khal("list", "--format", "{uid}|{start}|{status}|{title}", "2026-11-30", "8d")
		// An event past midnight is listed under both its days: once each.
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); strings.Contains(l, "|") && !slices.Contains(lines, l) {
				lines = append(lines, l)
			}
		}
		return lines
	}
	s := week(t)
	importFile(calendar(t, s, time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)))
	lines := list()
	if len(lines) != len(s.Visits) {
		t.Fatalf("khal lists %d events for %d visits:\n%s", len(lines), len(s.Visits), strings.Join(lines, "\n"))
	}
	for _, v := range s.Visits {
		want := daysheet.UID(v.WorkOrder.WorkOrderId, "demo") + "|" + v.WorkOrder.ScheduledStart().UTC().Format("2006-01-02 15:04") + "|"
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("khal does not list %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}

	moved := s.Visits[0].WorkOrder.ScheduledStart().Add(26 * time.Hour)
	s.Visits[0].WorkOrder.Schedule.ScheduledStart = &moved
	s.Visits[3].WorkOrder.Status = api.StatusCheckedOut
	importFile(calendar(t, s, time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)))
	lines = list()
	if files, _ := filepath.Glob(filepath.Join(dir, "cal", "*.ics")); len(files) != len(s.Visits) {
		t.Errorf("imported again, khal's calendar holds %d events for %d visits: %v", len(files), len(s.Visits), files)
	}
	if len(lines) != len(s.Visits) {
		t.Fatalf("imported again, khal lists %d events for %d visits:\n%s", len(lines), len(s.Visits), strings.Join(lines, "\n"))
	}
	for i, want := range map[int]string{
		0: daysheet.UID(s.Visits[0].WorkOrder.WorkOrderId, "demo") + "|" + moved.UTC().Format("2006-01-02 15:04") + "|CONFIRMED",
		3: daysheet.UID(s.Visits[3].WorkOrder.WorkOrderId, "demo") + "|" + s.Visits[3].WorkOrder.ScheduledStart().UTC().Format("2006-01-02 15:04") + "|CANCELLED",
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("visit %d: khal does not list %q:\n%s", i, want, strings.Join(lines, "\n"))
		}
	}
}
