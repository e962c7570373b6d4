package messages

import (
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestEveryMessageNamesItsAuthor: a message reads as the customer's, the
// person's own, a colleague's by name, or a crew member's as the service
// signs it in the thread. (An Activity line's author: ui/activity.)
func TestEveryMessageNamesItsAuthor(t *testing.T) {
	customer := &api.Sender{Name: "Aisha Begum", Type: "Customer"}
	crew := &api.Sender{Name: "Carlos Mendez", Type: "CorrigoPro"}
	for _, c := range []struct {
		m    storage.ThreadMessage
		want string
	}{
		{storage.ThreadMessage{Message: api.Message{Sender: customer}}, "Aisha Begum (customer) · "},
		{storage.ThreadMessage{Message: api.Message{Sender: &api.Sender{Name: "CorrigoPro Direct API", Type: "CorrigoPro"}}, Own: true}, "You · "},
		{storage.ThreadMessage{Message: api.Message{Sender: &api.Sender{Name: "CorrigoPro Direct API", Type: "CorrigoPro"}}, Author: "Ben Okafor"}, "Ben Okafor · "},
		{storage.ThreadMessage{Message: api.Message{Sender: crew}}, "Carlos Mendez (our team) · "},
		{storage.ThreadMessage{Message: api.Message{}}, "Our team · "},
	} {
		if got := messageHeading(c.m); !strings.HasPrefix(got, c.want) {
			t.Errorf("a message from %+v (own %v, author %q) reads %q, want it to begin %q", c.m.Sender, c.m.Own, c.m.Author, got, c.want)
		}
	}
}
