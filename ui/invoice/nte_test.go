package invoice

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// Over the NTE, while a quote may be submitted, the tab offers to request
// an increase: the Quote tab, filled with the invoice's total and lines.
func TestAnInvoiceOverTheNteRequestsAnIncrease(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	clearLines(t, inv)
	row := addPriceItem(t, inv, 0)
	rate := inv.inv.LineItems[0].Rate.Amount
	row.qty.SetText(wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(2)).Div(rate).Ceil().String())
	addPriceItem(t, inv, len(inv.pl.Items)-1)

	if !inv.requestNte.Visible() || inv.requestNte.Disabled() {
		t.Fatalf("over the NTE, the request button is visible=%v disabled=%v", inv.requestNte.Visible(), inv.requestNte.Disabled())
	}
	if !strings.Contains(inv.nteWarn.Text, "Over the NTE") || !strings.Contains(inv.nteWarn.Text, "Request an NTE increase before you submit") {
		t.Errorf("over the NTE the tab warns %q", inv.nteWarn.Text)
	}
	if inv.warnings.Visible() && strings.Contains(inv.warnings.Text, "NTE") {
		t.Errorf("the overrun is told twice: %q and again %q", inv.nteWarn.Text, inv.warnings.Text)
	}
	total := inv.inv.Totals(wo.Currency).Total
	lines := inv.currentLines()

	test.Tap(inv.requestNte)
	if len(f.quoteRequests) != 1 {
		t.Fatalf("requesting an increase asked the Quote tab %d times", len(f.quoteRequests))
	}
	q := f.quoteRequests[0]
	if !q.total.Amount.Equal(total.Amount) || q.total.Currency != "USD" || q.reason != "Invoice total exceeds the NTE" || len(q.lines) != len(lines) {
		t.Fatalf("the Quote tab was asked for %s, %q, %d lines; want %s with the invoice's %d lines", format.Money(q.total), q.reason, len(q.lines), format.Money(total), len(lines))
	}
	for i, l := range lines {
		if q.lines[i].Description != l.Description || !q.lines[i].Subtotal.Amount.Equal(l.ComputedSubtotal().Amount) {
			t.Errorf("line %d is handed over as %q at %s", i+1, q.lines[i].Description, format.Money(q.lines[i].Subtotal))
		}
	}
}

// Over the NTE while no quote can be submitted, the tab says once what the
// person can do, and never tells them to request an increase they cannot;
// with a quote approved, it offers to ask the customer in a message.
func TestOverTheNteWithoutAPossibleQuoteSaysOnceWhy(t *testing.T) {
	for _, c := range []struct {
		quote api.QuoteStatus
		says  string
		ask   bool
	}{
		{api.QuoteSubmitted, "waiting for the customer's decision", false},
		{api.QuoteApproved, "only after the customer rejects that one", true},
	} {
		t.Run(string(c.quote), func(t *testing.T) {
			wo := workOrder(func(w *api.WorkOrder) {
				w.Nte.Quote = &api.Quote{Amount: api.MustMoney("1050.00", "USD"), QuoteStatus: c.quote}
			})
			f := newFake(t, wo, draft(wo), priceList("USD"))
			inv := f.tab
			row := addPriceItem(t, inv, 0)
			row.qty.SetText(wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(3)).Div(inv.inv.LineItems[len(inv.inv.LineItems)-1].Rate.Amount).Ceil().String())
			if inv.requestNte.Visible() {
				t.Errorf("with the quote %s, a request button shows (disabled=%v)", c.quote, inv.requestNte.Disabled())
			}
			if !inv.nteWarn.Visible() || !strings.Contains(inv.nteWarn.Text, "Over the NTE") || !strings.Contains(inv.nteWarn.Text, c.says) {
				t.Errorf("over the NTE with the quote %s the tab says %q", c.quote, inv.nteWarn.Text)
			}
			shown := strings.ToLower(shownTexts(inv))
			for _, never := range []string{"request an nte increase", "ask for an nte increase", "cannot be requested now"} {
				if strings.Contains(shown, never) {
					t.Errorf("the tab says %q although no increase can be requested:\n%s", never, shown)
				}
			}
			if n := strings.Count(shown, "over the nte") + strings.Count(shown, "above the nte"); n != 1 {
				t.Errorf("the overrun is told %d times:\n%s", n, shown)
			}
			if inv.askMore.Visible() != c.ask {
				t.Fatalf("with the quote %s, Ask the customer for more… shows: %v", c.quote, inv.askMore.Visible())
			}
			if !c.ask {
				return
			}
			test.Tap(inv.askMore)
			if len(f.wrote) != 1 || !strings.Contains(f.wrote[0], "The invoice for WN41 comes to "+format.Money(inv.inv.Totals("USD").Total)+", more than the approved NTE of $1,050.00.") {
				t.Errorf("asking the customer for more wrote %q", f.wrote)
			}
		})
	}
}

func TestTheNteGaugeShowsAnOverrunInRed(t *testing.T) {
	wo := workOrder() // the QA case: the customer's NTE is $1,050.00
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	clearLines(t, inv)
	row := addPriceItem(t, inv, 0)
	row.qty.SetText("1")

	themePrimary := fyne.CurrentApp().Settings().Theme().Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
	for _, c := range []struct {
		rate, words string
		bar         color.Color
		what        string
	}{
		{"1084.40", "103% of the NTE", palette.Rejected, "red"},
		{"997.50", "95% of the NTE", palette.Requested, "amber"},
		{"525.00", "50% of the NTE", themePrimary, "the theme's primary colour"},
		{"1084.40", "103% of the NTE", palette.Rejected, "red again"},
	} {
		row.rate.SetText(c.rate)
		words, bar := gaugeSeen(t, inv)
		if words != c.words || !sameColor(bar, c.bar) {
			t.Errorf("at $%s of $1,050.00 the gauge reads %q in %v, want %q in %s (%v)", c.rate, words, bar, c.words, c.what, c.bar)
		}
	}
	if want := "Total $1,084.40 of the NTE $1,050.00"; inv.gauge.Label.Text != want {
		t.Errorf("the NTE line reads %q, want %q", inv.gauge.Label.Text, want)
	}
	if !strings.Contains(inv.nteWarn.Text, "Over the NTE by $34.40") {
		t.Errorf("over the NTE the tab warns %q", inv.nteWarn.Text)
	}
}

// A work order without an NTE says "NTE: no limit" on the gauge.
func TestNoLimitOnTheGauge(t *testing.T) {
	wo := workOrder(func(w *api.WorkOrder) { w.Nte.Amount = api.Money{Currency: "USD"} })
	f := newFake(t, wo, draft(wo), priceList("USD"))
	if got := f.tab.gauge.Label.Text; !strings.HasPrefix(got, "NTE: no limit.") || f.tab.gauge.BarShown() {
		t.Errorf("the Invoice tab reads %q (bar shown %v), want \"NTE: no limit.\"", got, f.tab.gauge.BarShown())
	}
}

// TestInvoiceNoticeInWords: a payment reads the same whether the
// notification came directly (with its status) or through the office hub
// (which passes on only the facts no re-read has: no status); a
// notification that said nothing the invoice does not show says nothing.
func TestInvoiceNoticeInWords(t *testing.T) {
	paid := time.Date(2026, 12, 3, 15, 0, 0, 0, time.Local)
	amount := api.MustMoney("1240", "USD")
	for _, tc := range []struct {
		name string
		n    api.InvoiceStatusChangedEvent
		want string
	}{
		{"directly", api.InvoiceStatusChangedEvent{Status: api.InvoicePaid, PaidDate: &paid, CheckNumber: "10442", Amount: &amount},
			"The customer's notification: Paid " + format.Day(paid) + ", check 10442, $1,240.00"},
		{"through the hub", api.InvoiceStatusChangedEvent{PaidDate: &paid, CheckNumber: "10442", Amount: &amount},
			"The customer's notification: Paid " + format.Day(paid) + ", check 10442, $1,240.00"},
		{"authorized", api.InvoiceStatusChangedEvent{Status: api.InvoiceAuthorized, AuthNumber: "A-77"},
			"The customer's notification: Authorized, authorization A-77"},
		{"a reason only", api.InvoiceStatusChangedEvent{Comment: "Missing the receipt"},
			"The customer's notification: Missing the receipt"},
		{"nothing", api.InvoiceStatusChangedEvent{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := invoiceNoticeText(&storage.InvoiceNotice{InvoiceStatusChangedEvent: tc.n}, "USD"); got != tc.want {
				t.Errorf("%q; want %q", got, tc.want)
			}
		})
	}

	// The tab shows the latest one under the invoice's status.
	wo := workOrder()
	f := newFake(t, wo, draft(wo, func(i *api.Invoice) { i.Status = api.InvoicePaid }), priceList("USD"))
	f.notices[wo.WorkOrderId] = &storage.InvoiceNotice{InvoiceStatusChangedEvent: api.InvoiceStatusChangedEvent{Status: api.InvoicePaid, PaidDate: &paid, CheckNumber: "CHK-1"}}
	f.open(wo)
	if !strings.Contains(f.tab.details.Text, "The customer's notification: Paid "+format.Day(paid)+", check CHK-1") {
		t.Errorf("the invoice says %q", f.tab.details.Text)
	}
}
