package format

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	time.Local = time.UTC
	Now = func() time.Time { return fixedNow }
	os.Exit(m.Run())
}

// TestOneWayToWriteADate: a moment reads "Fri 20 Nov 2026 09:00" in any
// year, a day "Fri 20 Nov 2026", and a moment of today only its time.
func TestOneWayToWriteADate(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Time(fixedNow), "Fri 20 Nov 2026 09:00"},
		{Time(time.Date(2025, 3, 4, 17, 5, 0, 0, time.UTC)), "Tue 4 Mar 2025 17:05"},
		{Time(time.Time{}), "—"},
		{Day(fixedNow), "Fri 20 Nov 2026"},
		{Clock(fixedNow.Add(2 * time.Hour)), "11:00"},
		{Clock(fixedNow.Add(-12 * time.Hour)), "Thu 19 Nov 2026 21:00"},
		{DayExample(), "e.g. Fri 20 Nov 2026"},
		{Month(fixedNow), "November 2026"},
		{Weekday(time.Monday), "Mo"},
	} {
		if c.got != c.want {
			t.Errorf("reads %q, want %q", c.got, c.want)
		}
	}
}

// A day is read back as written, and in the other ways people write one;
// one it cannot read is explained with an example.
func TestParseDayReadsWhatDayWrites(t *testing.T) {
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for _, typed := range []string{Day(day), "20 Nov 2026", "friday 20 november 2026", "2026-11-20", " 20  Nov, 2026 "} {
		if got, err := ParseDay(typed); err != nil || !got.Equal(day) {
			t.Errorf("ParseDay(%q) = %v, %v; want 20 Nov 2026", typed, got, err)
		}
	}
	if _, err := ParseDay("20/11/2026"); err == nil || err.Error() != "not a date: write it as 20 Nov 2026, or pick it with the calendar button" {
		t.Errorf("an ambiguous day is explained as %v", err)
	}
}

func TestHowFarADeadlineIs(t *testing.T) {
	for _, c := range []struct {
		in    time.Duration
		exact bool
		want  string
	}{
		{30 * time.Second, true, "now"},
		{25 * time.Minute, true, "in 25 min"},
		{8*time.Hour + 20*time.Minute, true, "in 8 h 20 min"},
		{8*time.Hour + 20*time.Minute, false, "in 8 h"},
		{-(2*time.Hour + 5*time.Minute), true, "2 h 05 min late"},
		{74 * time.Hour, true, "in 3 days"},
	} {
		if got := HowFar(fixedNow.Add(c.in), c.exact); got != c.want {
			t.Errorf("HowFar(now%+v, %v) = %q, want %q", c.in, c.exact, got, c.want)
		}
	}
	at := fixedNow.Add(90 * time.Minute)
	if got := Deadline(&at); got != "Fri 20 Nov 2026 10:30  (in 1 h 30 min)" {
		t.Errorf("Deadline = %q", got)
	}
	if Deadline(nil) != "" || TimeLeft(time.Time{}) != "" {
		t.Error("no deadline is written as something")
	}
	if got := Countdown(14*time.Minute + 59*time.Second + 400*time.Millisecond); got != "14:59" {
		t.Errorf("Countdown = %q", got)
	}
}

func TestSentenceCapitalisesTheFirstLetter(t *testing.T) {
	for in, want := range map[string]string{
		"the base URL must be": "The base URL must be",
		"Already":              "Already",
		"":                     "",
		"élan":                 "Élan",
		"3 pending":            "3 pending",
	} {
		if got := Capital(in); got != want {
			t.Errorf("Capital(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Sentence("  the secret is missing.. "); got != "The secret is missing.." {
		// One full stop is taken off and put back: the text's own stay.
		t.Errorf("Sentence = %q", got)
	}
}

func TestStatusesReadAsWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Status(api.StatusCheckedIn), "Checked in"},
		{Status(api.InvoicePendingVerification), "Pending verification"},
		{Status(api.WorkOrderStatus("")), "—"},
		{ShortStatus(api.StatusNeedsCompletionDetails), "Needs details"},
		{OrDash("  "), "—"},
		{InvoiceWaits(api.InvoiceSubmitted), "waiting for the customer to authorize it"},
		{InvoiceWaits(api.InvoiceDraft), ""},
	} {
		if c.got != c.want {
			t.Errorf("reads %q, want %q", c.got, c.want)
		}
	}
}

// Money in its own currency's minor units: an entry shows the digits only.
func TestMoneyInItsOwnCurrency(t *testing.T) {
	usd, _ := api.NewMoney("1240", "USD")
	jpy, _ := api.NewMoney("12000", "JPY")
	for _, c := range []struct{ got, want string }{
		{Amount(usd), "1240.00"},
		{Amount(jpy), "12000"},
		{Nte(api.Money{Currency: "USD"}), "no limit"},
		{Nte(usd), Money(usd)},
	} {
		if c.got != c.want {
			t.Errorf("reads %q, want %q", c.got, c.want)
		}
	}
}

func TestErrorsInPlainWords(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&api.Error{StatusCode: 400, Code: 3001, Message: "The invoice number is required."}, "The invoice number is required."},
		{fmt.Errorf("saving: %w", errors.New("disk full.")), "saving: disk full."},
	} {
		if got := Error(c.err); got != c.want {
			t.Errorf("Error(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// TestSentenceEndsWithOneMark: a message made a sentence gets a full stop
// only when it does not end in a mark of its own already.
func TestSentenceEndsWithOneMark(t *testing.T) {
	for in, want := range map[string]string{
		"enter it again in Connect to office hub…": "Enter it again in Connect to office hub…",
		"is it open?": "Is it open?",
		"sent.":       "Sent.",
		"sent":        "Sent.",
		"  queued  ":  "Queued.",
		"":            "",
	} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCount: a count reads with its thousands separated, as the export's
// progress and the invoice fetch's write it.
func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 12345: "12,345", 100000: "100,000", 1234567: "1,234,567"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
