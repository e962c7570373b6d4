package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestEachMessageStartsToTheCustomer: a note sent to "Nobody (record only)"
// leaves the next message visible to the customer and crew again; in the
// thread the note says it is internal and is drawn on a tint, a message
// to the customer not.
func TestEachMessageStartsToTheCustomer(t *testing.T) {
	h := newHarness(t)
	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(row.Id)
	m := msgsOf(h)
	h.desk.detail.showTab("Messages")
	send := func(text string, vis api.MessageVisibility) {
		t.Helper()
		m.vis().SetSelected(format.Visibility(vis))
		m.text().SetText(text)
		test.Tap(m.send())
		h.flush()
		h.send()
	}
	send("Gate code is 4412", api.VisibilityNone)
	if got := m.vis().Selected; got != format.Visibility(api.VisibilityAll) {
		t.Errorf("after a record-only note the next message is for %q", got)
	}
	send("On our way", api.VisibilityAll)
	shown := map[string]bool{}
	for _, msg := range m.rows() {
		tinted, heading := msg.tinted, msg.heading
		switch msg.text {
		case "Gate code is 4412":
			if !tinted || !strings.Contains(heading, "Internal · Nobody (record only)") {
				t.Errorf("the internal note is drawn tinted %v, headed %q", tinted, heading)
			}
		case "On our way":
			if tinted || strings.Contains(heading, "Internal") {
				t.Errorf("the message to the customer is drawn tinted %v, headed %q", tinted, heading)
			}
		}
		shown[msg.text] = true
	}
	if !shown["Gate code is 4412"] || !shown["On our way"] {
		t.Fatalf("the thread lacks the two messages: %v", shown)
	}
	// Another work order's message starts for the customer too.
	m.vis().SetSelected(format.Visibility(api.VisibilityCruOnly))
	other := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted && r.Id != row.Id })
	h.open(other.Id)
	if got := m.vis().Selected; got != format.Visibility(api.VisibilityAll) {
		t.Errorf("on another work order the message is for %q", got)
	}
}

// TestABackDateToTheMinute: a check-in back-dated to 08:07 is queued at
// 08:07, not rounded to five minutes.
func TestABackDateToTheMinute(t *testing.T) {
	h := newHarness(t)
	v := visitOf(h)
	row := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // allows back-dating
	h.open(row.Id)
	h.desk.detail.showTab("Visit")
	at := fixedNow.Add(-53 * time.Minute) // 08:07
	setBackDate(t, v, at)
	test.Tap(v.checkIn)
	h.flush()
	rows, err := h.store.OutboxRows(context.Background(), row.Id)
	if err != nil || len(rows) == 0 {
		t.Fatalf("no check-in queued: %v; the window says %q", err, h.overlayText())
	}
	if got := rows[len(rows)-1].ActionDate; !got.Equal(at) {
		t.Errorf("the check-in is queued at %s, the person chose %s", format.Time(got), format.Time(at))
	}
}

// TestAskTheCustomerForMore: an invoice over an NTE that an approved quote
// set cannot be followed by a new quote; the Invoice tab offers to ask the
// customer instead, which opens the Messages tab with the message written,
// to the customer.
func TestAskTheCustomerForMore(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == api.QuoteApproved && !wo.Nte.NoLimit() && inv.Status.Editable()
	})
	wo := h.desk.detail.wo
	inv.addPriceItem(0)
	inv.quantity(inv.lineCount() - 1).SetText(wo.Nte.Amount.Amount.String()) // above the NTE at any rate of 1 or more
	test.Tap(inv.button("Ask the customer for more…"))
	m := msgsOf(h)
	if got := h.desk.detail.tabs[h.desk.detail.appTabs.SelectedIndex()].Title(); got != "Messages" {
		t.Errorf("Ask the customer for more shows the %s tab", got)
	}
	if text := m.text().Text; !strings.Contains(text, wo.WorkOrderNumber) || !strings.Contains(text, "NTE") {
		t.Errorf("the message written: %q", text)
	}
	if m.vis().Selected != format.Visibility(api.VisibilityAll) {
		t.Errorf("the message is for %q, not the customer", m.vis().Selected)
	}
}
