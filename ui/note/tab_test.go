package note

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheNoteSaysItIsNeverShownAndListsEveryVersion: the tab says before
// anything else that the customer never sees the note; under the editor,
// every version newest first, headed by who wrote it and when, the
// newest marked current; with none, it says so.
func TestTheNoteSaysItIsNeverShownAndListsEveryVersion(t *testing.T) {
	f := newFake(t)
	f.show()
	if says := f.says(); !strings.HasPrefix(says, noteNeverShown) {
		t.Fatalf("the tab begins %q", says)
	}
	if got := f.history(); !slices.Equal(got, []string{"No earlier versions."}) {
		t.Fatalf("a note never written lists %q", got)
	}
	first := api.NoteEntry{InternalNote: "Gate code 4471.", UpdatedBy: "Dana Whitfield", ActionDate: time.Date(2026, 11, 19, 10, 2, 0, 0, time.UTC)}
	second := api.NoteEntry{InternalNote: "", ActionDate: time.Date(2026, 11, 20, 8, 30, 0, 0, time.UTC)}
	f.note = &storage.Note{Current: second, History: []api.NoteEntry{first, second}, Read: fixedNow}
	f.show()
	want := []string{"Someone · Fri 20 Nov 2026 08:30 · current", "(cleared)", "Dana Whitfield · Thu 19 Nov 2026 10:02", "Gate code 4471."}
	if got := f.history(); !slices.Equal(got, want) {
		t.Fatalf("the history lists %q; want %q", got, want)
	}
	if !strings.Contains(f.says(), "Last changed by Someone · Fri 20 Nov 2026 08:30.") {
		t.Errorf("the tab says %q", f.says())
	}
}

// TestSavingQueuesTheEditFromTheNoteItBeganFrom: Save waits for an edit;
// saving asks the person's name first, queues the text with the note it
// began from, says it is queued and shows the work order again; sent, the
// note is the person's and Save waits for the next edit.
func TestSavingQueuesTheEditFromTheNoteItBeganFrom(t *testing.T) {
	f := newFake(t)
	f.note = &storage.Note{Current: api.NoteEntry{InternalNote: "Alarm code 1234."}, Text: "Alarm code 1234.", Read: fixedNow}
	f.show()
	if !f.tab.save.Disabled() || !f.tab.revert.Disabled() {
		t.Fatal("Save or Revert is enabled before anything was typed")
	}
	f.tab.text.SetText("Alarm code 1234. Dog on site.")
	if f.tab.save.Disabled() || !strings.Contains(f.says(), "Not saved yet.") {
		t.Fatalf("after typing Save is disabled %v; the tab says %q", f.tab.save.Disabled(), f.says())
	}
	test.Tap(f.tab.save)
	want := []edit{{"Alarm code 1234. Dog on site.", "Alarm code 1234."}}
	if !slices.Equal(f.edits, want) || f.asked != 1 || f.Replaced != 1 {
		t.Fatalf("Save queued %+v (name asked %d times, %d correction contexts); want %+v", f.edits, f.asked, f.Replaced, want)
	}
	if !slices.Equal(f.Said, []string{"Internal note of NWR7"}) || !slices.Equal(f.reloads, []int64{7}) || len(f.Errors) != 0 {
		t.Fatalf("the window was told %q, reloaded %v, shown errors %q", f.Said, f.reloads, f.Errors)
	}
	f.show()
	if !strings.Contains(f.says(), "Saved: waiting to be sent (") || !f.tab.save.Disabled() {
		t.Errorf("while queued the tab says %q (Save disabled: %v)", f.says(), f.tab.save.Disabled())
	}
	f.sent("Ana Ruiz")
	if !strings.Contains(f.says(), "Last changed by Ana Ruiz") || f.tab.text.Text != "Alarm code 1234. Dog on site." {
		t.Errorf("once sent the tab says %q, the entry %q", f.says(), f.tab.text.Text)
	}
}

// TestANoteTooLongIsNotSaved: past the service's limit the counter turns
// red, the tab says why, and Save stays disabled.
func TestANoteTooLongIsNotSaved(t *testing.T) {
	f := newFake(t)
	f.show()
	f.tab.text.SetText(strings.Repeat("x", api.MaxNoteLength+1))
	if !f.tab.save.Disabled() || !strings.Contains(f.says(), "characters long") {
		t.Fatalf("a note too long: Save disabled %v; the tab says %q", f.tab.save.Disabled(), f.says())
	}
	if len(f.edits) != 0 {
		t.Fatalf("a note too long was queued: %+v", f.edits)
	}
}

// TestANewerNoteDoesNotReplaceAnEdit: what the person is typing stays when
// a colleague's note arrives meanwhile, and the tab says theirs changed.
func TestANewerNoteDoesNotReplaceAnEdit(t *testing.T) {
	f := newFake(t)
	f.show()
	test.Type(f.tab.text, "Ladder in the van.")
	f.note = &storage.Note{Current: api.NoteEntry{InternalNote: "Alarm code 1234.", UpdatedBy: "Dana Whitfield"}, Text: "Alarm code 1234.", Read: fixedNow}
	f.show()
	if f.tab.text.Text != "Ladder in the van." || !strings.Contains(f.says(), "Someone changed the note since you began") {
		t.Fatalf("the entry holds %q; the tab says %q", f.tab.text.Text, f.says())
	}
	if !f.tab.HoldsOther("Something else") || f.tab.HoldsOther("Ladder in the van.") {
		t.Error("HoldsOther does not tell the person's edit from the one taken back")
	}
}

// TestAStoppedEditIsShownBesideTheirsAndMergedByHand: an edit stopped
// because the note changed shows both notes; its later edits wait until
// the person merges by hand, which puts theirs then ours in the editor;
// that merge may be saved, from the note it was merged over.
func TestAStoppedEditIsShownBesideTheirsAndMergedByHand(t *testing.T) {
	f := newFake(t)
	req, err := json.Marshal(outbox.NoteEdit{NoteRequest: api.NoteRequest{WorkOrderId: 7, InternalNote: "Ladder in the van."}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := &storage.OutboxRow{Id: 9, Kind: outbox.KindNote, State: storage.OutboxFailed, Request: req, WorkOrderIds: []int64{7}}
	theirs := api.NoteEntry{InternalNote: "Alarm code 1234.", UpdatedBy: "Dana Whitfield", ActionDate: fixedNow.Add(-time.Hour)}
	f.note = &storage.Note{Current: theirs, History: []api.NoteEntry{theirs}, Text: theirs.InternalNote, Read: fixedNow, Changed: stopped}
	f.show()
	says := f.says()
	if !strings.Contains(says, "Theirs (Dana Whitfield · Fri 20 Nov 2026 08:00): “Alarm code 1234.”") || !strings.Contains(says, "Yours, not sent: “Ladder in the van.”") {
		t.Fatalf("the tab does not show both notes:\n%s", says)
	}
	test.Type(f.tab.text, " More.")
	if !f.tab.save.Disabled() {
		t.Fatal("a later edit may be saved while the stopped one waits for the person's choice")
	}
	f.correcting = 9
	f.tab.MergeByHand("Ladder in the van.")
	if f.tab.text.Text != "Alarm code 1234.\n\nLadder in the van." {
		t.Fatalf("Merge by hand fills the editor with %q", f.tab.text.Text)
	}
	f.tab.text.SetText("Alarm code 1234. Ladder in the van.")
	test.Tap(f.tab.save)
	if want := []edit{{"Alarm code 1234. Ladder in the van.", "Alarm code 1234."}}; !slices.Equal(f.edits, want) {
		t.Fatalf("the merge queued %+v; want %+v", f.edits, want)
	}
}

// TestAClosedWorkOrdersNoteIsReadOnly: a rejected work order's note can
// be read, not changed, and the tab says why.
func TestAClosedWorkOrdersNoteIsReadOnly(t *testing.T) {
	f := newFake(t)
	f.wo.Status = api.StatusRejected
	f.note = &storage.Note{Current: api.NoteEntry{InternalNote: "Gate code 4471."}, Text: "Gate code 4471.", Read: fixedNow}
	f.show()
	if !f.tab.text.Disabled() || !f.tab.save.Disabled() || !strings.Contains(f.says(), "was rejected: nothing more can be done on it.") {
		t.Fatalf("a rejected work order's note: entry disabled %v, Save disabled %v; the tab says %q", f.tab.text.Disabled(), f.tab.save.Disabled(), f.says())
	}
}
