package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/activity"
)

// fixtureOpen creates a work order in the sandbox as spec says, reads it
// into the replica and opens it.
func fixtureOpen(h *harness, spec sandbox.WorkOrderSpec) *api.WorkOrder {
	h.t.Helper()
	created, err := h.sb.CreateWorkOrder(spec)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.eng.Refresh(context.Background(), created.WorkOrderId); err != nil {
		h.t.Fatal(err)
	}
	h.desk.changed([]int64{created.WorkOrderId})
	h.flush()
	h.open(created.WorkOrderId)
	return h.desk.detail.wo
}

// chooseStep opens the Procedures tab on the n-th step (from 1) of the work
// order's first procedure.
func chooseStep(h *harness, n int) (procsForm, api.StepRef) {
	h.t.Helper()
	h.selectTab("Procedures")
	t := procsOf(h)
	p := h.desk.detail.wo.Procedures()[0]
	s := p.Sorted()[n-1]
	ref := api.StepRef{WorkOrderId: h.desk.detail.wo.WorkOrderId, ProcedureId: p.Id, StepId: s.Id}
	t.choose(ref)
	return t, ref
}

// A person completes a step: Done, its temperature with the unit the step
// names, a comment, Save. The step is queued as typed, shows its value in
// the tree while it waits, and reaches the service when sent.
func TestCompletingAStep(t *testing.T) {
	h := newHarness(t)
	fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandbox.ProcedureEditable, Currency: "USD"})
	p, ref := chooseStep(h, 1) // Temperature before (°F), a Float
	save := p.button("Save step")
	if !p.shows("°F") || !p.shows("number") {
		t.Errorf("the value's field does not say the unit °F and the type:\n%s", p.says())
	}
	if !save.Disabled() {
		t.Errorf("Save is enabled before anything was entered")
	}
	p.choice("Done").SetSelected("Done")
	test.Type(p.value(), "38.5")
	test.Type(p.comment(), "before defrost")
	if save.Disabled() {
		t.Fatalf("Save is disabled with a number entered:\n%s", p.says())
	}
	test.Tap(save)
	h.flush()
	rows, _ := h.store.OutboxRows(context.Background(), ref.WorkOrderId)
	if len(rows) != 1 || rows[0].Kind != outbox.KindStepUpdate || !strings.Contains(rows[0].Summary, "Step 1 of Refrigeration service checklist: Done") {
		t.Fatalf("the outbox holds %+v; want the step queued", rows)
	}
	if got := p.row("1. "); !strings.Contains(got, "Done: 38.5 °F") {
		t.Errorf("while queued, the tree says %q", got)
	}
	if !p.shows("Saved: waiting to be sent.") {
		t.Errorf("while queued, the editor says:\n%s", p.says())
	}
	h.settle()
	h.capture("procedures-step-completed")
	h.send()
	st, err := h.eng.Client.GetStep(context.Background(), ref)
	if err != nil || st.Status != api.StepDone || st.Value != "38.5" || st.Comment != "before defrost" {
		t.Errorf("the service's step is %+v, %v", st, err)
	}
	if p.shows("Saved: waiting to be sent.") {
		t.Errorf("once sent, the editor still says it waits:\n%s", p.says())
	}
}

// A value the step's type cannot read is said under the field, and Save
// waits; a yes/no step is a choice, a money step takes the work order's
// currency.
func TestAStepTakesAValueOfItsType(t *testing.T) {
	h := newHarness(t)
	fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusAccepted, Procedure: sandbox.ProcedureEditable, Currency: "JPY"})
	p, _ := chooseStep(h, 4) // Temperature after (°F)
	p.choice("Done").SetSelected("Done")
	test.Type(p.value(), "cold")
	if says := p.says(); !strings.Contains(says, "takes a number") || !p.button("Save step").Disabled() {
		t.Errorf("a temperature of %q: Save disabled %v; the tab says:\n%s", "cold", p.button("Save step").Disabled(), says)
	}
	p, ref := chooseStep(h, 3) // Gaskets OK, a Bool
	if !p.shows("yes or no") || p.choice("Yes") == p.choice("Done") || p.fields() != 1 {
		t.Errorf("a yes/no step does not offer Yes or No alone:\n%s", p.says())
	}
	p.choice("Done").SetSelected("Done")
	p.choice("Yes").SetSelected("No")
	test.Tap(p.button("Save step"))
	h.flush()
	rows, _ := h.store.OutboxRows(context.Background(), ref.WorkOrderId)
	var r api.StepRequest
	if len(rows) != 1 || json.Unmarshal(rows[0].Request, &r) != nil || r.Value != api.StepNo || r.Currency != "" {
		t.Errorf("the yes/no step was queued as %+v", r)
	}
}

// Marking a procedure N/A is offered where the customer allows it, asked
// before, and queued.
func TestMarkingAProcedureNotApplicable(t *testing.T) {
	h := newHarness(t)
	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandbox.ProcedureEditable})
	h.selectTab("Procedures")
	p := procsOf(h)
	proc := wo.Procedures()[0]
	p.tapRow(proc.Name + " — ")
	if na := p.button("Mark N/A…"); na == nil || na.Disabled() || !strings.Contains(p.says(), "Choose one of its steps to complete it.") {
		t.Fatalf("choosing the procedure shows Mark N/A %v:\n%s", na, p.says())
	}
	test.Tap(p.button("Mark N/A…"))
	if !strings.Contains(h.overlayText(), "not applicable") {
		t.Fatalf("Mark N/A asks %q", h.overlayText())
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Mark N/A"))
	h.flush()
	rows, _ := h.store.OutboxRows(context.Background(), wo.WorkOrderId)
	if len(rows) != 1 || rows[0].Kind != outbox.KindProcedureNA {
		t.Fatalf("the outbox holds %+v", rows)
	}
	if got := p.row(proc.Name + " — "); !strings.Contains(got, "Marked N/A") {
		t.Errorf("while queued the procedure reads %q", got)
	}
	if p.button("Mark N/A…") != nil {
		t.Errorf("Mark N/A is still offered on a procedure marked N/A")
	}
	h.send()
	if got, err := h.eng.Client.GetWorkOrder(context.Background(), wo.WorkOrderId); err != nil || !got.WorkDetails.Procedures[0].IsMarkedNa {
		t.Errorf("the service's procedure is not marked N/A")
	}
}

// A procedure marked N/A offers Mark as applicable again, on the
// procedure and on each of its steps, where the rule allows: it is queued
// (MarkAsNa false) without a question, and the step is editable again at
// once, then at the service once sent.
func TestMarkingAProcedureApplicableAgain(t *testing.T) {
	h := newHarness(t)
	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandbox.ProcedureEditable})
	h.selectTab("Procedures")
	p := procsOf(h)
	proc := wo.Procedures()[0]
	p.tapRow(proc.Name + " — ")
	if p.button("Mark as applicable again") != nil {
		t.Errorf("Mark as applicable again is offered on a procedure not marked N/A")
	}
	test.Tap(p.button("Mark N/A…"))
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Mark N/A"))
	h.flush()
	h.send()
	if again := p.button("Mark as applicable again"); again == nil || again.Disabled() {
		t.Fatalf("on the procedure marked N/A, Mark as applicable again is %v", again)
	}

	p, ref := chooseStep(h, 1)
	status := p.choice("Done")
	if !status.Disabled() || !strings.Contains(p.says(), "is marked N/A") {
		t.Fatalf("a step of the N/A procedure: editor disabled %v; the tab says:\n%s", status.Disabled(), p.says())
	}
	again := p.button("Mark as applicable again")
	if again == nil || again.Disabled() {
		t.Fatalf("the step of the N/A procedure offers no Mark as applicable again")
	}
	test.Tap(again)
	h.flush()
	if h.overlayText() != "" {
		t.Errorf("clearing the mark asked %q", h.overlayText())
	}
	rows, _ := h.store.OutboxRows(context.Background(), wo.WorkOrderId)
	var r api.MarkNARequest
	if len(rows) != 2 {
		t.Fatalf("the outbox holds %d rows; want the mark, sent, and its clearing", len(rows))
	}
	last := rows[1]
	if last.Kind != outbox.KindProcedureNA || last.State != storage.OutboxPending || json.Unmarshal(last.Request, &r) != nil || r.MarkAsNa() {
		t.Fatalf("queued: %s %s %s", last.Kind, last.State, last.Request)
	}
	if !bytes.Contains(last.Request, []byte(`"MarkAsNa":false`)) {
		t.Errorf("the queued body is %s", last.Request)
	}
	if status.Disabled() || p.button("Mark as applicable again") != nil {
		t.Errorf("while the clearing is queued, the step's editor is disabled %v, the undo still shown %v", status.Disabled(), p.button("Mark as applicable again") != nil)
	}
	h.send()
	got, err := h.eng.Client.GetWorkOrder(context.Background(), wo.WorkOrderId)
	if err != nil || got.WorkDetails.Procedures[0].IsMarkedNa {
		t.Fatalf("the service's procedure is still marked N/A (%v)", err)
	}
	if err := got.CanUpdateStep(ref); err != nil {
		t.Errorf("the service's step is not editable again: %v", err)
	}
	status.SetSelected("Done")
	if status.Disabled() || p.button("Save step").Disabled() {
		t.Errorf("the step cannot be completed again: editor disabled %v, Save disabled %v", status.Disabled(), p.button("Save step").Disabled())
	}
}

// The internal note says before anything else that the customer never
// sees it; it is edited, saved (queued), sent, and its history says who
// wrote each version and when.
func TestEditingTheInternalNote(t *testing.T) {
	h := newHarness(t)
	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusAccepted})
	h.selectTab("Internal note")
	n := noteOf(h)
	shown := n.says()
	if !strings.Contains(shown, "never shown to the customer") {
		t.Errorf("the note tab does not say the customer never sees it:\n%s", shown)
	}
	if !n.save().Disabled() {
		t.Errorf("Save is enabled before anything was typed")
	}
	test.Type(n.entry(), "Gate code 4471; park behind the dock.")
	test.Tap(n.save())
	h.flush()
	rows, _ := h.store.OutboxRows(context.Background(), wo.WorkOrderId)
	if len(rows) != 1 || rows[0].Kind != outbox.KindNote {
		t.Fatalf("the outbox holds %+v", rows)
	}
	if says := n.says(); !strings.Contains(says, "waiting to be sent") {
		t.Errorf("while queued the note says %q", says)
	}
	h.send()
	history := n.history()
	if len(history) != 2 || history[1] != "Gate code 4471; park behind the dock." || strings.HasPrefix(history[0], "Someone") {
		t.Fatalf("the history shows %q", history)
	}
	if heading := history[0]; !strings.Contains(heading, "current") || !strings.Contains(heading, "20 Nov") {
		t.Errorf("the version is headed %q", heading)
	}
	h.settle()
	h.capture("internal-note")
}

// An edit of the note that meets a newer one when it is sent is not sent:
// the header and the tab show both, and Merge by hand puts them together
// in the editor; saving that replaces the edit.
func TestANoteChangedMeanwhileIsMergedByHand(t *testing.T) {
	h := newHarness(t)
	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusAccepted})
	h.selectTab("Internal note")
	n := noteOf(h)
	test.Type(n.entry(), "Ladder in the van.")
	test.Tap(n.save())
	h.flush()
	if err := h.sb.EditNoteInDesktop(wo.WorkOrderId, "Alarm code 1234.", "Dana Whitfield"); err != nil {
		t.Fatal(err)
	}
	h.waitFor("Dana's note to be heard", func() bool {
		note, _ := h.store.Note(context.Background(), wo.WorkOrderId)
		return note.Current.InternalNote == "Alarm code 1234."
	})
	h.send()
	refusals := headerLines(h)
	if len(refusals) != 1 || refusals[0].retry.Text != "Keep mine" || refusals[0].discard.Text != "Take theirs" || refusals[0].edit.Text != "Merge by hand" {
		t.Fatalf("the header offers %+v", refusals)
	}
	if says := n.says(); !strings.Contains(says, "Theirs (Dana Whitfield") || !strings.Contains(says, "Yours, not sent: “Ladder in the van.”") {
		t.Errorf("the tab does not show theirs and mine:\n%s", says)
	}
	h.settle()
	h.capture("internal-note-changed-meanwhile")
	test.Tap(refusals[0].edit)
	h.flush()
	if n.entry().Text != "Alarm code 1234.\n\nLadder in the van." {
		t.Fatalf("Merge by hand fills the editor with %q", n.entry().Text)
	}
	n.entry().SetText("Alarm code 1234. Ladder in the van.")
	test.Tap(n.save())
	h.flush()
	h.send()
	h2, err := h.eng.Client.NoteHistory(context.Background(), wo.WorkOrderId)
	if err != nil || api.CurrentNote(h2).InternalNote != "Alarm code 1234. Ladder in the van." {
		t.Errorf("the service's note is %+v, %v", h2, err)
	}
	if len(headerLines(h)) != 0 {
		t.Errorf("the stopped edit is still in the header after the merge was sent")
	}
}

// What a colleague did through the office hub is told in the Activity
// tab in their name, saying which step they completed.
func TestAColleaguesStepIsToldByName(t *testing.T) {
	h := newHarness(t)
	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandbox.ProcedureEditable})
	p := wo.Procedures()[0]
	subject, _ := json.Marshal(map[string]any{"ProcedureId": p.Id, "StepId": p.Sorted()[2].Id, "Status": "Done"})
	raw, _ := json.Marshal(map[string]any{
		"Header":      api.EventHeader{WorkOrderId: wo.WorkOrderId, Action: "StepUpdatedByContractor", ActionDate: fixedNow.Add(-time.Minute), MessageId: "m-1"},
		"PerformedBy": map[string]string{"Name": "Ana Ruiz"},
		"Subject":     json.RawMessage(subject),
	})
	ev, err := api.ParseEvent(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.store.HandleEvent(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	h.desk.changed([]int64{wo.WorkOrderId})
	h.flush()
	h.selectTab("Activity")
	shown := strings.Join(texts(tabOf[*activity.Tab](h).Content()), "\n")
	if want := "Ana Ruiz completed step 3 of " + p.Name; !strings.Contains(shown, want) {
		t.Errorf("Activity shows:\n%s\nwant %q", shown, want)
	}
}

// Offline, a saved note waits in the outbox and says so; the entry keeps
// it. Once the service answers again it is sent, and the history has it.
func TestAnOfflineNoteWaitsForTheConnection(t *testing.T) {
	h, cut := newOfflineHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(r.Id)
	h.selectTab("Internal note")
	n := noteOf(h)
	cut.Store(true)
	test.Type(n.entry(), "Key with the security desk.")
	test.Tap(n.save())
	h.flush()
	h.send()
	if says := n.says(); !strings.Contains(says, "waiting for the connection") || n.entry().Text != "Key with the security desk." {
		t.Fatalf("offline, the saved note reads %q and the entry %q", says, n.entry().Text)
	}
	if !n.save().Disabled() {
		t.Errorf("Save is enabled again for the note already saved")
	}
	cut.Store(false)
	h.resend(r.Id)
	if history, says := n.history(), n.says(); len(history) < 2 || history[1] != "Key with the security desk." || !strings.Contains(says, "\nLast changed by") {
		t.Fatalf("once sent the note reads %q, its history %q", says, history)
	}
}

// TestCtrlSSavesWhatTheTabShownEdits: Ctrl+S, typed while the note's text
// has the keyboard, saves the note as Save note does; on a tab with nothing
// to save it says where Ctrl+S saves, and changes nothing.
func TestCtrlSSavesWhatTheTabShownEdits(t *testing.T) {
	h := newHarness(t)
	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusAccepted})
	c := h.win.Canvas()

	h.selectTab("Summary")
	press(c, fyne.KeyS, false)
	if says := h.overlayText(); !strings.Contains(says, "save (ctrl+s) keeps the invoice draft") {
		t.Errorf("Ctrl+S on the Summary tab says %q", says)
	}
	h.dismissOverlays()

	h.selectTab("Internal note")
	n := noteOf(h)
	c.Focus(n.entry())
	test.Type(n.entry(), "Gate code 4471")
	press(c, fyne.KeyS, false)
	h.flush()
	rows, _ := h.store.OutboxRows(context.Background(), wo.WorkOrderId)
	if len(rows) != 1 || rows[0].Kind != outbox.KindNote {
		t.Fatalf("after Ctrl+S the outbox holds %+v; want the note queued", rows)
	}
	if says := n.says(); !strings.Contains(says, "waiting to be sent") {
		t.Errorf("after Ctrl+S the note says %q", says)
	}
	// Saved already: a second Ctrl+S queues nothing more.
	press(c, fyne.KeyS, false)
	h.flush()
	if rows, _ := h.store.OutboxRows(context.Background(), wo.WorkOrderId); len(rows) != 1 {
		t.Errorf("a second Ctrl+S left %d rows in the outbox", len(rows))
	}
}
