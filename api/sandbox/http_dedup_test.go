package sandbox

import (
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// With NoMessageIdDedup a repeated MessageId is applied again, as a
// service that does not de-duplicate would; by default it is answered
// from memory.
func TestNoMessageIdDedupAppliesRepeats(t *testing.T) {
	t.Parallel()
	for _, off := range []bool{false, true} {
		e := newEnv(t, func(o *Options) { o.NoMessageIdDedup = off })
		id := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) { o.messages = nil })
		for range 2 {
			r := &api.MessageRequest{WorkOrderId: id, Text: "same id twice"}
			r.MessageId = "fixed-id"
			if err := e.client.SendMessage(e.ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		msgs, err := e.client.ListMessages(e.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if off {
			want = 2
		}
		if len(msgs) != want {
			t.Errorf("NoMessageIdDedup=%v: %d messages after two posts with one MessageId; want %d", off, len(msgs), want)
		}
	}
}
