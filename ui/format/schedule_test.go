package format

import (
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestTheScheduledStartReadsWithItsAccessType: a scheduled start reads as
// a moment and, when the customer gave one, its access type in words;
// none reads "Not scheduled".
func TestTheScheduledStartReadsWithItsAccessType(t *testing.T) {
	start := time.Date(2026, 11, 23, 8, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		schedule *api.Schedule
		want     string
	}{
		{nil, "Not scheduled"},
		{&api.Schedule{Pte: "Appointment"}, "Not scheduled"},
		{&api.Schedule{ScheduledStart: &start}, "Mon 23 Nov 2026 08:30"},
		{&api.Schedule{ScheduledStart: &start, Pte: "CallFirst"}, "Mon 23 Nov 2026 08:30 (Call first)"},
	} {
		if got := Scheduled(&api.WorkOrder{Schedule: c.schedule}); got != c.want {
			t.Errorf("Scheduled(%+v) = %q, want %q", c.schedule, got, c.want)
		}
	}
}
