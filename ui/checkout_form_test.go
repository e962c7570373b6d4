package ui

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// staleSettings makes the replica's copy of woID's customer settings say
// back-dating is allowed, as if the customer changed it since the last sync.
func staleSettings(t *testing.T, h *harness, woID int64) {
	t.Helper()
	ctx := context.Background()
	wo, err := h.store.WorkOrder(ctx, woID)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := h.store.CustomerSettings(ctx, wo.Customer.Id)
	if err != nil {
		t.Fatal(err)
	}
	cs.AllowBackdating = api.Yes
	if err := h.store.PutCustomerSettings(ctx, cs); err != nil {
		t.Fatal(err)
	}
}

func queuedKinds(t *testing.T, h *harness, woID int64) []outbox.Kind {
	t.Helper()
	rows, err := h.store.OutboxRows(context.Background(), woID)
	if err != nil {
		t.Fatal(err)
	}
	var out []outbox.Kind
	for _, r := range rows {
		out = append(out, r.Kind)
	}
	return out
}

// TestCheckOutFormAsksWhatTheCustomerRequires: at Harbor Point Hotels the
// visit tab asks for a repair code and the customer's questions (a select
// where the answers are fixed, an entry otherwise), refuses to queue a
// check-out without them, saying what is missing, and sends it once they
// are given.
func TestCheckOutFormAsksWhatTheCustomerRequires(t *testing.T) {
	h := newHarness(t)
	r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	test.Tap(v.checkIn)
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()
	if v.checkOut.Disabled() || v.wo().Status != api.StatusCheckedIn {
		t.Fatalf("after checking in the work order is %s", v.wo().Status)
	}

	f := v.form()
	if !f.box.Visible() || f.repair == nil {
		t.Fatal("the check-out form asks for no repair code at Harbor Point Hotels")
	}
	if !strings.Contains(f.title.Text, "Harbor Point Hotels") {
		t.Errorf("the form's title is %q", f.title.Text)
	}
	if len(f.repair.Options) != 6 || f.repair.Options[0] != "HVAC — Replaced part" {
		t.Errorf("repair codes offered: %v", f.repair.Options)
	}
	labels := map[string]completionField{}
	for i, it := range f.form.Items {
		if i > 0 {
			labels[it.Text] = f.fields[i-1]
		}
	}
	if f.form.Items[0].Text != "Repair code *" {
		t.Errorf("the repair code is labelled %q", f.form.Items[0].Text)
	}
	room, ok := labels["Guest room out of order *"]
	if !ok || room.choice == nil || strings.Join(room.choice.Options, "/") != "Yes/No" {
		t.Fatalf("the guest room question: %+v (labels %v)", room, labels)
	}
	engineer, ok := labels["Engineer who signed off *"]
	if !ok || engineer.entry == nil {
		t.Fatalf("the engineer question is not an entry: %+v", engineer)
	}
	if _, ok := labels["Follow-up visit booked"]; !ok {
		t.Errorf("the optional question is missing or marked required: %v", labels)
	}

	// Nothing filled in: nothing is queued, and the person is told what is missing.
	room.choice.SetSelected("Yes")
	test.Tap(v.checkOut)
	msg := h.overlayText() // in lower case
	for _, want := range []string{"a repair code", `"Engineer who signed off"`} {
		if !strings.Contains(msg, strings.ToLower(want)) || !strings.Contains(f.missing.Text, want) {
			t.Errorf("the refusal %q (form: %q) does not name %s", msg, f.missing.Text, want)
		}
	}
	if strings.Contains(msg, "guest room") {
		t.Errorf("the refusal asks again for what was answered: %q", msg)
	}
	h.dismissOverlays()
	h.capture("checkout-form")
	for _, k := range queuedKinds(t, h, r.Id) {
		if k == outbox.KindCheckOut {
			t.Fatal("a check-out was queued without what the customer requires")
		}
	}

	f.repair.SetSelected("HVAC — Cleaned and adjusted")
	test.Type(engineer.entry, "Elena Vasquez")
	test.Tap(v.checkOut)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("the complete check-out showed %q", txt)
	}
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()
	if got := v.wo().Status; got != api.StatusCheckedOut {
		t.Fatalf("after the complete check-out the work order is %s", got)
	}
	if v.form().box.Visible() {
		t.Error("the form still asks for details after the check-out went through")
	}
}

// TestAPMRMCheckOutWithoutTheDetailsAsksFirst: checking out a PMRM work
// order without what its customer asks for is allowed (it then waits in
// Needs completion details), but not by surprise: the window asks first,
// and "Fill them in" queues nothing.
func TestAPMRMCheckOutWithoutTheDetailsAsksFirst(t *testing.T) {
	h := newHarness(t)
	// Harbor Point Hotels requires a repair code and answers at check-out.
	r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Type: api.WorkOrderTypePMRM, Status: api.StatusCheckedIn})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	test.Tap(v.checkOut)
	if msg := h.overlayText(); !strings.Contains(msg, "needs completion details") || !strings.Contains(msg, "check out without them?") {
		t.Fatalf("a PMRM check-out without the details shows %q; want the question first", msg)
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Fill them in"))
	h.flush()
	for _, k := range queuedKinds(t, h, r.Id) {
		if k == outbox.KindCheckOut {
			t.Fatal("a check-out was queued although the person chose to fill the details in")
		}
	}
	test.Tap(v.checkOut)
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Check out now"))
	h.flush()
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()
	if got := v.wo().Status; got != api.StatusNeedsCompletionDetails {
		t.Fatalf("after checking out without the details the work order is %s", got)
	}
}

// TestCompleteDetailsLater: a work order waiting in NeedsCompletionDetails
// offers "Complete details" on the visit tab, asks the customer's question,
// and becomes CheckedOut once the details are sent.
func TestCompleteDetailsLater(t *testing.T) {
	h := newHarness(t)
	r := h.create(sandbox.WorkOrderSpec{Customer: "Lakeside Medical Group", Status: api.StatusNeedsCompletionDetails})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	if !v.completeDetails.Visible() || v.form().box.Visible() == false {
		t.Fatal("no Complete details offered for a work order waiting for its details")
	}
	test.Tap(v.completeDetails)
	if msg := h.overlayText(); !strings.Contains(msg, `completion details for lakeside medical group still needs an answer to "infection control measures followed"`) {
		t.Fatalf("completing with nothing filled in showed %q", msg)
	}
	h.dismissOverlays()
	v.form().fields[0].choice.SetSelected("Not applicable")
	test.Tap(v.completeDetails)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("complete details showed %q", txt)
	}
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()
	if got := v.wo().Status; got != api.StatusCheckedOut {
		t.Fatalf("after completing the details the work order is %s", got)
	}
	if v.completeDetails.Visible() {
		t.Error("Complete details is still offered after the work order was checked out")
	}
}

// TestOfflineCheckInAtStrictCustomerAsksFirst: with the service out of
// reach, a check-in at a customer that forbids back-dating says before
// queueing that the service will record the time it arrives.
func TestOfflineCheckInAtStrictCustomerAsksFirst(t *testing.T) {
	var offline atomic.Bool
	h := newHarnessWith(t, harnessOptions{service: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if offline.Load() {
				panic(http.ErrAbortHandler)
			}
			next.ServeHTTP(w, r)
		})
	}})
	r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	offline.Store(true)
	h.menuItem("Sync now").Action()
	h.waitFor("the failed sync", func() bool { return h.desk.status.LastErr() != nil })

	test.Tap(v.checkIn)
	msg := h.overlayText()
	if !strings.Contains(msg, "does not allow back-dating") || !strings.Contains(msg, "recorded at the time it reaches the service") {
		t.Fatalf("an offline check-in at Harbor Point showed %q", msg)
	}
	if len(queuedKinds(t, h, r.Id)) != 0 {
		t.Fatal("the check-in was queued before the person answered")
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Queue check in"))
	if kinds := queuedKinds(t, h, r.Id); len(kinds) != 1 || kinds[0] != outbox.KindCheckIn {
		t.Fatalf("after confirming, queued %v", kinds)
	}
}

// Unknown never locks check-out: where the customer's repair codes could
// not be read though it requires one, or whether it requires one was not
// said, the form marks no repair code required, says why where it has
// none to offer, and a check-out without one is queued for the service
// to judge (issue 36 item 7).
func TestUnknownRepairCodesLockNothing(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(cs *api.CustomerSettings)
		label   string // the repair code's row
		select_ bool   // a code to choose
		saysWhy bool
	}{
		{"required, no codes read", func(cs *api.CustomerSettings) { cs.RepairCodes = nil }, "Repair code", false, true},
		{"codes read, required not said", func(cs *api.CustomerSettings) { cs.RepairInfoRequired = api.Flag{} }, "Repair code", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusCheckedIn})
			ctx := context.Background()
			wo, err := h.store.WorkOrder(ctx, r.Id)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := h.store.CustomerSettings(ctx, wo.Customer.Id)
			if err != nil || !cs.RepairRequired() {
				t.Fatalf("Harbor Point Hotels' settings %+v (%v): a repair code should be required", cs, err)
			}
			c.change(cs)
			if err := h.store.PutCustomerSettings(ctx, cs); err != nil {
				t.Fatal(err)
			}
			h.open(r.Id)
			h.selectTab("Visit")
			v := visitOf(h)
			f := v.form()
			if !f.box.Visible() || len(f.form.Items) == 0 || f.form.Items[0].Text != c.label || (f.repair != nil) != c.select_ {
				t.Fatalf("the form's first row %q (repair select %v); want %q, a select %v", f.form.Items[0].Text, f.repair != nil, c.label, c.select_)
			}
			if why := strings.Join(texts(f.box), " "); strings.Contains(why, "could not be read: check out without one") != c.saysWhy {
				t.Errorf("the form says: %s", why)
			}
			for _, cf := range f.fields {
				if cf.choice != nil {
					cf.choice.SetSelected(cf.choice.Options[0])
				} else {
					test.Type(cf.entry, "Elena Vasquez")
				}
			}
			test.Tap(v.checkOut)
			if txt := h.overlayText(); txt != "" || f.missing.Visible() {
				t.Fatalf("a check-out without a repair code was refused: %q %q", txt, f.missing.Text)
			}
			h.flush()
			kinds := queuedKinds(t, h, r.Id)
			if len(kinds) == 0 || kinds[len(kinds)-1] != outbox.KindCheckOut {
				t.Errorf("queued %v; want the check-out", kinds)
			}
		})
	}
}

// TestCheckOutWarnsOfRequiredStepsStillOpen: checking out with required
// procedure steps open asks first, naming them, since afterwards they can
// no longer be done; Cancel queues nothing, and the person may still go
// ahead (the service judges).
func TestCheckOutWarnsOfRequiredStepsStillOpen(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	var wo *api.WorkOrder
	h.rowWhere(func(r storage.Row) bool {
		if r.Status != api.StatusCheckedIn {
			return false
		}
		w, err := h.store.WorkOrder(ctx, r.Id)
		if err != nil || len(w.RequiredStepsOpen()) == 0 || !hasAskedFields(settingsOf(h, w)) {
			return false
		}
		wo = w
		return true
	})
	h.open(wo.WorkOrderId)
	h.selectTab("Visit")
	v := visitOf(h)
	// What the customer asks at check-out is said first; then the steps.
	test.Tap(v.checkOut)
	if msg := h.overlayText(); !strings.Contains(msg, "still needs") {
		t.Fatalf("check-out with the customer's questions unanswered said %q", msg)
	}
	pressEsc(h)
	fillCompletion(t, v.form())
	test.Tap(v.checkOut)
	msg := h.overlayText()
	if !strings.Contains(msg, "still open on "+strings.ToLower(wo.WorkOrderNumber)) || !strings.Contains(msg, strings.ToLower(wo.RequiredStepsOpen()[0])) {
		t.Fatalf("check-out with required steps open asked %q", msg)
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Cancel"))
	h.flush()
	if n, _ := h.store.OutboxSummary(ctx); n != 0 || h.desk.detail.wo.Status != api.StatusCheckedIn {
		t.Fatalf("after Cancel: %d actions queued, status %s", n, h.desk.detail.wo.Status)
	}
	test.Tap(v.checkOut)
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Check out anyway"))
	h.flush()
	if n, _ := h.store.OutboxSummary(ctx); n != 1 {
		t.Fatalf("after Check out anyway %d actions are queued, want the check-out (the window says %q)", n, h.overlayText())
	}
	h.send()
	h.desk.changed([]int64{wo.WorkOrderId})
	h.flush()
	if got := h.desk.detail.wo.Status; got != api.StatusCheckedOut {
		t.Errorf("after Check out anyway the work order is %s", got)
	}
}

// fillCompletion answers every question of the check-out form as a
// person would: the first choice offered, or a typed answer its data type
// takes.
func fillCompletion(t *testing.T, f *completionForm) {
	t.Helper()
	if f.repair != nil && len(f.repair.Options) > 0 {
		f.repair.SetSelected(f.repair.Options[0])
	}
	for _, c := range f.fields {
		switch {
		case c.choice != nil && len(c.choice.Options) > 0:
			c.choice.SetSelected(c.choice.Options[0])
		case c.entry != nil && (c.desc.DataType == "Integer" || c.desc.DataType == "Float" || c.desc.DataType == "Money"):
			c.entry.SetText("1")
		case c.entry != nil:
			c.entry.SetText("Yes")
		}
	}
}
