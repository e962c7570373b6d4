package ui

import (
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
	"github.com/workorderdesk/workdesk/storage"
)

// TestWalkthroughNewToAuthorizedInvoice walks one work order from New to an
// authorized invoice entirely in the window, as the README's walkthrough
// shows: accept, schedule, back-dated check-in, a quote the demo customer
// approves, check-out, an invoice from the price list, submit, authorized.
// With WORKDESK_WALKTHROUGH_DIR set it writes a screenshot of each step
// there (make walkthrough).
func TestWalkthroughNewToAuthorizedInvoice(t *testing.T) {
	h := newHarness(t)
	test.ApplyTheme(t, newTheme(false))
	h.desk.status.mode.SetText("Demo · sandbox on 127.0.0.1:8089")
	shots := os.Getenv("WORKDESK_WALKTHROUGH_DIR")
	step := 0
	shot := func(name string) {
		step++
		if shots == "" {
			return
		}
		h.desk.list.table.Refresh()
		f, err := os.Create(filepath.Join(shots, fmt.Sprintf("%d-%s.png", step, name)))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, h.win.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
	}
	header := func() string { return h.desk.detail.status.text.Text }

	// Northwind Retail lets visits be back-dated and takes quotes.
	r := h.rowWhere(func(r storage.Row) bool {
		return r.Status == api.StatusNew && r.Customer == "Northwind Retail" && !r.Nte.IsZero()
	})
	h.open(r.Id)
	shot("new-work-order")

	test.Tap(h.desk.detail.accept)
	h.send()
	if header() != "Accepted" {
		t.Fatalf("after Accept the header reads %q", header())
	}

	h.selectTab("Visit")
	v := h.desk.detail.tabs[2].(*visitTab)
	tomorrow := fixedNow.Add(24 * time.Hour)
	v.schedDate.SetDate(&tomorrow)
	v.schedTime.SetText("08:30")
	test.Tap(v.schedSave)
	h.send()
	if !strings.Contains(v.schedNow.Text, "08:30") {
		t.Fatalf("after scheduling, the visit tab says %q", v.schedNow.Text)
	}
	shot("accepted-and-scheduled")

	arrived := fixedNow.Add(-90 * time.Minute)
	v.when.SetSelected(whenEarlier)
	v.backDate.SetDate(&arrived)
	v.backTime.SetText(arrived.Format("15:04"))
	test.Tap(v.checkIn)
	h.send()
	if header() != "Checked in" {
		t.Fatalf("after the back-dated check-in the header reads %q (%s)", header(), v.lastState.Text)
	}
	shot("checked-in-back-dated")

	h.selectTab("Quote")
	q := h.desk.detail.tabs[1].(*quoteTab)
	q.priceSel.SetSelectedIndex(0)
	q.qty.SetText("4")
	test.Tap(q.addLine)
	quote := r.Nte.Amount.Mul(decimal.NewFromInt(3)).Round(2)
	q.amount.SetText(quote.StringFixed(2))
	q.reason.SetText("The compressor has failed and must be replaced; four hours of labour and the part.")
	test.Tap(q.submit)
	h.send()
	if got := h.desk.detail.quote.text.Text; got != "Quote Submitted" {
		t.Fatalf("after submitting the quote the header shows %q", got)
	}
	shot("quote-submitted")

	h.menuItem("Approve the quote").Action()
	h.waitFor("the quote approval", func() bool { return h.desk.detail.quote.text.Text == "Quote Approved" })
	if nte := (api.Money{Amount: quote, Currency: "USD"}).Format(); !strings.HasPrefix(h.desk.detail.nte.Text, nte) {
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
	inv := h.desk.detail.tabs[5].(*invoiceTab)
	inv.number.SetText("INV-" + r.Number)
	today := fixedNow
	inv.date.SetDate(&today)
	for i := 0; i < 2 && i < len(inv.pl.Items); i++ {
		inv.priceSel.SetSelectedIndex(i)
		test.Tap(inv.addItem)
	}
	test.Tap(inv.save)
	h.send()
	test.Tap(inv.submit)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("submitting the invoice showed %q", txt)
	}
	h.send()
	if got := inv.badge.text.Text; got != statusText(api.InvoiceSubmitted) && got != statusText(api.InvoicePendingVerification) {
		t.Fatalf("after submitting, the invoice status reads %q (%s)", got, inv.lastAction.Text)
	}
	shot("invoice-submitted")

	h.menuItem("Authorize the invoice").Action()
	h.waitFor("the invoice authorization", func() bool { return inv.badge.text.Text == "Authorized" })
	shot("invoice-authorized")
}
