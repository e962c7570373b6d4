package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// headerLine is one refused (or stopped) action as the header shows it
// (ui/pending): its title and text, and its three buttons in their order.
type headerLine struct {
	title, text          *widget.Label
	retry, edit, discard *widget.Button
}

// headerLines are the refused actions the header lists, hidden buttons
// too.
func headerLines(h *harness) []headerLine {
	h.t.Helper()
	var out []headerLine
	for _, box := range h.desk.detail.outbox.Refused().Objects {
		var labels []*widget.Label
		var buttons []*widget.Button
		var in func(o fyne.CanvasObject)
		in = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *fyne.Container:
				for _, c := range x.Objects {
					in(c)
				}
			case *widget.Label:
				labels = append(labels, x)
			case *widget.Button:
				buttons = append(buttons, x)
			}
		}
		in(box)
		if len(labels) != 2 || len(buttons) != 3 {
			h.t.Fatalf("a refused action in the header has %d labels and %d buttons", len(labels), len(buttons))
		}
		out = append(out, headerLine{labels[0], labels[1], buttons[0], buttons[1], buttons[2]})
	}
	return out
}

// headerRefusal is the header's view of the refused action whose title
// contains what.
func headerRefusal(h *harness, what string) headerLine {
	h.t.Helper()
	var titles []string
	for _, r := range headerLines(h) {
		if strings.Contains(r.title.Text, what) && h.desk.detail.outbox.Refused().Visible() {
			return r
		}
		titles = append(titles, r.title.Text)
	}
	h.t.Fatalf("the header shows no refused %q (it shows %q)", what, titles)
	return headerLine{}
}

func rowOf(t *testing.T, h *harness, id int64) *storage.OutboxRow {
	t.Helper()
	r, err := h.store.OutboxRow(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// onlyRow is the one outbox row of kind on a work order.
func onlyRow(t *testing.T, h *harness, woID int64, kind outbox.Kind, state storage.OutboxState) *storage.OutboxRow {
	t.Helper()
	rows, _ := h.store.OutboxRows(context.Background(), woID)
	var found *storage.OutboxRow
	for i := range rows {
		if rows[i].Kind == kind && rows[i].State == state {
			if found != nil {
				t.Fatalf("two %s %s rows on work order %d", state, kind, woID)
			}
			found = &rows[i]
		}
	}
	if found == nil {
		t.Fatalf("no %s %s row on work order %d", state, kind, woID)
	}
	return found
}

// TestARefusedQuoteShowsInTheHeaderAndIsCorrectedInPlace: a quote the
// service refuses is in the work order's header with the service's words,
// and a notification names the work order. Edit puts the amount and reason
// back into the Quote tab; stopping leaves the refused quote as it was;
// submitting the corrected amount replaces it.
func TestARefusedQuoteShowsInTheHeaderAndIsCorrectedInPlace(t *testing.T) {
	h := newHarness(t)
	sent := h.recordNotifications()
	ctx := context.Background()
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // takes quotes
	nte := r.Nte.Amount
	minor := int32(api.MinorUnits(r.Nte.Currency))
	h.open(r.Id)
	h.selectTab("Quote")
	q := quoteOf(h)
	amount, reason := q.amount(), q.reason()
	asked := nte.Mul(decimal.NewFromInt(2)).StringFixed(minor)
	amount.SetText(asked)
	reason.SetText("Compressor must be replaced")
	test.Tap(q.submit())
	h.flush()
	if got := h.desk.detail.quote.Text(); got != "Quote submitted · queued" {
		t.Fatalf("with the quote queued the header's quote reads %q", got)
	}
	// Before it goes out, the customer raises the NTE above the quote.
	if err := h.sb.SetNte(r.Id, nte.Mul(decimal.NewFromInt(3))); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the raised NTE", func() bool {
		wo, _ := h.store.WorkOrder(ctx, r.Id)
		return wo.Nte.Amount.Amount.Equal(nte.Mul(decimal.NewFromInt(3)))
	})
	h.selectTab("Summary") // the person is looking elsewhere
	h.send()

	rv := headerRefusal(h, "Quote")
	if !strings.Contains(rv.title.Text, "refused by the service 09:00") || !strings.Contains(rv.text.Text, "must exceed the current NTE") {
		t.Fatalf("the header reads %q / %q; want the refusal in the service's words and when", rv.title.Text, rv.text.Text)
	}
	if !rv.retry.Visible() || !rv.edit.Visible() || !rv.discard.Visible() {
		t.Fatal("the refused quote offers no Retry, Edit and Discard")
	}
	if got := h.desk.detail.quote.Text(); strings.Contains(got, "submitted") {
		t.Fatalf("with the quote refused the header's quote reads %q", got)
	}
	var note string
	for _, n := range sent.all() {
		if strings.HasPrefix(n.Title, "Refused:") {
			note = n.Title + " | " + n.Content
		}
	}
	if !strings.Contains(note, r.Number) || !strings.Contains(note, "Quote") || !strings.Contains(note, "must exceed the current NTE") {
		t.Fatalf("the refusal's notification reads %q; want the work order, the action and the reason", note)
	}
	if s := h.desk.status.NoteLabel().Text; !strings.Contains(s, r.Number) || !strings.Contains(s, "refused") {
		t.Fatalf("the status bar says %q after the refusal", s)
	}
	refused := onlyRow(t, h, r.Id, outbox.KindQuote, storage.OutboxFailed)

	// Edit: the Quote tab, with what was asked and why.
	amount.SetText("")
	reason.SetText("")
	test.Tap(rv.edit)
	if sel := h.desk.detail.appTabs.Selected(); sel == nil || sel.Text != "Quote" {
		t.Fatal("Edit did not open the Quote tab")
	}
	if amount.Text != asked || reason.Text != "Compressor must be replaced" {
		t.Fatalf("Edit put back amount %q, reason %q; want %s and the reason", amount.Text, reason.Text, asked)
	}
	rv = headerRefusal(h, "Quote")
	if rv.edit.Text != "Stop editing" || !strings.Contains(rv.text.Text, "replaces this one") {
		t.Fatalf("while correcting, the header reads %q with %q", rv.text.Text, rv.edit.Text)
	}
	// Stopping loses nothing: the refused quote is still there, as it was.
	test.Tap(rv.edit)
	if got := rowOf(t, h, refused.Id).State; got != storage.OutboxFailed {
		t.Fatalf("stopping the edit left the refused quote %s", got)
	}
	if rv = headerRefusal(h, "Quote"); rv.edit.Text != "Edit" {
		t.Fatalf("after stopping, the button reads %q", rv.edit.Text)
	}

	// Correcting: above the raised NTE, submitted, replaces the refused one.
	test.Tap(rv.edit)
	corrected := nte.Mul(decimal.NewFromInt(4)).StringFixed(minor)
	amount.SetText(corrected)
	test.Tap(q.submit())
	h.flush()
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("submitting the corrected quote showed %q", txt)
	}
	if got := rowOf(t, h, refused.Id).State; got != storage.OutboxDiscarded {
		t.Fatalf("after the corrected quote was queued, the refused one is %s", got)
	}
	if len(headerLines(h)) != 0 || h.desk.detail.outbox.Refused().Visible() || h.desk.correcting != nil {
		t.Fatal("the header still shows the refusal once the correction is queued")
	}
	if s := h.desk.status.NoteLabel().Text; strings.Contains(s, "refused") {
		t.Fatalf("the status bar still says %q once the refusal was corrected", s)
	}
	h.send()
	if got := h.desk.detail.quote.Text(); got != "Quote submitted" {
		t.Fatalf("after the corrected quote went out, the header reads %q", got)
	}
	wo, _ := h.store.WorkOrder(ctx, r.Id)
	if q := wo.Nte.Quote; q == nil || q.Amount.Amount.StringFixed(minor) != corrected {
		t.Fatalf("the service holds the quote %+v, want %s", q, corrected)
	}
}

// TestARefusedRejectionIsEditedInItsDialog: a rejection the service refuses
// says why in words (never a raw status name); Edit opens the reason
// dialog filled in; Cancel leaves the refusal; rejecting again replaces it.
func TestARefusedRejectionIsEditedInItsDialog(t *testing.T) {
	refuse := true
	h := newHarnessWith(t, harnessOptions{service: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if refuse && r.Method == http.MethodPut && strings.EqualFold(r.URL.Path, "/api/workOrder/reject") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				json.NewEncoder(w).Encode(map[string]any{"Code": api.CodeWrongStatus,
					"Message": "Work order is CheckedIn; reject is only possible when it is New."})
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(r.Id)
	test.Tap(h.desk.detail.reject)
	reason := dialogEntry(t, h.win.Canvas().Overlays().Top())
	reason.SetText("No technician free this week")
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Reject"))
	h.send()

	rv := headerRefusal(h, "Reject")
	if !strings.Contains(rv.text.Text, "is checked in") || strings.Contains(rv.text.Text, "CheckedIn") {
		t.Fatalf("the refused rejection reads %q; want the status in words", rv.text.Text)
	}
	refused := onlyRow(t, h, r.Id, outbox.KindReject, storage.OutboxFailed)

	test.Tap(rv.edit)
	if got := dialogEntry(t, h.win.Canvas().Overlays().Top()).Text; got != "No technician free this week" {
		t.Fatalf("Edit opened the reason dialog with %q", got)
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Cancel"))
	if got := rowOf(t, h, refused.Id).State; got != storage.OutboxFailed || h.desk.correcting != nil {
		t.Fatalf("cancelling the edit left the rejection %s (still correcting: %v)", got, h.desk.correcting != nil)
	}

	refuse = false
	test.Tap(headerRefusal(h, "Reject").edit)
	dialogEntry(t, h.win.Canvas().Overlays().Top()).SetText("No technician free until next month")
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Reject"))
	if got := rowOf(t, h, refused.Id).State; got != storage.OutboxDiscarded {
		t.Fatalf("rejecting again left the refused rejection %s", got)
	}
	fixed := onlyRow(t, h, r.Id, outbox.KindReject, storage.OutboxPending)
	if d, _ := fixed.Draft(""); d.Text != "No technician free until next month" {
		t.Fatalf("the corrected rejection carries %q", d.Text)
	}
	h.send()
	if got := h.desk.detail.status.Text(); got != "Rejected" {
		t.Fatalf("after the corrected rejection the header reads %q", got)
	}
}

// TestARefusedCheckInIsEditedAndDiscardedFromTheHeader: a back-dated
// check-in the customer does not allow comes back with its time into the
// Visit tab; Discard in the header drops it after asking.
func TestARefusedCheckInIsEditedAndDiscardedFromTheHeader(t *testing.T) {
	h := newHarness(t)
	hp := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted})
	staleSettings(t, h, hp.Id)
	h.open(hp.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	earlier := fixedNow.Add(-3 * time.Hour)
	setBackDate(t, v, earlier)
	test.Tap(v.checkIn)
	h.send()
	rv := headerRefusal(h, "Check in")
	if !strings.Contains(rv.text.Text, "does not allow back-dating") {
		t.Fatalf("the refused check-in reads %q", rv.text.Text)
	}

	v.when.SetSelected(whenNow)
	h.selectTab("Summary")
	test.Tap(rv.edit)
	if sel := h.desk.detail.appTabs.Selected(); sel == nil || sel.Text != "Visit" {
		t.Fatal("Edit did not open the Visit tab")
	}
	if v.when.Selected != whenEarlier || v.backTime.Hour.Selected != earlier.Format("15") || v.backTime.Minute.Selected != earlier.Format("04") {
		t.Fatalf("Edit put back %s %s:%s; want the back-dated %s", v.when.Selected, v.backTime.Hour.Selected, v.backTime.Minute.Selected, earlier.Format("15:04"))
	}

	if s := h.desk.status.NoteLabel().Text; !strings.Contains(s, "refused") {
		t.Fatalf("the status bar says %q after the refusal", s)
	}
	test.Tap(headerRefusal(h, "Check in").discard)
	if !strings.Contains(h.overlayText(), "discard this action?") {
		t.Fatalf("Discard asks nothing; overlay %q", h.overlayText())
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Discard"))
	h.flush()
	if h.desk.detail.outbox.Refused().Visible() || len(headerLines(h)) != 0 {
		t.Fatal("the discarded check-in is still in the header")
	}
	if s := h.desk.status.NoteLabel().Text; strings.Contains(s, "refused") {
		t.Fatalf("the status bar still says %q once the refusal was discarded", s)
	}
	if got := onlyRow(t, h, hp.Id, outbox.KindCheckIn, storage.OutboxDiscarded); got == nil {
		t.Fatal("the check-in was not discarded")
	}
	if got := h.desk.detail.status.Text(); got != "Accepted" || v.checkIn.Disabled() {
		t.Fatalf("after discarding, the header reads %q and Check in is disabled: %v", got, v.checkIn.Disabled())
	}
}

// TestARefusedMessageIsNotSentInTheThread: a message the service refuses
// stays in the thread marked not sent, with the service's words; its Edit
// puts the text and who sees it back into the compose box, and sending the
// corrected one replaces it.
func TestARefusedMessageIsNotSentInTheThread(t *testing.T) {
	refuse := true
	h := newHarnessWith(t, harnessOptions{service: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if refuse && r.Method == http.MethodPost && strings.EqualFold(r.URL.Path, "/api/messages") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				json.NewEncoder(w).Encode(map[string]any{"Code": 3000, "Message": "The customer's desk is closed"})
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(r.Id)
	h.selectTab("Messages")
	m := msgsOf(h)
	m.text().SetText("Technican on site at 10:30")
	m.vis().SetSelected(format.Visibility(api.VisibilityCruOnly))
	test.Tap(m.send())
	h.send()

	last := m.last()
	if last.text != "Technican on site at 10:30" ||
		!strings.Contains(last.heading, "not sent, refused by the service: The customer's desk is closed") {
		t.Fatalf("the refused message reads %q: %q", last.heading, last.text)
	}
	var edit *widget.Button
	walk(last.item, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Edit" {
			edit = b
		}
	})
	if edit == nil {
		t.Fatal("the refused message offers no Edit in the thread")
	}
	m.text().SetText("")
	m.vis().SetSelected(format.Visibility(api.VisibilityAll))
	test.Tap(edit)
	if m.text().Text != "Technican on site at 10:30" || m.vis().Selected != format.Visibility(api.VisibilityCruOnly) {
		t.Fatalf("Edit put back %q for %q", m.text().Text, m.vis().Selected)
	}

	refuse = false
	m.text().SetText("Technician on site at 10:30")
	test.Tap(m.send())
	h.send()
	n := 0
	for _, x := range m.thread() {
		if strings.Contains(x.Text, "on site at 10:30") {
			n++
			if x.Row != nil && x.Row.State != storage.OutboxDone || x.Text != "Technician on site at 10:30" || x.MessageVisibility != api.VisibilityCruOnly {
				t.Errorf("the thread holds %q (%s) from the outbox: %v", x.Text, x.MessageVisibility, x.Row != nil)
			}
		}
	}
	if n != 1 || h.desk.detail.outbox.Refused().Visible() {
		t.Fatalf("after the corrected message the thread holds it %d times; refusal still in the header: %v", n, h.desk.detail.outbox.Refused().Visible())
	}
}

// TestARefusedInvoiceIsCorrectedInTheInvoiceTab replays the QA finding: an
// invoice above the NTE, submitted at a customer that blocks those, is
// refused. The header says so in the service's words; Edit opens the
// Invoice tab, and submitting the corrected invoice replaces the refusal.
func TestARefusedInvoiceIsCorrectedInTheInvoiceTab(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		if wo.Customer.Name != "Northwind Retail" || !wo.Status.Completed() || wo.Nte.Amount.IsZero() ||
			inv.Status != api.InvoiceDraft || len(inv.LineItems) == 0 {
			return false
		}
		level, _ := api.NteStanding(inv.TotalAmount.In(wo.Currency), wo.Nte.Amount.In(wo.Currency))
		return level != api.NteOver
	})
	woID := h.desk.detail.wo.WorkOrderId
	inv.addPriceItem(0)
	inv.quantity(inv.lineCount() - 1).SetText("999")
	test.Tap(inv.button("Submit invoice"))
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Submit invoice")) // above the NTE: submit anyway
	h.selectTab("Summary")
	h.send()

	rv := headerRefusal(h, "Submit invoice")
	if !strings.Contains(rv.text.Text, "exceeds the NTE") || !rv.edit.Visible() {
		t.Fatalf("the refused invoice reads %q (Edit shown: %v)", rv.text.Text, rv.edit.Visible())
	}
	refused := onlyRow(t, h, woID, outbox.KindInvoiceSubmit, storage.OutboxFailed)
	test.Tap(rv.edit)
	if sel := h.desk.detail.appTabs.Selected(); sel == nil || sel.Text != "Invoice" {
		t.Fatal("Edit did not open the Invoice tab")
	}

	inv.removeLine(inv.lineCount() - 1)
	inv.submit()
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("submitting the corrected invoice showed %q", txt)
	}
	if got := rowOf(t, h, refused.Id).State; got != storage.OutboxDiscarded {
		t.Fatalf("after the corrected invoice was submitted, the refused submission is %s", got)
	}
	h.send()
	h.waitFor("the submitted invoice", func() bool {
		return inv.badge() == "Submitted" || inv.badge() == format.Status(api.InvoicePendingVerification)
	})
	if h.desk.detail.outbox.Refused().Visible() {
		t.Fatal("the refusal is still in the header")
	}
}
