package ui

import (
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/pending"
)

// The words the window says about each outbox action, read from the
// action table: the header's noun, where a refused one is corrected, and
// which colleague's action explains its refusal. Every kind the table
// knows needs its row here, so a new action is worded on purpose.
func TestEachActionIsNamedAndCorrectedInWords(t *testing.T) {
	cases := []struct {
		kind      outbox.Kind
		noun      string
		hint      string   // while correcting it
		conflicts []string // hub events that explain its refusal
	}{
		{outbox.KindAccept, "Acceptance", "", []string{"AcceptedByContractor", "RejectedByContractor"}},
		{outbox.KindReject, "Rejection", "in the reason dialog and reject again", []string{"AcceptedByContractor", "RejectedByContractor"}},
		{outbox.KindBulkAccept, "Acceptance", "", []string{"AcceptedByContractor", "RejectedByContractor"}},
		{outbox.KindBulkReject, "Rejection", "", []string{"AcceptedByContractor", "RejectedByContractor"}},
		{outbox.KindAppointment, "Scheduled start", "in the Visit tab and set the scheduled start", []string{"RejectedByContractor", "CheckedOutByContractor"}},
		{outbox.KindCheckIn, "Check-in", "in the Visit tab and check in", []string{"CheckedInByContractor", "CheckedOutByContractor", "RejectedByContractor"}},
		{outbox.KindPause, "Pause", "in the Visit tab and pause", []string{"PausedByContractor", "CheckedOutByContractor"}},
		{outbox.KindCheckOut, "Check-out", "in the Visit tab and check out", []string{"CheckedOutByContractor", "PausedByContractor"}},
		{outbox.KindWorkDoneDetails, "Completion details", "", nil},
		{outbox.KindQuote, "Quote", "in the Quote tab and submit it", []string{"QuoteSubmitted"}},
		{outbox.KindMessage, "Message", "in the Messages tab and send it", nil},
		{outbox.KindAttachment, "File", "", nil},
		{outbox.KindInvoiceSave, "Invoice", "in the Invoice tab and save it", []string{"InvoiceSubmitted", "InvoiceDeleted"}},
		{outbox.KindInvoiceSubmit, "Invoice submission", "in the Invoice tab and submit it", []string{"InvoiceSubmitted", "InvoiceDeleted"}},
		{outbox.KindInvoiceDelete, "Invoice deletion", "", []string{"InvoiceSubmitted", "InvoiceDeleted"}},
		{outbox.KindInvoiceAttachmentAdd, "Invoice file", "", nil},
		{outbox.KindInvoiceAttachmentRemove, "Invoice file removal", "", nil},
		{outbox.KindStepAttachmentAdd, "Step file", "", nil},
		{outbox.KindStepAttachmentRemove, "Step file removal", "", nil},
		{outbox.KindAssign, "Assignment", "in the Visit tab and assign", []string{"RejectedByContractor"}},
		{outbox.KindUnassign, "Unassignment", "in the Visit tab and unassign", []string{"RejectedByContractor"}},
		{outbox.KindStepUpdate, "Step", "in the Procedures tab and save the step", []string{"ProcedureMarkedNaByContractor"}},
		{outbox.KindProcedureNA, "Procedure N/A", "", []string{"ProcedureMarkedNaByContractor"}},
		{outbox.KindNote, "Internal note", "in the Internal note tab and save it", []string{"InternalNoteEditedByContractor"}},
	}
	listed := map[outbox.Kind]bool{}
	for _, c := range cases {
		listed[c.kind] = true
		r := storage.OutboxRow{Kind: c.kind, Summary: "the summary"}
		if got := pending.Noun(r); got != c.noun {
			t.Errorf("%s: the header calls it %q; want %q", c.kind, got, c.noun)
		}
		wantHint := "Correct it and queue it again: the corrected one replaces this one."
		if c.hint != "" {
			wantHint = "Correct it " + c.hint + ": the corrected one replaces this one."
		}
		if got := correctingHint(r); got != wantHint {
			t.Errorf("%s: while correcting, the header says %q; want %q", c.kind, got, wantHint)
		}
		if got := c.kind.Conflicts(); !sameSet(got, c.conflicts) {
			t.Errorf("%s: a refusal is explained by a colleague's %v; want %v", c.kind, got, c.conflicts)
		}
	}
	for _, k := range outbox.Kinds() {
		if !listed[k] {
			t.Errorf("the outbox kind %q has no row here", k)
		}
		// Every form an action is corrected in is one the window has.
		if form, _ := k.CorrectedIn(); form != outbox.NoForm && correctors[form].open == nil {
			t.Errorf("%s is corrected in the form %q, which no view registers (correctIn)", k, form)
		}
	}
	if got := pending.Noun(storage.OutboxRow{Kind: "fromANewerVersion", Summary: "Do something new"}); got != "Do something new" {
		t.Errorf("a kind this build does not know is called %q; want its summary", got)
	}
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}
