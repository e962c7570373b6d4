package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheCheckOutsMissingDetailsGoAsTheyAreGiven: the red words under the
// check-out form ("still needs a repair code; an answer to …") shrink to
// what is still missing as the person fills the form in, and go once
// every required field is filled, before Check out is tapped again.
func TestTheCheckOutsMissingDetailsGoAsTheyAreGiven(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted && r.Customer == "Harbor Point Hotels" })
	h.open(r.Id)
	h.selectTab("Visit")
	v := tabOf[*visitTab](h)
	test.Tap(v.checkIn)
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()

	f := v.form
	fields := map[string]completionField{}
	for i, it := range f.form.Items {
		if i > 0 {
			fields[it.Text] = f.fields[i-1]
		}
	}
	test.Tap(v.checkOut)
	h.dismissOverlays()
	if !f.missing.Visible() || !strings.Contains(f.missing.Text, "a repair code") || !strings.Contains(f.missing.Text, `"Engineer who signed off"`) {
		t.Fatalf("with nothing filled in the form says %q", f.missing.Text)
	}

	f.repair.SetSelected("HVAC — Cleaned and adjusted")
	if !f.missing.Visible() || strings.Contains(f.missing.Text, "repair code") || !strings.Contains(f.missing.Text, `"Engineer who signed off"`) {
		t.Fatalf("with the repair code chosen the form says %q", f.missing.Text)
	}
	fields["Guest room out of order *"].choice.SetSelected("No")
	test.Type(fields["Engineer who signed off *"].entry, "Sam Ortega (Chief Eng.)")
	if f.missing.Visible() {
		t.Fatalf("every required field is filled, yet the form still says %q", f.missing.Text)
	}
}
