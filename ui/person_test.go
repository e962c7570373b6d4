package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// TestTheNoteNamesThePersonNotTheAccount: on a desktop without a hub the
// computer's account ("root") named whoever changed the internal note.
// The first save of a note asks the person's name once; the note then
// says "Last changed by Ana Ruiz", the name is kept for the next start,
// and the next save asks nothing.
func TestTheNoteNamesThePersonNotTheAccount(t *testing.T) {
	var setName func(string)
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.SetPerformedBy = func(name string) {
			if setName != nil {
				setName(name)
			}
		}
	}})
	setName = h.eng.Client.SetPerformedBy
	h.eng.Client.SetPerformedBy("root") // what the computer's account says
	c := h.win.Canvas()

	wo := fixtureOpen(h, sandbox.WorkOrderSpec{Status: api.StatusAccepted})
	h.selectTab("Internal note")
	n := noteOf(h)
	test.Type(n.entry(), "Gate code 4471.")
	test.Tap(n.save())
	h.flush()
	if !strings.Contains(h.overlayText(), "which name should they show for you") {
		t.Fatalf("the first save of a note asks %q", h.overlayText())
	}
	if strings.Contains(h.overlayText(), "customer") {
		// Asked under "It is never shown to the customer", a word of
		// the customer read as if the note were shown to them.
		t.Errorf("the question about the note speaks of the customer: %q", h.overlayText())
	}
	name, ok := c.Focused().(*dialogs.Entry)
	if !ok {
		t.Fatalf("the name field does not have the keyboard: %T", c.Focused())
	}
	test.Type(name, "Ana Ruiz")
	typeKey(c, fyne.KeyReturn)
	h.flush()
	if c.Overlays().Top() != nil {
		t.Fatalf("Enter did not save the name: %q", h.overlayText())
	}
	h.send()
	if says := n.says(); !strings.Contains(says, "Last changed by Ana Ruiz") {
		t.Errorf("after the save the note says %q", says)
	}
	if got := h.desk.app.Preferences().String(personNameKey); got != "Ana Ruiz" {
		t.Errorf("the preferences keep the name %q", got)
	}

	test.Type(n.entry(), " Dog on site.")
	test.Tap(n.save())
	h.flush()
	if c.Overlays().Top() != nil {
		t.Errorf("the second save asks again: %q", h.overlayText())
	}
	h.send()
	note, err := h.store.Note(context.Background(), wo.WorkOrderId)
	if err != nil || note.Current.UpdatedBy != "Ana Ruiz" {
		t.Errorf("the service's note was last changed by %q (%v)", note.Current.UpdatedBy, err)
	}
	if h.menuItem("Your name…") == nil {
		t.Error("File › Your name… is missing")
	}
}
