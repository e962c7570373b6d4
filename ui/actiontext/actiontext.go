// Package actiontext is how the window words one of the person's queued
// actions (an outbox row): what it is, where it stands, and what to do
// about one whose answer was lost; and what a colleague did through the
// office hub. The header, the tabs and Activity all say it the same way.
package actiontext

import (
	"strings"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// What names one of our actions; a visit says when it happened, in local
// time.
func What(r storage.OutboxRow) string {
	if !r.Scheduled.IsZero() {
		return "Schedule the visit for " + format.Time(r.Scheduled)
	}
	if r.ActionDate.IsZero() {
		return r.Summary
	}
	return r.Summary + " at " + format.Time(r.ActionDate)
}

// State says where an action stands, in a sentence.
func State(r storage.OutboxRow) string {
	switch r.State {
	case storage.OutboxDone:
		return "Sent: the service accepted it."
	case storage.OutboxFailed:
		if r.MayHaveBeenSent() {
			return Unsure(r)
		}
		return "Refused by the service: " + r.Error
	case storage.OutboxSending:
		return "Sending…"
	case storage.OutboxDiscarded:
		return "Discarded: not sent."
	}
	if Waiting(r) {
		return format.Capital(r.Error) // says why, and that it will be retried
	}
	return "Queued: sending shortly."
}

// Waiting reports a queued action that the service could not be reached
// for yet (it waits to be sent again; r.Error says why).
func Waiting(r storage.OutboxRow) bool {
	return r.State == storage.OutboxPending && r.Attempts > 0 && r.Error != ""
}

// An action whose answer was lost, when nothing could tell whether it
// reached the service (storage.OutboxRow.MayHaveBeenSent), is not a
// refusal: it may well have arrived. The person is asked, in the header,
// the thread and Activity, to send it again or discard it.

// Retry names the button that sends a failed action again.
func Retry(r storage.OutboxRow) string {
	if r.MayHaveBeenSent() {
		return "Send again"
	}
	return "Retry"
}

// Unsure says what is known of an action that may have been sent.
func Unsure(r storage.OutboxRow) string {
	return "May have been sent: " + strings.TrimRight(strings.TrimSpace(r.Error), ".") +
		". If it arrived, discard it; if not, send it again."
}
