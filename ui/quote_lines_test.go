package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/quote"
)

// An invoice's discount cannot travel on a quote: the NTE increase asks for
// the lines' total and says why it is not the invoice total.
func TestAnNteIncreaseFromADiscountedInvoiceAsksForTheLinesTotal(t *testing.T) {
	h := newHarness(t)
	var pl *api.PriceList
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, p *api.PriceList) bool {
		ok, _ := quote.Allowed(wo)
		pl = p
		return ok && !wo.Nte.NoLimit() && inv.Status.Editable() && wo.Currency == "USD"
	})
	wo := h.desk.detail.wo
	inv.clearLines()
	inv.addPriceItem(0)
	line := api.LineItem{Rate: pl.Items[0].Rate.In(wo.Currency)}
	line.Quantity = wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(2)).Div(line.Rate.Amount).Ceil()
	inv.quantity(0).SetText(line.Quantity.String())
	inv.discount().SetText("10.00")
	tt := struct{ Lines, Total api.Money }{Lines: line.ComputedSubtotal()}
	tt.Total = api.Money{Amount: tt.Lines.Amount.Sub(decimal.NewFromInt(10)), Currency: wo.Currency}
	test.Tap(inv.button("Request NTE increase"))

	if sel := h.desk.detail.appTabs.Selected(); sel == nil || sel.Text != "Quote" {
		t.Fatal("Request NTE increase did not open the Quote tab")
	}
	q := quoteOf(h)
	if amount := q.amount(); amount.Text != tt.Lines.Amount.StringFixed(2) || !amount.Disabled() {
		t.Fatalf("the quote amount reads %q (disabled %v), want the lines' total %s", amount.Text, amount.Disabled(), format.Money(tt.Lines))
	}
	if note := q.label(format.Money(tt.Lines) + " — the total of the line items").Text; !strings.Contains(note, format.Money(tt.Total)) || !strings.Contains(note, "discount") {
		t.Errorf("the quote does not explain the invoice's discount: %q", note)
	}
}
