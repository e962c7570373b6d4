package actiontext

import (
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/storage"
)

func TestAnActionIsToldWhereItStands(t *testing.T) {
	time.Local = time.UTC
	at := time.Date(2026, 11, 20, 14, 5, 0, 0, time.UTC)
	for _, c := range []struct {
		name        string
		row         storage.OutboxRow
		what, state string
		retry       string
	}{
		{"queued", storage.OutboxRow{Summary: "Accept", State: storage.OutboxPending},
			"Accept", "Queued: sending shortly.", "Retry"},
		{"waiting for the connection", storage.OutboxRow{Summary: "Check in", ActionDate: at, State: storage.OutboxPending, Attempts: 2, Error: "the service could not be reached; retrying"},
			"Check in at Fri 20 Nov 2026 14:05", "The service could not be reached; retrying", "Retry"},
		{"refused", storage.OutboxRow{Summary: "Save invoice", State: storage.OutboxFailed, ErrorCode: 3042, Error: "Only one tax line."},
			"Save invoice", "Refused by the service: Only one tax line.", "Retry"},
		{"answer lost", storage.OutboxRow{Summary: "Send message", State: storage.OutboxFailed, ErrorCode: -1, Error: "the connection dropped."},
			"Send message", "May have been sent: the connection dropped. If it arrived, discard it; if not, send it again.", "Send again"},
		{"a visit", storage.OutboxRow{Summary: "Appointment", Scheduled: at, State: storage.OutboxDone},
			"Schedule the visit for Fri 20 Nov 2026 14:05", "Sent: the service accepted it.", "Retry"},
		{"discarded", storage.OutboxRow{Summary: "Reject", State: storage.OutboxDiscarded},
			"Reject", "Discarded: not sent.", "Retry"},
	} {
		if got := What(c.row); got != c.what {
			t.Errorf("%s: What = %q, want %q", c.name, got, c.what)
		}
		if got := State(c.row); got != c.state {
			t.Errorf("%s: State = %q, want %q", c.name, got, c.state)
		}
		if got := Retry(c.row); got != c.retry {
			t.Errorf("%s: Retry = %q, want %q", c.name, got, c.retry)
		}
	}
}
