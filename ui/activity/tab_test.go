package activity

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestTheTabListsBothSidesNewestFirst: our actions and the customer's
// notifications are one list, newest first, each saying who did it; with
// neither, the tab says nothing has happened yet.
func TestTheTabListsBothSidesNewestFirst(t *testing.T) {
	f := newFake(t)
	f.show()
	if !f.tab.empty.Visible() || len(f.lines()) != 0 {
		t.Fatalf("an empty work order lists %+v (the empty note shown: %v)", f.lines(), f.tab.empty.Visible())
	}

	hourAgo, twoAgo, threeAgo := fixedNow.Add(-time.Hour), fixedNow.Add(-2*time.Hour), fixedNow.Add(-3*time.Hour)
	f.rows = []storage.OutboxRow{
		{Id: 1, Summary: "Accept", State: storage.OutboxDone, Created: threeAgo},
		{Id: 2, Summary: "Check in", State: storage.OutboxPending, Created: hourAgo},
	}
	f.events = []storage.EventRecord{{Event: api.Event{
		Header: api.EventHeader{Action: api.ActionPutOnHold, ActionDate: twoAgo, Sender: &api.Sender{Type: "Customer", Name: "Aisha Begum"}},
		Body:   &api.StatusChangedEvent{Status: api.StatusOnHold, Comment: "Waiting for the landlord's approval."},
	}}}
	f.show()
	got := f.lines()
	want := []struct{ title, text string }{
		{format.Time(hourAgo) + " · You: Check in", "Queued: sending shortly."},
		{format.Time(twoAgo) + " · The customer: Put on hold", "Put on hold — Waiting for the landlord's approval."},
		{format.Time(threeAgo) + " · You: Accept", "Sent: the service accepted it."},
	}
	if len(got) != len(want) {
		t.Fatalf("the tab lists %+v; want %+v", got, want)
	}
	for i, w := range want {
		if got[i].title != w.title || got[i].text != w.text {
			t.Errorf("line %d reads %q / %q; want %q / %q", i, got[i].title, got[i].text, w.title, w.text)
		}
		if got[i].retry != nil || got[i].danger {
			t.Errorf("line %d (%s) offers Retry or reads as refused", i, got[i].title)
		}
	}
	if f.tab.empty.Visible() {
		t.Error("the empty note is still shown over the list")
	}
}

// TestARefusedActionOffersRetryAndDiscard: a refused action of ours reads
// in red with the service's message and what a colleague did first, and
// its Retry and Discard go to the window for that action.
func TestARefusedActionOffersRetryAndDiscard(t *testing.T) {
	f := newFake(t)
	f.rows = []storage.OutboxRow{{Id: 41, Summary: "Accept", State: storage.OutboxFailed, Error: "already accepted", Created: fixedNow.Add(-time.Minute)}}
	f.first[41] = "Already accepted by Ben Okafor at 08:58."
	f.show()
	got := f.lines()
	if len(got) != 1 {
		t.Fatalf("the tab lists %+v", got)
	}
	l := got[0]
	if l.text != "Refused by the service: already accepted Already accepted by Ben Okafor at 08:58." || !l.danger {
		t.Fatalf("the refused action reads %q (in red: %v)", l.text, l.danger)
	}
	if l.retry == nil || l.discard == nil || l.retry.Text != "Retry" {
		t.Fatalf("the refused action offers %+v", l)
	}
	test.Tap(l.retry)
	test.Tap(l.discard)
	if len(f.retried) != 1 || f.retried[0] != 41 || len(f.discarded) != 1 || f.discarded[0] != 41 {
		t.Fatalf("Retry and Discard asked the window for %v and %v; want 41 each", f.retried, f.discarded)
	}
}

// TestAColleaguesActionIsTheirsAndOursIsListedOnce: in office mode a
// colleague's action through the hub is titled with their name; this
// window's person's own, coming back from the hub, is not listed again
// beside the "You:" line of ours.
func TestAColleaguesActionIsTheirsAndOursIsListedOnce(t *testing.T) {
	f := newFake(t)
	f.person = "Bo Chen"
	at := fixedNow.Add(-10 * time.Minute)
	f.rows = []storage.OutboxRow{{Id: 3, Summary: "Send a message", State: storage.OutboxDone, Created: at}}
	f.events = []storage.EventRecord{
		{Event: api.Event{Header: api.EventHeader{Action: "AcceptedByContractor", ActionDate: at.Add(-time.Minute)}}, PerformedBy: "Ana Ruiz"},
		{Event: api.Event{Header: api.EventHeader{Action: "MessageSentByContractor", ActionDate: at}}, PerformedBy: "Bo Chen"},
	}
	f.show()
	var titles []string
	for _, l := range f.lines() {
		titles = append(titles, l.title)
	}
	want := []string{format.Time(at) + " · You: Send a message", format.Time(at.Add(-time.Minute)) + " · Ana Ruiz accepted"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the tab lists %q; want %q", titles, want)
	}
	if l := f.lines()[1]; l.text != "Through the office hub." {
		t.Errorf("the colleague's accept reads %q", l.text)
	}
}

// TestActivityLinesWrap: a long line of the Activity tab wraps in a narrow
// pane instead of running off its edge.
func TestActivityLinesWrap(t *testing.T) {
	f := newFake(t)
	texts := f.tab.list.CreateItem().(*fyne.Container).Objects[0].(*fyne.Container).Objects
	for i, what := range []string{"title", "text"} {
		if l := texts[i].(*widget.Label); l.Wrapping != fyne.TextWrapWord {
			t.Errorf("the Activity line's %s does not wrap", what)
		}
	}
}

// TestEveryNotificationNamesItsAuthor: an Activity line of a notification
// says the customer or our team, never a name from the notification's
// body (its token does not cover it).
func TestEveryNotificationNamesItsAuthor(t *testing.T) {
	customer := &api.Sender{Name: "Aisha Begum", Type: "Customer"}
	crew := &api.Sender{Name: "Carlos Mendez", Type: "CorrigoPro"}
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
