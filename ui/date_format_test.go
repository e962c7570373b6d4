package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheDateEntryTakesTheDayAsTheWindowWritesIt: a date field shows its
// day as the window writes days, takes it typed that way (with or without
// the weekday, the month short or long, or as 2026-11-20), says in plain
// words what it cannot read, and the calendar fills it in the same way.
func TestTheDateEntryTakesTheDayAsTheWindowWritesIt(t *testing.T) {
	test.NewTempApp(t)
	e := newDateEntry()
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(400, 300))

	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	e.SetDate(&day)
	if e.Text != "Fri 20 Nov 2026" {
		t.Errorf("the field shows %q, want Fri 20 Nov 2026", e.Text)
	}
	if !strings.Contains(e.PlaceHolder, "Fri 20 Nov 2026") {
		t.Errorf("the empty field's example reads %q", e.PlaceHolder)
	}
	for _, typed := range []string{"20 Nov 2026", "Fri 20 Nov 2026", "20 November 2026", "friday 20 november 2026", "2026-11-20", " 20  Nov, 2026 "} {
		var told *time.Time
		e.OnChanged = func(d *time.Time) { told = d }
		e.SetText(typed)
		if e.Date == nil || !e.Date.Equal(day) || told == nil || !told.Equal(day) {
			t.Errorf("typing %q gives the day %v (told %v), want 20 Nov 2026", typed, e.Date, told)
		}
		if err := e.Validator(typed); err != nil {
			t.Errorf("typing %q is refused: %v", typed, err)
		}
	}
	e.SetText("20/11/2026")
	if e.Date != nil {
		t.Errorf("20/11/2026 (day or month first?) was read as %v", e.Date)
	}
	if err := e.Validator("20/11/2026"); err == nil || strings.Contains(err.Error(), "parsing") || !strings.Contains(err.Error(), "20 Nov 2026") {
		t.Errorf("a day it cannot read is explained as %v", err)
	}

	test.Tap(e.pick)
	var d21 *widget.Button
	walk(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "21" {
			d21 = b
		}
	})
	if d21 == nil {
		t.Fatal("the calendar button opened no calendar")
	}
	test.Tap(d21)
	if e.Text != "Sat 21 Nov 2026" || e.Date == nil || e.Date.Day() != 21 {
		t.Errorf("picking the 21st fills in %q (%v)", e.Text, e.Date)
	}
}

var (
	isoDate     = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
	numericDate = regexp.MustCompile(`\b\d{1,2}/\d{1,2}/\d{2,4}\b`)
	namedDay    = regexp.MustCompile(`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b( \d{4})?`)
)

// otherDateFormats lists the dates in s not written the window's one way.
func otherDateFormats(s string) []string {
	bad := append(isoDate.FindAllString(s, -1), numericDate.FindAllString(s, -1)...)
	for _, m := range namedDay.FindAllStringSubmatch(s, -1) {
		if m[3] == "" {
			bad = append(bad, m[0]) // without its year
		}
	}
	return bad
}

// TestDatesOnScreenReadOneWay reads every text the window draws on each
// tab of a checked-in work order with a queued appointment, and the status
// bar: every date is written the one way ("Fri 20 Nov 2026"), none as
// 2026-11-20, 20/11/2026 or without its year.
func TestDatesOnScreenReadOneWay(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	if _, err := h.store.SetAppointment(context.Background(), r.Id, fixedNow.Add(30*time.Hour), ""); err != nil {
		t.Fatal(err)
	}
	h.flush()
	for _, id := range []int64{r.Id, checkedInWithProcedure(h).WorkOrderId} {
		h.open(id)
		for _, it := range h.desk.detail.appTabs.Items {
			h.desk.detail.appTabs.Select(it)
			h.settle()
			drawn := drawnTexts(h.win.Canvas().Content())
			if bad := otherDateFormats(drawn); len(bad) > 0 {
				t.Errorf("the %s tab of %s writes dates as %q", it.Text, h.desk.detail.wo.WorkOrderNumber, bad)
			}
			// A long Activity line wraps: its words are read across the lines.
			if id == r.Id && it.Text == "Activity" && !strings.Contains(strings.ReplaceAll(drawn, " | ", " "), "Schedule the visit for Sat 21 Nov 2026 15:00") {
				t.Errorf("the Activity tab does not show the queued appointment's time the window's way: %s", drawn)
			}
		}
	}
}
