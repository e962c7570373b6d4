package xwidget

import "time"

// Calendar is how the date widgets write and read days, and what today
// is: the app's own format (its package format), so that a day reads the
// same in a field, its calendar and the rest of the window.
type Calendar interface {
	Day(t time.Time) string               // "Sat 21 Nov 2026"
	ParseDay(s string) (time.Time, error) // a day as typed, at local midnight; plain words when not one
	DayExample() string                   // a field's placeholder: "e.g. Sat 21 Nov 2026"
	Month(t time.Time) string             // a calendar's title: "November 2026"
	Weekday(d time.Weekday) string        // a calendar's column: "Mo"
	Today() time.Time                     // now, by the app's clock
	TodayLabel() string                   // the calendar's button: "Today"
}
