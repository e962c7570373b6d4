package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
)

// nteText shows an NTE amount in its own currency; 0 means "No limit".
func nteText(m api.Money) string {
	if m.IsZero() {
		return "No limit"
	}
	return m.Format()
}

// localTime shows a service time (UTC on the wire) in the local zone.
func localTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	lt := t.In(time.Local)
	if lt.Year() != nowFunc().Year() {
		return lt.Format("2 Jan 2006 15:04")
	}
	return lt.Format("Mon 2 Jan 15:04")
}

// nowFunc is the UI's clock; tests pin it.
var nowFunc = time.Now

// timeLeft says how far a deadline is, the way a supervisor reads it.
func timeLeft(deadline time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	d := deadline.Sub(nowFunc())
	past := d < 0
	if past {
		d = -d
	}
	var s string
	switch {
	case d < time.Minute:
		s = "now"
		return s
	case d < time.Hour:
		s = fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		s = fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
	default:
		s = fmt.Sprintf("%d days", int(d.Hours()/24))
	}
	if past {
		return s + " overdue"
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
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
