package format

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The one way the window writes a day and a time of day, wherever a person
// reads one: "Sat 21 Nov 2026", "14:05", "Sat 21 Nov 2026 14:05". The date
// entries take days as written here (ParseDay).
const (
	dayLayout   = "Mon 2 Jan 2006"
	clockLayout = "15:04"
)

// Now is the window's clock; tests pin it.
var Now = time.Now

// Time shows a service time (UTC on the wire) in the local zone.
func Time(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(time.Local).Format(dayLayout + " " + clockLayout)
}

// Day shows the local day of t.
func Day(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(time.Local).Format(dayLayout)
}

// Clock shows the local time of day of a moment today, and the day too
// for any other ("Synced 14:05", "Synced Fri 20 Nov 2026 17:40").
func Clock(t time.Time) string {
	lt, now := t.In(time.Local), Now().In(time.Local)
	if lt.YearDay() == now.YearDay() && lt.Year() == now.Year() {
		return lt.Format(clockLayout)
	}
	return Time(t)
}

// TimeLeft says how far a deadline is, the way a supervisor reads it:
// "in 8 h 20 min", "2 h 05 min late", "in 3 days".
func TimeLeft(deadline time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	return HowFar(deadline, true)
}

// Deadline is a deadline's moment with how far it is; "" for none.
func Deadline(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return Time(*t) + "  (" + TimeLeft(*t) + ")"
}

// HowFar is the one way the window says how far a deadline is, with the
// minutes (exact) or in whole hours, as the narrow list column shows it.
func HowFar(deadline time.Time, exact bool) string {
	d := deadline.Sub(Now())
	late := d < 0
	if late {
		d = -d
	}
	var s string
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		s = fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour && exact:
		s = fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
	case d < 48*time.Hour:
		s = fmt.Sprintf("%d h", int(d.Hours()))
	default:
		s = fmt.Sprintf("%d days", int(d.Hours()/24))
	}
	if late {
		return s + " late"
	}
	return "in " + s
}

// Countdown shows a duration as m:ss, "15:00" down to "0:00".
func Countdown(d time.Duration) string {
	s := int(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// dayInputs are the ways ParseDay reads a day: the window's own, without
// the weekday, with the month in full, and ISO.
var dayInputs = []string{dayLayout, "2 Jan 2006", "Monday 2 January 2006", "2 January 2006", "Mon 2 January 2006", "Monday 2 Jan 2006", "2006-01-02"}

// ParseDay reads a day as Day writes it (local midnight), with or without
// the weekday, the month short or long, or as 2026-11-21; it says in plain
// words when it cannot.
func ParseDay(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ")
	for _, layout := range dayInputs {
		if d, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return d, nil
		}
	}
	return time.Time{}, errors.New("not a date: write it as " + Now().Format("2 Jan 2006") + ", or pick it with the calendar button")
}

// DayExample is today as Day writes it, for a date field's placeholder.
func DayExample() string { return "e.g. " + Now().Format(dayLayout) }

// Month names the month of t: "November 2026".
func Month(t time.Time) string { return t.Format("January 2006") }

// Weekday is the short name of a day of the week in a calendar's header: "Mo".
func Weekday(d time.Weekday) string { return d.String()[:2] }

// Calendar is the date widgets' way of writing and reading days (an
// xwidget.Calendar): this package's.
type Calendar struct{}

func (Calendar) Day(t time.Time) string               { return Day(t) }
func (Calendar) ParseDay(s string) (time.Time, error) { return ParseDay(s) }
func (Calendar) DayExample() string                   { return DayExample() }
func (Calendar) Month(t time.Time) string             { return Month(t) }
func (Calendar) Weekday(d time.Weekday) string        { return Weekday(d) }
func (Calendar) Today() time.Time                     { return Now() }
func (Calendar) TodayLabel() string                   { return "Today" }
