package messages

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// TestTheThreadSaysWhoWroteAndWhoSees: with no messages the tab says so;
// each message is headed by who wrote it and when, and who sees it when
// not everyone; one the customer does not read is drawn apart.
func TestTheThreadSaysWhoWroteAndWhoSees(t *testing.T) {
	f := newFake(t)
	if !strings.Contains(f.says(), "No messages yet.") {
		t.Fatalf("an empty thread shows:\n%s", f.says())
	}
	at := time.Date(2026, 11, 19, 14, 5, 0, 0, time.UTC)
	f.thread = []storage.ThreadMessage{
		{Message: api.Message{Text: "Please use the side door.", Created: at, Sender: &api.Sender{Name: "Aisha Begum", Type: "Customer"}}},
		{Message: api.Message{Text: "Gate code 4412", Created: at, MessageVisibility: api.VisibilityCruOnly}, Author: "Ben Okafor"},
	}
	f.show()
	rows := f.rows()
	want := []row{
		{heading: "Aisha Begum (customer) · Thu 19 Nov 2026 14:05", text: "Please use the side door."},
		{heading: "Ben Okafor · Thu 19 Nov 2026 14:05 · Internal · Our crew only", text: "Gate code 4412", tinted: true},
	}
	if len(rows) != len(want) {
		t.Fatalf("the thread draws %d messages; want %d", len(rows), len(want))
	}
	for i, w := range want {
		if g := rows[i]; g.heading != w.heading || g.text != w.text || g.tinted != w.tinted || len(g.buttons) != 0 {
			t.Errorf("message %d is drawn %q %q (tinted %v, buttons %q); want %q %q (tinted %v)", i, g.heading, g.text, g.tinted, g.buttons, w.heading, w.text, w.tinted)
		}
	}
	if strings.Contains(f.says(), "No messages yet.") {
		t.Error("the tab says there are no messages above two")
	}
}

// TestSendingQueuesTheMessageForWhomChosen: the message is queued as
// written for whom the person chose, able to replace a refused one; the
// window says so; the box empties and the next message is to the customer
// and crew again; in the thread it is the person's, on its way.
func TestSendingQueuesTheMessageForWhomChosen(t *testing.T) {
	f := newFake(t)
	f.tab.text.SetText("  Technician arrives at 10:30 ")
	f.tab.vis.SetSelected(format.Visibility(api.VisibilityCruOnly))
	test.Tap(f.tab.send)
	if want := []sent{{"Technician arrives at 10:30", api.VisibilityCruOnly}}; !slices.Equal(f.sent, want) || f.Replaced != 1 {
		t.Fatalf("Send queued %+v (%d correction contexts); want %+v", f.sent, f.Replaced, want)
	}
	if !slices.Equal(f.Said, []string{"Message on NWR7"}) || len(f.Errors) != 0 {
		t.Errorf("the window was told %q, shown errors %q", f.Said, f.Errors)
	}
	if f.tab.text.Text != "" || f.tab.vis.Selected != format.Visibility(api.VisibilityAll) {
		t.Errorf("after sending the box holds %q for %q", f.tab.text.Text, f.tab.vis.Selected)
	}
	rows := f.rows()
	if len(rows) != 1 || rows[0].heading != "You · sending… · Internal · Our crew only" || rows[0].text != "Technician arrives at 10:30" {
		t.Errorf("the thread draws %+v", rows)
	}
}

// TestNothingToSendIsSaidNotQueued: an empty message, or one longer than
// the service takes (the counter then red), is refused with a reason in
// plain words and nothing is queued.
func TestNothingToSendIsSaidNotQueued(t *testing.T) {
	f := newFake(t)
	f.tab.text.SetText("   ")
	test.Tap(f.tab.send)
	long := strings.Repeat("x", api.MaxCommentLength+1)
	f.tab.text.SetText(long)
	if want := fmt.Sprintf("%d / %d", api.MaxCommentLength+1, api.MaxCommentLength); f.tab.counter.Importance != widget.DangerImportance || f.tab.counter.Text != want {
		t.Errorf("a message too long: the counter reads %q (%v)", f.tab.counter.Text, f.tab.counter.Importance)
	}
	test.Tap(f.tab.send)
	if len(f.sent) != 0 || len(f.Errors) != 2 || !strings.Contains(f.Errors[0], "write a message first") {
		t.Fatalf("queued %+v; errors shown %q", f.sent, f.Errors)
	}
	if f.tab.text.Text != long {
		t.Error("the message refused was taken out of the box")
	}
}

// TestARefusedMessageOffersRetryEditAndDiscard: one of ours the service
// refused says so with its reason, and offers Retry, Edit and Discard…,
// each handed to the window with the row; one that may have been sent
// offers Send again and Discard…, not Edit.
func TestARefusedMessageOffersRetryEditAndDiscard(t *testing.T) {
	refused := &storage.OutboxRow{Id: 4, Kind: outbox.KindMessage, State: storage.OutboxFailed, Error: "the customer's desk is closed", ErrorCode: 3000}
	f := newFake(t, storage.ThreadMessage{Message: api.Message{Text: "Technican on site", Created: fixedNow}, Row: refused, Own: true})
	r := f.rows()[0]
	if r.heading != "You · not sent, refused by the service: The customer's desk is closed" || !slices.Equal(r.buttons, []string{"Retry", "Edit", "Discard…"}) {
		t.Fatalf("the refused message is drawn %q with %q", r.heading, r.buttons)
	}
	for _, name := range r.buttons {
		viewtest.Walk(r.item, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok && b.Text == name {
				test.Tap(b)
			}
		})
	}
	if !slices.Equal(f.retried, []int64{4}) || !slices.Equal(f.edited, []int64{4}) || !slices.Equal(f.discarded, []int64{4}) {
		t.Errorf("the window was asked to retry %v, edit %v, discard %v", f.retried, f.edited, f.discarded)
	}

	refused.Error, refused.ErrorCode = "no answer", -1 // the outcome is unknown
	f.show()
	if r := f.rows()[0]; !strings.Contains(r.heading, "May have been sent") || !slices.Equal(r.buttons, []string{"Send again", "Discard…"}) {
		t.Errorf("a message that may have been sent is drawn %q with %q", r.heading, r.buttons)
	}
}

// TestCtrlEnterSendsAndTheWindowsShortcutsStillWork: in the box Ctrl+Enter
// presses Send as the window's shortcut does; any other shortcut is the
// window's.
func TestCtrlEnterSendsAndTheWindowsShortcutsStillWork(t *testing.T) {
	f := newFake(t)
	f.tab.text.SetText("On our way\nETA 20 min")
	f.tab.text.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault})
	if !slices.Equal(f.pressed, []string{"Messages " + string(api.SendMessage)}) || !slices.Equal(f.sent, []sent{{"On our way\nETA 20 min", api.VisibilityAll}}) {
		t.Fatalf("Ctrl+Enter pressed %q and queued %+v", f.pressed, f.sent)
	}
	find := &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	f.tab.text.TypedShortcut(find)
	if len(f.shortcuts) != 1 || f.shortcuts[0] != fyne.Shortcut(find) {
		t.Errorf("the window was handed %v", f.shortcuts)
	}
	if f.tab.text.AcceptsTab() {
		t.Error("Tab stays in the box instead of moving on to who sees it and Send")
	}
}

// TestAClosedWorkOrderTakesNoMessage: Send is disabled and the box says
// why in place of its hint.
func TestAClosedWorkOrderTakesNoMessage(t *testing.T) {
	f := newFake(t)
	f.wo.Status = api.StatusRejected
	f.show()
	if !f.tab.send.Disabled() || !strings.Contains(f.tab.text.PlaceHolder, "was rejected") {
		t.Errorf("a rejected work order: Send disabled %v, the box says %q", f.tab.send.Disabled(), f.tab.text.PlaceHolder)
	}
}

// TestARefusedMessageIsPutBackAndTheCustomerWrittenTo: a refused message
// goes back into the box for whom it was written; the tab tells a message
// of the person's other than it; Write to the customer fills the box for
// the customer with the keyboard in it.
func TestARefusedMessageIsPutBackAndTheCustomerWrittenTo(t *testing.T) {
	f := newFake(t)
	draft := &outbox.Draft{Text: "Technican on site at 10:30", Visibility: api.VisibilityCruOnly}
	if f.tab.HoldsOther(draft) {
		t.Fatal("an empty box holds another message")
	}
	f.tab.text.SetText("Parts arrive on Tuesday")
	if !f.tab.HoldsOther(draft) {
		t.Fatal("the box's own message is not told from the refused one")
	}
	f.tab.EditDraft(draft.Text, draft.Visibility)
	if f.tab.text.Text != draft.Text || f.tab.vis.Selected != "Our crew only" || f.tab.HoldsOther(draft) {
		t.Fatalf("the refused message is back as %q for %q", f.tab.text.Text, f.tab.vis.Selected)
	}

	f.tab.WriteToCustomer("NWR7 needs a higher NTE.")
	if f.tab.text.Text != "NWR7 needs a higher NTE." || f.tab.vis.Selected != "Customer and crew" || f.Win.Canvas().Focused() != fyne.Focusable(f.tab.text) {
		t.Errorf("writing to the customer: %q for %q, focused %v", f.tab.text.Text, f.tab.vis.Selected, f.Win.Canvas().Focused())
	}
}
