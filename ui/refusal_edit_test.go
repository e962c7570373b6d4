package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// refusing is a service that refuses the calls switched on, in the
// service's words, and passes the rest to the sandbox.
type refusing struct {
	mu    sync.Mutex
	calls map[string]bool // "PUT /api/workOrder/checkOut"
}

func (f *refusing) set(call string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]bool{}
	}
	f.calls[strings.ToLower(call)] = on
}

func (f *refusing) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		refuse := f.calls[strings.ToLower(r.Method+" "+r.URL.Path)]
		f.mu.Unlock()
		if refuse {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"Code": 3000, "Message": "The customer's desk is closed"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// completionField labelled label on the check-out form.
func fieldLabelled(t *testing.T, f *completionForm, label string) completionField {
	t.Helper()
	for _, cf := range f.fields {
		if cf.desc.Label == label {
			return cf
		}
	}
	t.Fatalf("the check-out form asks no %q", label)
	return completionField{}
}

// TestARefusedCheckOutComesBackWithItsCompletionDetails: a check-out the
// service refuses carried the repair code and answers its customer
// requires; Edit puts them back into the form (which had been rebuilt
// since), so checking out again sends them, not a bare check-out the rules
// refuse.
func TestARefusedCheckOutComesBackWithItsCompletionDetails(t *testing.T) {
	svc := &refusing{}
	h := newHarnessWith(t, harnessOptions{service: svc.wrap})
	r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Type: api.WorkOrderTypeRequest, Status: api.StatusAccepted})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	test.Tap(v.checkIn)
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()

	svc.set("PUT /api/workOrder/checkOut", true)
	const code = "HVAC — Cleaned and adjusted"
	v.form().repair.SetSelected(code)
	fieldLabelled(t, v.form(), "Guest room out of order").choice.SetSelected("Yes")
	test.Type(fieldLabelled(t, v.form(), "Engineer who signed off").entry, "Elena Vasquez")
	test.Tap(v.checkOut)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("the check-out showed %q", txt)
	}
	h.send()
	refused := onlyRow(t, h, r.Id, outbox.KindCheckOut, storage.OutboxFailed)

	// Another work order opened in between: the form is built afresh.
	other := h.rowWhere(func(o storage.Row) bool { return o.Id != r.Id && o.Status == api.StatusAccepted })
	h.open(other.Id)
	h.open(r.Id)
	if c := v.form().completion(); c.RepairInfo != nil || len(c.CustomFields) != 0 {
		t.Fatalf("the rebuilt form holds %+v", c)
	}
	h.selectTab("Summary")
	test.Tap(headerRefusal(h, "Check out").edit)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("Edit on an empty form asked %q", txt)
	}
	if sel := h.desk.detail.appTabs.Selected(); sel == nil || sel.Text != "Visit" {
		t.Fatal("Edit did not open the Visit tab")
	}
	if got := v.form().repair.Selected; got != code {
		t.Errorf("Edit put back the repair code %q, want %q", got, code)
	}
	if got := fieldLabelled(t, v.form(), "Guest room out of order").choice.Selected; got != "Yes" {
		t.Errorf("Edit put back the guest room answer %q", got)
	}
	if got := fieldLabelled(t, v.form(), "Engineer who signed off").entry.Text; got != "Elena Vasquez" {
		t.Errorf("Edit put back the engineer %q", got)
	}

	svc.set("PUT /api/workOrder/checkOut", false)
	test.Tap(v.checkOut)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("checking out the corrected check-out showed %q", txt)
	}
	if got := rowOf(t, h, refused.Id).State; got != storage.OutboxDiscarded {
		t.Fatalf("after the corrected check-out was queued, the refused one is %s", got)
	}
	fixed := onlyRow(t, h, r.Id, outbox.KindCheckOut, storage.OutboxPending)
	if d, _ := fixed.Draft(""); d.Completion.RepairInfo == nil || d.Completion.RepairInfo.Label() != code || len(d.Completion.CustomFields) < 2 {
		t.Fatalf("the corrected check-out carries %+v", d.Completion)
	}
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()
	if got := v.wo().Status; got != api.StatusCheckedOut {
		t.Fatalf("after the corrected check-out the work order is %s", got)
	}
}

// TestEditAsksBeforeReplacingWhatWasTyped: Edit on a refused message,
// quote or invoice save whose form holds something else the person typed
// and has not queued asks first. Keeping it changes nothing and starts no
// correction; replacing it puts the refused action back to correct.
func TestEditAsksBeforeReplacingWhatWasTyped(t *testing.T) {
	svc := &refusing{}
	h := newHarnessWith(t, harnessOptions{service: svc.wrap})
	ask := func(t *testing.T, edit func(), keep bool) string {
		t.Helper()
		edit()
		msg := h.overlayText()
		if !strings.Contains(msg, "replace what you typed with the refused") {
			t.Fatalf("Edit over unsent typing asked %q", msg)
		}
		answer := "Replace"
		if keep {
			answer = "Keep what I typed"
		}
		test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), answer))
		h.flush()
		return msg
	}

	// Each action on a work order of its own: a refusal holds later actions back.
	t.Run("message", func(t *testing.T) {
		r := h.create(sandbox.WorkOrderSpec{Status: api.StatusAccepted})
		h.open(r.Id)
		h.selectTab("Messages")
		m := msgsOf(h)
		svc.set("POST /api/messages", true)
		m.text().SetText("Technican on site at 10:30")
		test.Tap(m.send())
		h.send()
		svc.set("POST /api/messages", false)
		edit := func() { test.Tap(headerRefusal(h, "Message").edit) }

		m.text().SetText("Parts arrive on Tuesday")
		ask(t, edit, true)
		if m.text().Text != "Parts arrive on Tuesday" || h.desk.correcting != nil {
			t.Fatalf("keeping what was typed left %q (correcting: %v)", m.text().Text, h.desk.correcting != nil)
		}
		ask(t, edit, false)
		if m.text().Text != "Technican on site at 10:30" || h.desk.correcting == nil {
			t.Fatalf("replacing left %q (correcting: %v)", m.text().Text, h.desk.correcting != nil)
		}
		h.desk.stopCorrecting()
		// The same text: nothing to lose, nothing asked.
		test.Tap(headerRefusal(h, "Message").edit)
		if txt := h.overlayText(); txt != "" || h.desk.correcting == nil {
			t.Fatalf("Edit over the refused text itself asked %q", txt)
		}
		h.desk.stopCorrecting()
	})

	t.Run("quote", func(t *testing.T) {
		r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // takes quotes
		minor := int32(api.MinorUnits(r.Nte.Currency))
		h.open(r.Id)
		h.selectTab("Quote")
		q := quoteOf(h)
		amount, reason := q.amount(), q.reason()
		svc.set("PUT /api/workOrder/quoteSubmit", true)
		asked := r.Nte.Amount.Mul(decimal.NewFromInt(2)).StringFixed(minor)
		amount.SetText(asked)
		reason.SetText("Compressor must be replaced")
		test.Tap(q.submit())
		h.send()
		svc.set("PUT /api/workOrder/quoteSubmit", false)
		edit := func() { test.Tap(headerRefusal(h, "Quote").edit) }

		typed := r.Nte.Amount.Mul(decimal.NewFromInt(3)).StringFixed(minor)
		amount.SetText(typed)
		reason.SetText("Second unit failed too")
		ask(t, edit, true)
		if amount.Text != typed || reason.Text != "Second unit failed too" || h.desk.correcting != nil {
			t.Fatalf("keeping what was typed left %q / %q", amount.Text, reason.Text)
		}
		ask(t, edit, false)
		if amount.Text != asked || reason.Text != "Compressor must be replaced" || h.desk.correcting == nil {
			t.Fatalf("replacing left %q / %q", amount.Text, reason.Text)
		}
		h.desk.stopCorrecting()
	})

	t.Run("invoice", func(t *testing.T) {
		inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
			return wo.Status.Completed() && inv.Status == api.InvoiceDraft && len(inv.LineItems) > 0
		})
		svc.set("PUT /api/invoice", true)
		inv.number().SetText("INV-REFUSED-1")
		test.Tap(inv.button("Save"))
		h.send()
		svc.set("PUT /api/invoice", false)
		h.desk.changed([]int64{h.desk.detail.wo.WorkOrderId})
		h.flush()
		edit := func() { test.Tap(headerRefusal(h, "invoice").edit) }
		unsaved := func() bool { return strings.Contains(inv.text(), "Unsaved changes — Save to send them") }

		inv.number().SetText("INV-TYPED-2")
		ask(t, edit, true)
		if inv.number().Text != "INV-TYPED-2" || !unsaved() || h.desk.correcting != nil {
			t.Fatalf("keeping what was typed left the number %q (unsaved: %v)", inv.number().Text, unsaved())
		}
		ask(t, edit, false)
		if inv.number().Text != "INV-REFUSED-1" || h.desk.correcting == nil {
			t.Fatalf("replacing left the number %q", inv.number().Text)
		}
		h.desk.stopCorrecting()
	})
}

// TestACorrectedCheckOutKeepsItsComment: the Visit tab has no comment
// field, yet a refused check-out that carried a comment (queued by another
// window of the office, or an older version) keeps it when corrected.
func TestACorrectedCheckOutKeepsItsComment(t *testing.T) {
	svc := &refusing{}
	h := newHarnessWith(t, harnessOptions{service: svc.wrap})
	ctx := context.Background()
	r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	test.Tap(v.checkIn)
	h.send()
	h.desk.changed([]int64{r.Id})
	h.flush()
	done := api.Completion{RepairInfo: &v.form().codes[0]}
	for _, cf := range v.form().fields {
		answer := "Elena Vasquez"
		if cf.choice != nil {
			answer = cf.choice.Options[0]
		}
		done.CustomFields = append(done.CustomFields, api.CustomField{Id: cf.desc.Id, Value: answer})
	}
	svc.set("PUT /api/workOrder/checkOut", true)
	if _, err := h.store.CheckOutWith(ctx, r.Id, nil, "Filters changed, unit 4 still noisy", done); err != nil {
		t.Fatal(err)
	}
	h.send()
	svc.set("PUT /api/workOrder/checkOut", false)
	h.desk.changed([]int64{r.Id})
	h.flush()

	test.Tap(headerRefusal(h, "Check out").edit)
	test.Tap(v.checkOut)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("checking out the corrected check-out showed %q", txt)
	}
	fixed := onlyRow(t, h, r.Id, outbox.KindCheckOut, storage.OutboxPending)
	if d, _ := fixed.Draft(""); d.Text != "Filters changed, unit 4 still noisy" {
		t.Fatalf("the corrected check-out carries the comment %q", d.Text)
	}
}
