package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
)

// nteText shows an NTE amount in its own currency; 0 means "no limit".
func nteText(m api.Money) string {
	if m.IsZero() {
		return "no limit"
	}
	return m.Format()
}

// The one way the window writes a day and a time of day, wherever a person
// reads one: "Sat 21 Nov 2026", "14:05", "Sat 21 Nov 2026 14:05". The date
// entries take days as written here.
const (
	dayLayout   = "Mon 2 Jan 2006"
	clockLayout = "15:04"
)

// localTime shows a service time (UTC on the wire) in the local zone.
func localTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(time.Local).Format(dayLayout + " " + clockLayout)
}

// dayText shows the local day of t.
func dayText(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(time.Local).Format(dayLayout)
}

// clockText shows the local time of day of a moment today, and the day
// too for any other ("Synced 14:05", "Synced Fri 20 Nov 2026 17:40").
func clockText(t time.Time) string {
	lt, now := t.In(time.Local), nowFunc().In(time.Local)
	if lt.YearDay() == now.YearDay() && lt.Year() == now.Year() {
		return lt.Format(clockLayout)
	}
	return localTime(t)
}

// nowFunc is the UI's clock; tests pin it.
var nowFunc = time.Now

// timeLeft says how far a deadline is, the way a supervisor reads it:
// "in 8 h 20 min", "2 h 05 min late", "in 3 days".
func timeLeft(deadline time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	return howFar(deadline, true)
}

// howFar is the one way the window says how far a deadline is, with the
// minutes (exact) or in whole hours, as the narrow list column shows it.
func howFar(deadline time.Time, exact bool) string {
	d := deadline.Sub(nowFunc())
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

// statusText spaces a PascalCase status for people: "CheckedIn" → "Checked in".
func statusText[S ~string](s S) string {
	if s == "" {
		return "—"
	}
	var b strings.Builder
	for i, r := range string(s) {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
			b.WriteRune(r + ('a' - 'A'))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// shortStatus fits a status into the table's status column.
func shortStatus(s api.WorkOrderStatus) string {
	if s == api.StatusNeedsCompletionDetails {
		return "Needs details"
	}
	return statusText(s)
}

// sentence capitalises the first letter of a message shown as a sentence
// in a label ("the base URL must…" → "The base URL must…"). Errors are
// worded in lower case to be wrapped; Fyne's error dialog capitalises them
// itself, a label does not.
// Sentence makes s a whole sentence for the person: trimmed, its first
// letter capitalised (in any script), ending in one full stop.
func Sentence(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if s == "" {
		return ""
	}
	if strings.HasSuffix(s, "…") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return sentence(s) // its own mark ends it: no "…." or "?."
	}
	return sentence(s) + "."
}

func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
