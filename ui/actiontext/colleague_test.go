package actiontext

import (
	"testing"

	"github.com/workorderdesk/workdesk/outbox"
)

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
		if got := ColleagueDid(who, c.event, c.whom); got != who+" "+c.did {
			t.Errorf("%s: Activity says %q; want %q", c.event, got, who+" "+c.did)
		}
		if got := ColleagueDidThis(who, c.event, c.whom); got != who+" "+c.didThis {
			t.Errorf("%s: the header says %q; want %q", c.event, got, who+" "+c.didThis)
		}
		if got := ColleagueBefore(who, c.event, c.whom, at); got != c.before {
			t.Errorf("%s: a refusal is explained as %q; want %q", c.event, got, c.before)
		}
	}
	for _, r := range outbox.WriteRoutes() {
		if !worded[r.Event] {
			t.Errorf("the hub event %q (%s %s) has no row here", r.Event, r.Method, r.Path)
		}
	}
}
