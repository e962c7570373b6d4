package ui

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/ui/format"
)

// openQuotable opens, on the Quote tab, an accepted USD work order with an
// NTE and no quote, of a customer that takes quotes.
func openQuotable(h *harness) *quoteTab {
	h.t.Helper()
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // USD, takes quotes
	h.open(r.Id)
	h.selectTab("Quote")
	return tabOf[*quoteTab](h)
}

// quoteLineRemove is the remove button of quote line i.
func quoteLineRemove(t *testing.T, q *quoteTab, i int) *widget.Button {
	t.Helper()
	var found []*widget.Button
	walk(q.linesBox.Objects[i], func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok {
			found = append(found, b)
		}
	})
	if len(found) != 1 {
		t.Fatalf("quote line %d has %d buttons, want its remove button", i+1, len(found))
	}
	return found[0]
}

func TestQuoteLinesTotalIntoTheAmount(t *testing.T) {
	h := newHarness(t)
	q := openQuotable(h)
	wo := h.desk.detail.wo
	if q.priceList == nil || len(q.priceList.Items) < 2 {
		t.Fatal("the work order's price list did not load")
	}
	if q.amount.Disabled() || q.amountNote.Visible() {
		t.Fatal("without lines the amount must be typed")
	}
	money := func(d decimal.Decimal) string { return format.Money(api.Money{Amount: d, Currency: wo.Currency}) }
	rate := func(i int) decimal.Decimal { return q.priceList.Items[i].Rate.Amount }
	add := func(item int, qty string) {
		q.priceSel.SetSelectedIndex(item)
		q.qty.SetText(qty)
		test.Tap(q.addLine)
	}
	shows := func(want decimal.Decimal) {
		t.Helper()
		if q.amount.Text != want.StringFixed(2) || !q.amount.Disabled() {
			t.Fatalf("the amount reads %q (disabled %v), want the lines' total %s, not typed", q.amount.Text, q.amount.Disabled(), want.StringFixed(2))
		}
		if !q.amountNote.Visible() || !strings.Contains(q.amountNote.Text, "total of the line items") {
			t.Fatalf("the amount does not say it is the lines' total: %q", q.amountNote.Text)
		}
		if !strings.Contains(q.total.Text, money(want)) {
			t.Fatalf("the lines total reads %q, want %s", q.total.Text, money(want))
		}
	}

	q.amount.SetText("999999.00") // typed before any line: the lines take over
	add(0, "2")
	shows(rate(0).Mul(decimal.NewFromInt(2)))
	add(1, "1")
	shows(rate(0).Mul(decimal.NewFromInt(2)).Add(rate(1)))

	// A changed quantity changes the line's subtotal and the amount.
	q.lineRows[0].qty.SetText("3")
	shows(rate(0).Mul(decimal.NewFromInt(3)).Add(rate(1)))
	if want := money(rate(0).Mul(decimal.NewFromInt(3))); q.lineRows[0].subtotal.Text != want {
		t.Errorf("line 1's subtotal reads %q, want %s", q.lineRows[0].subtotal.Text, want)
	}
	// An unreadable quantity is named; the line keeps its last good one.
	q.lineRows[0].qty.SetText("three")
	if !q.lineErr.Visible() || !strings.Contains(q.lineErr.Text, "Line 1") {
		t.Fatalf("an unreadable quantity shows %q", q.lineErr.Text)
	}
	shows(rate(0).Mul(decimal.NewFromInt(3)).Add(rate(1)))
	q.reason.SetText("More work than the NTE covers")
	test.Tap(q.submit)
	if !strings.Contains(h.overlayText(), "fix the line items first") {
		t.Fatalf("submitting with an unreadable quantity showed %q", h.overlayText())
	}
	h.dismissOverlays()
	q.lineRows[0].qty.SetText("3")
	if q.lineErr.Visible() {
		t.Fatalf("a fixed quantity still shows %q", q.lineErr.Text)
	}

	// Removing a line takes it out of the amount.
	test.Tap(quoteLineRemove(t, q, 1))
	shows(rate(0).Mul(decimal.NewFromInt(3)))
	test.Tap(quoteLineRemove(t, q, 0))
	if q.amount.Disabled() || q.amountNote.Visible() || q.total.Text != "" {
		t.Fatalf("without lines the amount is disabled=%v, note %q, total %q", q.amount.Disabled(), q.amountNote.Text, q.total.Text)
	}

	// Lines below the NTE: the person is told to add to them.
	add(0, "1")
	test.Tap(q.submit)
	if !strings.Contains(h.overlayText(), "must exceed the current nte") {
		t.Fatalf("lines below the NTE showed %q", h.overlayText())
	}
	h.dismissOverlays()
	// With lines the quote is their total, whatever the hidden amount entry holds.
	above := wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(2)).Div(rate(0)).Ceil()
	q.lineRows[0].qty.SetText(above.String())
	total := rate(0).Mul(above)
	q.amount.SetText(total.Add(decimal.NewFromInt(1)).StringFixed(2))
	test.Tap(q.submit)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("a quote of its lines' total showed %q", txt)
	}
	h.send()
	got, err := h.store.WorkOrder(context.Background(), wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if qq := got.Nte.Quote; qq == nil || qq.QuoteStatus != api.QuoteSubmitted || !qq.Amount.Amount.Equal(total) || len(qq.LineItems) != 1 {
		t.Fatalf("the service holds the quote %+v, want %s Submitted with its one line", qq, money(total))
	}
	if h.desk.detail.quote.Text() != "Quote submitted" {
		t.Errorf("the header reads %q", h.desk.detail.quote.Text())
	}
	// The submitted quote shows what it is made of.
	if line := q.priceList.Items[0].Description + ": " + above.String() + " × "; !strings.Contains(q.current.Text, line) || !strings.Contains(q.current.Text, money(total)) {
		t.Errorf("the current quote reads %q, want its line %q… and %s", q.current.Text, line, money(total))
	}
}

// An invoice's discount cannot travel on a quote: the NTE increase asks for
// the lines' total and says why it is not the invoice total.
func TestAnNteIncreaseFromADiscountedInvoiceAsksForTheLinesTotal(t *testing.T) {
	h := newHarness(t)
	var pl *api.PriceList
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, p *api.PriceList) bool {
		ok, _ := quoteAllowed(wo)
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

	q := tabOf[*quoteTab](h)
	if q.amount.Text != tt.Lines.Amount.StringFixed(2) || !q.amount.Disabled() {
		t.Fatalf("the quote amount reads %q (disabled %v), want the lines' total %s", q.amount.Text, q.amount.Disabled(), format.Money(tt.Lines))
	}
	if !strings.Contains(q.amountNote.Text, format.Money(tt.Total)) || !strings.Contains(q.amountNote.Text, "discount") {
		t.Errorf("the quote does not explain the invoice's discount: %q", q.amountNote.Text)
	}
}

// rewritePriceListCurrency makes the service answer every price list in
// currency, as a customer whose list is kept in another currency would.
func rewritePriceListCurrency(currency string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.Contains(strings.ToLower(r.URL.Path), "pricelist") {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body, _ := io.ReadAll(rec.Body)
			for _, c := range []string{"USD", "EUR", "GBP", "JPY"} {
				body = bytes.ReplaceAll(body, []byte(`"Currency":"`+c+`"`), []byte(`"Currency":"`+currency+`"`))
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			w.Write(body)
		})
	}
}

func TestAPriceListInAnotherCurrencyIsRefusedAndExplained(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{service: rewritePriceListCurrency("CAD")})

	q := openQuotable(h)
	if pl, err := h.store.PriceList(context.Background(), h.desk.detail.wo.WorkOrderId); err != nil || pl.Currency != "CAD" {
		t.Fatalf("the replica holds the price list %+v (%v), want one in CAD", pl, err)
	}
	if !q.plNote.Visible() || !strings.Contains(q.plNote.Text, "price list is in CAD, but this work order is billed in USD") {
		t.Fatalf("the quote tab explains %q", q.plNote.Text)
	}
	if len(q.priceSel.Options) != 0 || !q.addLine.Disabled() {
		t.Fatalf("a CAD price list is offered on a USD quote: %d items, add enabled %v", len(q.priceSel.Options), !q.addLine.Disabled())
	}
	test.Tap(q.addLine)
	if len(q.lines) != 0 || q.amount.Disabled() {
		t.Fatal("a line was added from a price list in another currency")
	}
	// The Invoice tab refuses it too: ui/invoice.
}
