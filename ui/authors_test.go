package ui

import (
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestEveryMessageAndActivityLineNamesItsAuthor: a message reads as the
// customer's, the person's own, a colleague's by name, or a crew member's
// as the service signs it in the thread; an Activity line of a
// notification says the customer or our team, never a name from the
// notification's body (its token does not cover it).
func TestEveryMessageAndActivityLineNamesItsAuthor(t *testing.T) {
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
	for _, c := range []struct {
		h    api.EventHeader
		want string
	}{
		{api.EventHeader{Action: "QuoteChanged", Sender: customer}, "The customer: Quote changed"},
		{api.EventHeader{Action: "AppointmentInfoChanged", Sender: crew}, "Our team, in CorrigoPro: Appointment info changed"},
		{api.EventHeader{Action: "NteChanged"}, "The customer: NTE changed"},
	} {
		if got := eventTitle(api.Event{Header: c.h}); got != c.want {
			t.Errorf("a notification %+v reads %q, want %q", c.h, got, c.want)
		}
		if strings.Contains(eventTitle(api.Event{Header: c.h}), "Aisha") {
			t.Errorf("a name was taken from a notification's body, which its token does not cover")
		}
	}
}
