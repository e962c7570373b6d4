package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

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
