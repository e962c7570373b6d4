// Package format writes values for a person to read: money, amounts, days,
// times and how far away they are, statuses, and errors in plain words.
// Every view writes them through these functions, so there is one way to
// write each, and one place where the person's locale will choose it.
package format

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Status spaces a PascalCase status for people: "CheckedIn" → "Checked in".
func Status[S ~string](s S) string {
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

// OrDash is s, or a dash where there is nothing to show.
func OrDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// Count is n with thousands separated: "100,000".
func Count(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Sentence makes s a whole sentence for the person: trimmed, its first
// letter capitalised (in any script), ending in one full stop.
func Sentence(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if s == "" {
		return ""
	}
	if strings.HasSuffix(s, "…") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return Capital(s) // its own mark ends it: no "…." or "?."
	}
	return Capital(s) + "."
}

// Capital capitalises the first letter of a message shown as a sentence
// in a label ("the base URL must…" → "The base URL must…"). Errors are
// worded in lower case to be wrapped; Fyne's error dialog capitalises them
// itself, a label does not.
func Capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
