package ui

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestWalkthroughNewToAuthorizedInvoice walks one work order from New to an
// authorized invoice entirely in the window, as the user guide's walkthrough
// shows: accept, schedule, back-dated check-in, a quote the demo customer
// approves, check-out, an invoice from the price list, submit, authorized.
// With WORKDESK_WALKTHROUGH_DIR set it writes a screenshot of each step
// there (make walkthrough).
func TestWalkthroughNewToAuthorizedInvoice(t *testing.T) {
	h := newHarness(t)
	test.ApplyTheme(t, newTheme(appearanceLight, false))
	shots := os.Getenv("WORKDESK_WALKTHROUGH_DIR")
	step := 0
	shot := func(name string) {
		step++
		if shots == "" {
			return
		}
		h.desk.list.Table().Refresh()
		h.settle()
		f, err := os.Create(filepath.Join(shots, fmt.Sprintf("%d-%s.png", step, name)))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, h.win.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
	}
	header := func() string { return h.desk.detail.status.Text() }

	// Northwind Retail lets visits be back-dated and takes quotes.
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail"})
	h.open(r.Id)
	shot("new-work-order")

	test.Tap(h.desk.detail.accept)
	h.send()
	if header() != "Accepted" {
		t.Fatalf("after Accept the header reads %q", header())
	}

	h.selectTab("Visit")
	v := visitOf(h)
	scheduleTomorrowAt(h, v, "08", "30")
	shot("accepted-and-scheduled")

	arrived := fixedNow.Add(-90 * time.Minute)
	v.when.SetSelected(whenEarlier)
	v.backDate.SetDate(&arrived)
	v.backTime.Hour.SetSelected(arrived.Format("15"))
	v.backTime.Minute.SetSelected(arrived.Format("04"))
	test.Tap(v.checkIn)
	h.send()
	if header() != "Checked in" {
		t.Fatalf("after the back-dated check-in the header reads %q (%s)", header(), v.lastState.Text)
	}
	shot("checked-in-back-dated")

	// The quote is the work the repair takes, from Northwind's price list;
	// its lines total into the amount, and the invoice repeats them.
	h.selectTab("Quote")
	q := quoteOf(h)
	items, err := h.store.PriceList(context.Background(), r.Id)
	if err != nil || items == nil {
		t.Fatalf("Northwind's price list is not in the replica: %v", err)
	}
	work := []struct {
		item int // in Northwind's price list
		qty  int64
	}{
		{0, 12}, // technician labour, standard rate (hours)
		{2, 6},  // helper labour (hours)
		{3, 2},  // trip charge (visits)
		{4, 8},  // refrigerant R-404A (lb)
	}
	quote := decimal.Zero
	for _, w := range work {
		q.addLine(w.item, fmt.Sprint(w.qty))
		quote = quote.Add(items.Items[w.item].Rate.Amount.Mul(decimal.NewFromInt(w.qty)))
	}
	if !quote.GreaterThan(r.Nte.Amount) {
		t.Fatalf("the repair (%s) does not exceed the NTE (%s): pick other quantities", quote, format.Money(r.Nte))
	}
	if amount := q.amount(); amount.Text != quote.StringFixed(2) || !amount.Disabled() {
		t.Fatalf("with lines totalling %s the amount reads %q (disabled %v)", quote.StringFixed(2), amount.Text, amount.Disabled())
	}
	q.reason().SetText("The walk-in cooler is leaking refrigerant: finding and brazing the leak takes two visits with a helper, and the system must be recharged.")
	test.Tap(q.submit())
	h.send()
	if got := h.desk.detail.quote.Text(); got != "Quote submitted" {
		t.Fatalf("after submitting the quote the header shows %q", got)
	}
	shot("quote-submitted")

	h.menuItem("Approve the quote").Action()
	h.waitFor("the quote approval", func() bool { return h.desk.detail.quote.Text() == "Quote approved" })
	if nte := format.Money((api.Money{Amount: quote, Currency: "USD"})); !strings.HasPrefix(h.desk.detail.nte.Text, nte) {
		t.Fatalf("after approval the NTE reads %q, want %s", h.desk.detail.nte.Text, nte)
	}
	shot("quote-approved-by-customer")

	h.selectTab("Visit")
	v.when.SetSelected(whenNow)
	test.Tap(v.checkOut)
	h.send()
	if header() != "Checked out" {
		t.Fatalf("after check-out the header reads %q (%s)", header(), v.lastState.Text)
	}

	h.selectTab("Invoice")
	inv := invoiceOf(h)
	inv.number().SetText("INV-" + r.Number)
	today := fixedNow
	inv.date().SetDate(&today)
	for _, w := range work {
		inv.addPriceItem(w.item)
		inv.quantity(inv.lineCount() - 1).SetText(fmt.Sprint(w.qty))
	}
	inv.check(t, "Total "+format.Money(api.Money{Amount: quote, Currency: "USD"})+"  USD")
	test.Tap(inv.button("Save"))
	h.send()
	inv.submit()
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("submitting the invoice showed %q", txt)
	}
	h.send()
	if got := inv.badge(); got != format.Status(api.InvoiceSubmitted) && got != format.Status(api.InvoicePendingVerification) {
		t.Fatalf("after submitting, the invoice status reads %q:\n%s", got, inv.text())
	}
	shot("invoice-submitted")

	h.menuItem("Authorize the invoice").Action()
	h.waitFor("the invoice authorization", func() bool { return inv.badge() == "Authorized" })
	shot("invoice-authorized")
}
