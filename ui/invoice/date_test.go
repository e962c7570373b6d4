package invoice

import (
	"testing"
	"time"
)

// TestAnInvoiceDateIsADayInEveryZone: the day picked is the day stored, as
// UTC midnight, and shown again as that day, whatever the local zone.
func TestAnInvoiceDateIsADayInEveryZone(t *testing.T) {
	for _, zone := range []string{"Pacific/Kiritimati", "America/Los_Angeles", "UTC"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Skipf("no time zone data: %v", err)
		}
		picked := time.Date(2026, 11, 20, 23, 30, 0, 0, loc) // late in the evening there
		stored := invoiceDateFromLocal(&picked)
		if want := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC); !stored.Equal(want) {
			t.Errorf("%s: 20 Nov picked is stored as %v", zone, stored)
		}
		shown := invoiceDateIn(stored, loc)
		if shown.Year() != 2026 || shown.Month() != 11 || shown.Day() != 20 || shown.Location() != loc {
			t.Errorf("%s: stored %v is shown as %v", zone, stored, shown)
		}
	}
	if invoiceDateFromLocal(nil) != nil || invoiceDateToLocal(nil) != nil || invoiceDateToLocal(&time.Time{}) != nil {
		t.Error("no date is not kept as no date")
	}
}
