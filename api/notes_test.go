package api

import (
	"strings"
	"testing"
)

// The note history's schema is not published: the answers we can read,
// and the one we must not read as "no note".
func TestNoteHistoryAnswers(t *testing.T) {
	cases := []struct {
		name, answer string
		want         string // the versions, oldest first, "text/by"; "error" for an error
	}{
		{"ours", `{"NoteHistory":[{"InternalNote":"a","UpdatedBy":"Ana","ActionDate":"2025-03-14T09:00:00Z"}],"MessageId":"m"}`, "a/Ana"},
		{"newest first, dated", `{"NoteHistory":[{"InternalNote":"b","ActionDate":"2025-03-14T10:00:00Z"},{"InternalNote":"a","ActionDate":"2025-03-14T09:00:00Z"}]}`, "a/,b/"},
		{"a bare list", `[{"InternalNote":"a"},{"InternalNote":"b"}]`, "a/,b/"},
		{"the custom field history's names", `{"History":[{"Value":"a","UpdatedBy":"Bo","DtStemp":"2025-03-14T09:00:00Z"}]}`, "a/Bo"},
		{"UpdatedBy as a person", `{"NoteHistory":[{"InternalNote":"a","UpdatedBy":{"Name":"Ana","Phone":"1"}}]}`, "a/Ana"},
		{"no note yet", `{"MessageId":"m"}`, ""},
		{"an empty list", `{"NoteHistory":null}`, ""},
		{"empty", ``, ""},
		{"items under another key", `{"Entries":[{"InternalNote":"a"}],"MessageId":"m"}`, "error"},
		{"not JSON", `<html>`, "error"},
	}
	for _, c := range cases {
		h, err := DecodeNoteHistory([]byte(c.answer))
		var got []string
		for _, e := range h {
			got = append(got, e.InternalNote+"/"+e.UpdatedBy)
		}
		g := strings.Join(got, ",")
		if err != nil {
			g = "error"
		}
		if g != c.want {
			t.Errorf("%s: %q (%v); want %q", c.name, g, err, c.want)
		}
	}
	if CurrentNote(nil).InternalNote != "" {
		t.Errorf("no history has a note")
	}
}
