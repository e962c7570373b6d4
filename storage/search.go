package storage

import (
	"strings"
	"unicode"
)

// FTSQuery turns what a person typed into an FTS5 MATCH expression that can
// never be a syntax error: each whitespace-separated term becomes a quoted
// phrase (inner quotes doubled) with a prefix star, so "WO-4" finds WO-42,
// "O'Brien" and "a:b" are just text, and the terms must all match. Terms with
// no letter or digit carry nothing the index holds and are dropped; "" means
// "no search".
func FTSQuery(input string) string {
	var b strings.Builder
	for _, term := range strings.Fields(input) {
		if !strings.ContainsFunc(term, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(term, `"`, `""`))
		b.WriteString(`"*`)
	}
	return b.String()
}
