package ui

import (
	"strings"

	"github.com/workorderdesk/workdesk/storage"
)

// An action whose answer was lost, when nothing could tell whether it
// reached the service (storage.OutboxRow.MayHaveBeenSent), is not a
// refusal: it may well have arrived. The person is asked, in the header,
// the thread and Activity, to send it again or discard it.

// retryLabel names the button that sends a failed row again.
func retryLabel(r storage.OutboxRow) string {
	if r.MayHaveBeenSent() {
		return "Send again"
	}
	return "Retry"
}

// unsureText says what is known of a row that may have been sent.
func unsureText(r storage.OutboxRow) string {
	return "May have been sent: " + strings.TrimRight(strings.TrimSpace(r.Error), ".") +
		". If it arrived, discard it; if not, send it again."
}
