package visit

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheButtonsFollowTheRules: each status offers only the visit
// actions its rules allow, and says why not the others.
func TestTheButtonsFollowTheRules(t *testing.T) {
	f := newFake(t)
	for _, c := range []struct {
		status                   api.WorkOrderStatus
		checkIn, pause, checkOut bool
		says                     string
	}{
		{api.StatusNew, false, false, false, "Accept the work order first"},
		{api.StatusAccepted, true, false, false, "Check in when the technician arrives"},
		{api.StatusCheckedIn, false, true, true, "The technician is on site"},
		{api.StatusPaused, true, false, false, "check in again to resume"},
		{api.StatusCheckedOut, false, false, false, "The visit is complete"},
	} {
		f.wo.Status = c.status
		f.show()
		if got := [3]bool{!f.tab.checkIn.Disabled(), !f.tab.pause.Disabled(), !f.tab.checkOut.Disabled()}; got != [3]bool{c.checkIn, c.pause, c.checkOut} {
			t.Errorf("%s: Check in, Pause, Check out enabled %v; want %v", c.status, got, [3]bool{c.checkIn, c.pause, c.checkOut})
		}
		if !strings.Contains(f.says(), c.says) {
			t.Errorf("%s: the tab says %q; want %q", c.status, f.says(), c.says)
		}
	}
}

// TestACheckInIsQueuedNowOrBackDated: a check-in now is queued without a
// time (the service records it); a back-dated one at the moment picked,
// after which the form is back on Now; a moment in the future, or one
// without its hour, is refused in plain words and queues nothing.
func TestACheckInIsQueuedNowOrBackDated(t *testing.T) {
	f := newFake(t)
	f.show()
	test.Tap(f.tab.checkIn)
	if len(f.actions) != 1 || f.actions[0].kind != outbox.KindCheckIn || f.actions[0].at != nil || f.actions[0].woID != 7 {
		t.Fatalf("a check-in now queued %+v", f.actions)
	}
	if !slices.Equal(f.replacing, []outbox.Group{outbox.GroupVisit}) {
		t.Errorf("the check-in asked for its correction context in %v; want the visit's", f.replacing)
	}
	if !strings.HasPrefix(f.tab.lastState.Text, "Last action: ") {
		t.Errorf("after the check-in the tab says %q", f.tab.lastState.Text)
	}

	f.wo.Status = api.StatusPaused
	f.show()
	f.tab.when.SetSelected(whenEarlier)
	if !f.tab.backBox.Visible() {
		t.Fatal("Earlier (back-date) shows no date and time to pick")
	}
	for _, c := range []struct {
		name string
		set  func()
		want string
	}{
		{"in the future", func() { f.tab.backTime.SetTime(fixedNow.Add(2 * time.Hour)) }, "is in the future: a visit can only be back-dated"},
		{"no hour", func() { f.tab.backTime.Clear() }, "pick the hour and the minute"},
	} {
		c.set()
		test.Tap(f.tab.checkIn)
		if got := f.LastError(); got != c.want && !strings.HasSuffix(got, c.want) {
			t.Errorf("%s: Check in says %q; want %q", c.name, got, c.want)
		}
		if len(f.actions) != 1 {
			t.Fatalf("%s: queued %v", c.name, f.kinds())
		}
	}
	earlier := fixedNow.Add(-3 * time.Hour).Truncate(time.Minute)
	f.tab.backTime.SetTime(earlier)
	test.Tap(f.tab.checkIn)
	if len(f.actions) != 2 || f.actions[1].at == nil || !f.actions[1].at.Equal(earlier) {
		t.Fatalf("a back-dated check-in queued %+v; want at %s", f.actions[1:], earlier)
	}
	if f.tab.when.Selected != whenNow {
		t.Errorf("after the back-dated check-in the form offers %q; want Now again", f.tab.when.Selected)
	}
}

// TestBackDatingOnlyWhereAllowed: at a customer that forbids back-dating
// there is no choice of moment, and the tab says why; elsewhere there is.
func TestBackDatingOnlyWhereAllowed(t *testing.T) {
	f := newFake(t)
	f.settings[3] = strict()
	f.show()
	if !f.tab.when.Disabled() || !strings.Contains(f.says(), "Northwind Retail does not allow back-dating") {
		t.Fatalf("a customer forbidding back-dating: choice disabled %v, the tab says %q", f.tab.when.Disabled(), f.says())
	}
	f.settings[3] = &api.CustomerSettings{CustomerId: 3, AllowBackdating: api.Yes}
	f.show()
	if f.tab.when.Disabled() || strings.Contains(f.says(), "does not allow back-dating") {
		t.Fatal("a customer allowing back-dating is not offered it")
	}
	// Settings never read lock nothing.
	delete(f.settings, 3)
	f.show()
	if f.tab.when.Disabled() {
		t.Fatal("back-dating is refused where the customer's settings were never read")
	}
}

// TestAnOfflineCheckInAtAStrictCustomerAsksFirst: with the service out of
// reach, a check-in at a customer that forbids back-dating says first
// that it will be recorded when it arrives; No queues nothing.
func TestAnOfflineCheckInAtAStrictCustomerAsksFirst(t *testing.T) {
	f := newFake(t)
	f.settings[3] = strict()
	f.unreachable = true
	f.show()
	test.Tap(f.tab.checkIn)
	if q := f.asked(); !strings.Contains(q, "recorded at the time it reaches the service") {
		t.Fatalf("an offline check-in asked %q", q)
	}
	f.answer("No")
	if len(f.actions) != 0 {
		t.Fatalf("No queued %v", f.kinds())
	}
	test.Tap(f.tab.checkIn)
	f.answer("Queue check in")
	if !slices.Equal(f.kinds(), []outbox.Kind{outbox.KindCheckIn}) {
		t.Fatalf("Queue check in queued %v", f.kinds())
	}
	// Reachable, it asks nothing.
	f.unreachable = false
	f.wo.Status = api.StatusPaused
	f.show()
	test.Tap(f.tab.checkIn)
	if q := f.asked(); q != "" || len(f.actions) != 2 {
		t.Fatalf("an online check-in asked %q and queued %v", q, f.kinds())
	}
}

// TestCheckOutAsksWhatTheCustomerRequires: the form asks the customer's
// repair code (from its list) and questions (a choice where the answers
// are fixed), marked required; a check-out without them is refused,
// naming what is missing, and queues nothing; with them it is queued
// carrying them, and the comment of a refused check-out being corrected.
func TestCheckOutAsksWhatTheCustomerRequires(t *testing.T) {
	f := newFake(t)
	f.settings[3] = strict()
	f.wo.Status = api.StatusCheckedIn
	f.keptComment = "Filters changed"
	f.show()
	form := f.tab.form
	if !form.box.Visible() || form.repair == nil || form.form.Items[0].Text != "Repair code *" {
		t.Fatalf("the form asks no required repair code: %q", f.says())
	}
	if got := form.repair.Options; !slices.Equal(got, []string{"HVAC — Replaced part", "HVAC — Cleaned and adjusted"}) {
		t.Errorf("repair codes offered: %q", got)
	}
	if len(form.fields) != 2 || form.fields[0].choice == nil || form.fields[1].entry == nil || form.form.Items[1].Text != "Guest room out of order *" {
		t.Fatalf("the questions: %+v", form.fields)
	}

	form.fields[0].choice.SetSelected("No")
	test.Tap(f.tab.checkOut)
	for _, want := range []string{"a repair code", `"Engineer who signed off"`} {
		if !strings.Contains(f.LastError(), want) || !strings.Contains(form.missing.Text, want) {
			t.Errorf("the refusal %q (form: %q) does not name %s", f.LastError(), form.missing.Text, want)
		}
	}
	if strings.Contains(form.missing.Text, "Guest room") {
		t.Errorf("the form asks again for what was answered: %q", form.missing.Text)
	}
	if len(f.actions) != 0 {
		t.Fatalf("a check-out without what the customer requires queued %v", f.kinds())
	}

	form.repair.SetSelected("HVAC — Cleaned and adjusted")
	test.Type(form.fields[1].entry, "Elena Vasquez")
	errs := len(f.Errors)
	test.Tap(f.tab.checkOut)
	if len(f.Errors) != errs || len(f.actions) != 1 {
		t.Fatalf("the complete check-out said %q, queued %v", f.Errors[errs:], f.kinds())
	}
	got := f.actions[0]
	if got.kind != outbox.KindCheckOut || got.done.RepairInfo == nil || got.done.RepairInfo.CodeId != 2 ||
		got.done.Value("room") != "No" || got.done.Value("engineer") != "Elena Vasquez" || got.comment != "Filters changed" {
		t.Fatalf("the check-out queued %+v", got)
	}
}

// TestTheCheckOutsMissingDetailsGoAsTheyAreGiven: the red words under the
// check-out form ("still needs a repair code; an answer to …") shrink to
// what is still missing as the person fills the form in, and go once
// every required field is filled, before Check out is tapped again.
func TestTheCheckOutsMissingDetailsGoAsTheyAreGiven(t *testing.T) {
	f := newFake(t)
	f.settings[3] = strict()
	f.wo.Status = api.StatusCheckedIn
	f.show()
	form := f.tab.form
	test.Tap(f.tab.checkOut)
	if !form.missing.Visible() || !strings.Contains(form.missing.Text, "a repair code") || !strings.Contains(form.missing.Text, `"Engineer who signed off"`) {
		t.Fatalf("with nothing filled in the form says %q", form.missing.Text)
	}
	form.repair.SetSelected("HVAC — Cleaned and adjusted")
	if !form.missing.Visible() || strings.Contains(form.missing.Text, "repair code") || !strings.Contains(form.missing.Text, `"Engineer who signed off"`) {
		t.Fatalf("with the repair code chosen the form says %q", form.missing.Text)
	}
	form.fields[0].choice.SetSelected("No")
	test.Type(form.fields[1].entry, "Sam Ortega (Chief Eng.)")
	if form.missing.Visible() {
		t.Fatalf("every required field is filled, yet the form still says %q", form.missing.Text)
	}
	if len(f.actions) != 0 {
		t.Fatalf("filling the form in queued %v", f.kinds())
	}
}

// TestACheckOutWithRequiredStepsOpenAsksFirst: checking out with required
// procedure steps open names them and asks first, since afterwards they
// can no longer be done; Cancel queues nothing, Check out anyway queues it.
func TestACheckOutWithRequiredStepsOpenAsksFirst(t *testing.T) {
	f := newFake(t)
	f.wo.Status = api.StatusCheckedIn
	f.wo.WorkDetails = &api.WorkDetails{Procedures: []api.Procedure{{Id: 1, Name: "Refrigeration", Steps: []api.Step{
		{Id: 11, Order: 1, Status: "Done", IsRequired: true},
		{Id: 12, Order: 2, Status: "Open", IsRequired: true},
	}}}}
	f.show()
	test.Tap(f.tab.checkOut)
	if q := f.asked(); !strings.Contains(q, "A required procedure step is still open on NWR7 (Refrigeration step 2)") {
		t.Fatalf("a check-out with a required step open asked %q", q)
	}
	f.answer("Cancel")
	if len(f.actions) != 0 {
		t.Fatalf("Cancel queued %v", f.kinds())
	}
	test.Tap(f.tab.checkOut)
	f.answer("Check out anyway")
	if !slices.Equal(f.kinds(), []outbox.Kind{outbox.KindCheckOut}) {
		t.Fatalf("Check out anyway queued %v", f.kinds())
	}
}

// TestAPMRMCheckOutWithoutTheDetailsAsksFirst: a PMRM work order may be
// checked out without what its customer requires (it then waits for the
// details), but the tab asks first; "Fill them in" queues nothing. Once
// waiting, Complete details refuses without the answers and sends them
// once given.
func TestAPMRMCheckOutWithoutTheDetailsAsksFirst(t *testing.T) {
	f := newFake(t)
	f.settings[3] = strict()
	f.wo.Type = api.WorkOrderTypePMRM
	f.wo.Status = api.StatusCheckedIn
	f.show()
	test.Tap(f.tab.checkOut)
	if q := f.asked(); !strings.Contains(q, "Needs completion details") {
		t.Fatalf("a PMRM check-out without the details asked %q", q)
	}
	f.answer("Fill them in")
	if len(f.actions) != 0 {
		t.Fatalf("Fill them in queued %v", f.kinds())
	}
	test.Tap(f.tab.checkOut)
	f.answer("Check out now")
	if !slices.Equal(f.kinds(), []outbox.Kind{outbox.KindCheckOut}) {
		t.Fatalf("Check out now queued %v", f.kinds())
	}

	f.wo.Status = api.StatusNeedsCompletionDetails
	f.show()
	if !f.tab.completeDetails.Visible() || !f.tab.form.box.Visible() {
		t.Fatal("a work order waiting for its details offers no Complete details")
	}
	test.Tap(f.tab.completeDetails)
	if !strings.Contains(f.LastError(), "a repair code") || len(f.actions) != 1 {
		t.Fatalf("Complete details with nothing filled in said %q, queued %v", f.LastError(), f.kinds())
	}
	form := f.tab.form
	form.repair.SetSelected("HVAC — Replaced part")
	form.fields[0].choice.SetSelected("Yes")
	test.Type(form.fields[1].entry, "Sam Ortega")
	test.Tap(f.tab.completeDetails)
	if len(f.actions) != 2 || f.actions[1].kind != outbox.KindWorkDoneDetails || f.actions[1].done.Value("engineer") != "Sam Ortega" {
		t.Fatalf("Complete details queued %+v", f.actions[1:])
	}
}

// TestTheScheduledStartIsQueuedWithItsAccessType: a start picked is
// queued in local time with the access type the window keeps; without a
// date it is refused, and where the rules refuse a start the tab says why.
func TestTheScheduledStartIsQueuedWithItsAccessType(t *testing.T) {
	f := newFake(t)
	f.keptPte = "Call first"
	f.show()
	test.Tap(f.tab.schedSave)
	if f.LastError() != "pick a date" || len(f.actions) != 0 {
		t.Fatalf("a start without a date said %q, queued %v", f.LastError(), f.kinds())
	}
	tomorrow := fixedNow.AddDate(0, 0, 1)
	f.tab.schedDate.SetDate(&tomorrow)
	f.tab.schedTime.Hour.SetSelected("10")
	f.tab.schedTime.Minute.SetSelected("30")
	test.Tap(f.tab.schedSave)
	want := time.Date(2026, 11, 21, 10, 30, 0, 0, time.Local)
	if len(f.actions) != 1 || f.actions[0].kind != outbox.KindAppointment || !f.actions[0].at.Equal(want) || f.actions[0].pte != "Call first" {
		t.Fatalf("the scheduled start queued %+v; want %s, Call first", f.actions, want)
	}
	if !slices.Equal(f.replacing, []outbox.Group{outbox.GroupWorkOrder}) {
		t.Errorf("the start asked for its correction context in %v", f.replacing)
	}

	f.wo.Status = api.StatusCheckedOut
	f.show()
	if !f.tab.schedSave.Disabled() || !f.tab.schedWhy.Visible() || f.tab.schedWhy.Text == "" {
		t.Fatalf("after check-out: Set scheduled start disabled %v, why %q", f.tab.schedSave.Disabled(), f.tab.schedWhy.Text)
	}
}

// TestWhoGoes: the tab names who is assigned, each with what they are;
// where the record does not say, whom this office assigned (others may be
// too) or that it is not known; Assign… opens the window's dialog for
// the work order.
func TestWhoGoes(t *testing.T) {
	f := newFake(t)
	f.wo.SetAssigned([]api.Associate{{Id: 1, Name: "Kenji Sato", Type: api.AssociateCruMember}, {Id: 2, Name: "Delta Roofing", Type: api.AssociateSubcontractor}})
	f.show()
	if got := f.tab.crew.who.Text; got != "Kenji Sato (technician) and Delta Roofing (subcontractor)" {
		t.Errorf("Who goes says %q", got)
	}
	f.wo.SetAssigned(nil)
	f.show()
	if got := f.tab.crew.who.Text; got != "Nobody is assigned yet." {
		t.Errorf("with nobody assigned Who goes says %q", got)
	}
	f.wo.Associates = nil
	f.show()
	if got := f.tab.crew.who.Text; got != crewNotKnown {
		t.Errorf("where the record does not say, Who goes says %q", got)
	}
	f.office[7] = storage.Assignees{Known: true, Partial: true, Who: []api.Associate{{Id: 1, Name: "Kenji Sato", Type: api.AssociateCruMember}}}
	f.show()
	if got := f.tab.crew.who.Text; !strings.HasPrefix(got, "Kenji Sato (technician), assigned from this office") {
		t.Errorf("where this office assigned Kenji, Who goes says %q", got)
	}
	test.Tap(f.tab.crew.change)
	if !slices.Equal(f.assignFor, []int64{7}) {
		t.Errorf("Assign… opened the dialog for %v", f.assignFor)
	}
}
