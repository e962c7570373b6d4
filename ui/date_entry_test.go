package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestDateEntrySaysWhatIsWrongInPlainWords: an empty date is not an error,
// a picked one is valid, and a typed one that cannot be read says so in
// words, never with Go's parse error.
func TestDateEntrySaysWhatIsWrongInPlainWords(t *testing.T) {
	test.NewTempApp(t)
	d := newDateEntry()
	test.NewTempWindow(t, d)

	if err := d.Validate(); err != nil {
		t.Fatalf("an untouched date entry says %v", err)
	}
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.Local)
	d.SetDate(&day)
	if err := d.Validate(); err != nil || d.Text == "" {
		t.Fatalf("a picked date reads %q and says %v", d.Text, err)
	}
	d.SetText("")
	test.Type(d, "the 31st")
	err := d.Validate()
	if err == nil || !strings.HasPrefix(err.Error(), "not a date: write it as ") || !strings.HasSuffix(err.Error(), "or pick it with the calendar button") || strings.Contains(err.Error(), "parsing time") {
		t.Fatalf("a date typed as words says %v", err)
	}
}

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
