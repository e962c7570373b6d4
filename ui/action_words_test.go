package ui

import (
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
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
		if got := queuedNoun(r); got != c.noun {
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
	if got := queuedNoun(storage.OutboxRow{Kind: "fromANewerVersion", Summary: "Do something new"}); got != "Do something new" {
		t.Errorf("a kind this build does not know is called %q; want its summary", got)
	}
}

// What the window says a colleague did through the hub, for every event
// the hub makes of an outbox action: the Activity title, the header's note
// and the explanation of a refusal it caused.
func TestEachColleagueActionIsToldInWords(t *testing.T) {
	const who, at = "Ben Okafor", "10:02"
	cases := []struct {
		event, whom, did, didThis, before string
	}{
		{"AcceptedByContractor", "", "accepted", "accepted this", "Already accepted by Ben Okafor at 10:02."},
		{"RejectedByContractor", "", "rejected", "rejected this", "Already rejected by Ben Okafor at 10:02."},
		{"AppointmentSet", "", "set the appointment", "set the appointment of this", "Ben Okafor set the appointment of this at 10:02, before you."},
		{"CheckedInByContractor", "", "checked in", "checked in on this", "Already checked in by Ben Okafor at 10:02."},
		{"PausedByContractor", "", "paused", "paused this", "Already paused by Ben Okafor at 10:02."},
		{"CheckedOutByContractor", "", "checked out", "checked out of this", "Already checked out by Ben Okafor at 10:02."},
		{"WorkDoneDetailsSent", "", "sent the completion details", "sent the completion details for this", "Ben Okafor sent the completion details for this at 10:02, before you."},
		{"QuoteSubmitted", "", "submitted a quote", "submitted a quote for this", "Ben Okafor submitted a quote for this at 10:02, before you."},
		{"MessageSentByContractor", "", "sent a message", "sent a message on this", "Ben Okafor sent a message on this at 10:02, before you."},
		{"AttachmentAddedByContractor", "", "added an attachment", "added an attachment to this", "Ben Okafor added an attachment to this at 10:02, before you."},
		{"InvoiceSaved", "", "saved the invoice", "saved the invoice of this", "Ben Okafor saved the invoice of this at 10:02, before you."},
		{"InvoiceDeleted", "", "deleted the invoice", "deleted the invoice of this", "Ben Okafor deleted the invoice of this at 10:02, before you."},
		{"InvoiceSubmitted", "", "submitted the invoice", "submitted the invoice of this", "Already invoiced by Ben Okafor at 10:02."},
		{"InvoiceAttachmentAdded", "", "added an invoice attachment", "added an invoice attachment to this", "Ben Okafor added an invoice attachment to this at 10:02, before you."},
		{"InvoiceAttachmentDeleted", "", "deleted an invoice attachment", "deleted an invoice attachment of this", "Ben Okafor deleted an invoice attachment of this at 10:02, before you."},
		{"StepAttachmentAdded", "", "added a step photo", "added a step photo to this", "Ben Okafor added a step photo to this at 10:02, before you."},
		{"StepAttachmentDeleted", "", "deleted a step photo", "deleted a step photo of this", "Ben Okafor deleted a step photo of this at 10:02, before you."},
		{"AssociatesAssigned", "Kenji Sato", "assigned Kenji Sato", "assigned Kenji Sato to this", "Ben Okafor assigned Kenji Sato to this at 10:02, before you."},
		{"AssociatesAssigned", "", "assigned someone", "assigned someone to this", "Ben Okafor assigned someone to this at 10:02, before you."},
		{"AssociatesUnassigned", "Kenji Sato and Mia Novak", "unassigned Kenji Sato and Mia Novak", "unassigned Kenji Sato and Mia Novak from this",
			"Ben Okafor unassigned Kenji Sato and Mia Novak from this at 10:02, before you."},
		{"StepUpdatedByContractor", "", "updated a procedure step", "updated a procedure step on this", "Ben Okafor updated a procedure step on this at 10:02, before you."},
		{"ProcedureMarkedNaByContractor", "", "marked a procedure N/A", "marked a procedure N/A on this", "Already marked N/A by Ben Okafor at 10:02."},
		{"InternalNoteEditedByContractor", "", "edited the internal note", "edited the internal note of this", "Ben Okafor edited the internal note of this at 10:02, before you."},
		// What the hub calls a write it cannot name.
		{"Changed", "", "changed", "changed this", "Ben Okafor changed this at 10:02, before you."},
	}
	worded := map[string]bool{}
	for _, c := range cases {
		worded[c.event] = true
		if got := colleagueDid(who, c.event, c.whom); got != who+" "+c.did {
			t.Errorf("%s: Activity says %q; want %q", c.event, got, who+" "+c.did)
		}
		if got := colleagueDidThis(who, c.event, c.whom); got != who+" "+c.didThis {
			t.Errorf("%s: the header says %q; want %q", c.event, got, who+" "+c.didThis)
		}
		if got := colleagueBefore(who, c.event, c.whom, at); got != c.before {
			t.Errorf("%s: a refusal is explained as %q; want %q", c.event, got, c.before)
		}
	}
	for _, r := range outbox.WriteRoutes() {
		if !worded[r.Event] {
			t.Errorf("the hub event %q (%s %s) has no row here", r.Event, r.Method, r.Path)
		}
	}
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}
