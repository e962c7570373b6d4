package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
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

// The note as it stands is the work order's InternalNote; the history only
// says who wrote it and when. A work order without InternalNote (an older
// service, another name) leaves the history's newest version to say.
func TestNoteOfTheWorkOrder(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2025, 3, 14, h, 0, 0, 0, time.UTC) }
	history := []NoteEntry{
		{InternalNote: "gate 4471", UpdatedBy: "Ana", ActionDate: at(9)},
		{InternalNote: "gate 9000", UpdatedBy: "Bo", ActionDate: at(10)},
		{InternalNote: "gate 4471", UpdatedBy: "Cy", ActionDate: at(11)},
	}
	cases := []struct {
		name    string
		wo      *WorkOrder
		history []NoteEntry
		want    NoteEntry
	}{
		{"the work order's, named from the history", &WorkOrder{InternalNote: new("gate 9000")}, history,
			NoteEntry{InternalNote: "gate 9000", UpdatedBy: "Bo", ActionDate: at(10)}},
		{"the newest version with that text", &WorkOrder{InternalNote: new("gate 4471")}, history,
			NoteEntry{InternalNote: "gate 4471", UpdatedBy: "Cy", ActionDate: at(11)}},
		{"a text the history does not hold yet", &WorkOrder{InternalNote: new("gate 1234")}, history,
			NoteEntry{InternalNote: "gate 1234"}},
		{"cleared on the work order", &WorkOrder{InternalNote: new("")}, history, NoteEntry{}},
		{"InternalNote absent: the history's newest", &WorkOrder{}, history, history[2]},
		{"no work order: the history's newest", nil, history, history[2]},
		{"neither", &WorkOrder{}, nil, NoteEntry{}},
	}
	for _, c := range cases {
		if got := NoteOf(c.wo, c.history); got != c.want {
			t.Errorf("%s: %+v; want %+v", c.name, got, c.want)
		}
	}
	// Decoded from the service's answer: present, present and empty, absent.
	for answer, want := range map[string]*string{
		`{"WorkOrderId":1,"InternalNote":"gate 4471"}`: new("gate 4471"),
		`{"WorkOrderId":1,"InternalNote":""}`:          new(""),
		`{"WorkOrderId":1,"InternalNote":null}`:        nil,
		`{"WorkOrderId":1}`:                            nil,
	} {
		var wo WorkOrder
		if err := json.Unmarshal([]byte(answer), &wo); err != nil {
			t.Fatal(err)
		}
		if (wo.InternalNote == nil) != (want == nil) || want != nil && *wo.InternalNote != *want {
			t.Errorf("%s: InternalNote %v; want %v", answer, wo.InternalNote, want)
		}
	}
}

// An edit goes out only over the note it began from; one whose text is the
// note already is done; any other note is a change the person decides on.
func TestJudgeNoteEdit(t *testing.T) {
	cases := []struct {
		now, base, mine string
		want            NoteVerdict
	}{
		{"gate 4471", "gate 4471", "gate 9000", NoteSend},
		{"gate 9000", "gate 4471", "gate 9000", NoteLanded},
		{"gate 1234", "gate 4471", "gate 9000", NoteChanged},
		{"", "", "first note", NoteSend},
		{"", "gate 4471", "", NoteLanded},
		{"", "gate 4471", "gate 9000", NoteChanged},
	}
	for _, c := range cases {
		if got := JudgeNoteEdit(NoteEntry{InternalNote: c.now}, c.base, c.mine); got != c.want {
			t.Errorf("now %q, began from %q, sets %q: %v; want %v", c.now, c.base, c.mine, got, c.want)
		}
	}
}
