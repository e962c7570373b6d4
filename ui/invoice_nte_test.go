package ui

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

func TestAnInvoiceOverTheNteRequestsAnIncrease(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		ok, _ := quoteAllowed(wo)
		return ok && !wo.Nte.NoLimit() && inv.Status.Editable()
	})
	wo := h.desk.detail.wo
	clearLines(t, inv)
	row := addPriceItem(t, inv, 0)
	rate := inv.inv.LineItems[0].Rate.Amount
	qty := wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(2)).Div(rate).Ceil()
	row.qty.SetText(qty.String())
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
	if got := h.desk.detail.appTabs.Selected().Text; got != "Quote" {
		t.Fatalf("requesting an increase shows the %s tab", got)
	}
	q := tabOf[*quoteTab](h)
	if want := total.Amount.StringFixed(int32(api.MinorUnits(wo.Currency))); q.amount.Text != want {
		t.Errorf("the quote amount reads %q, want the invoice total %s", q.amount.Text, want)
	}
	if q.reason.Text != "Invoice total exceeds the NTE" {
		t.Errorf("the quote reason reads %q", q.reason.Text)
	}
	if len(q.lines) != len(lines) {
		t.Fatalf("the quote has %d lines, the invoice %d", len(q.lines), len(lines))
	}
	shown := strings.Join(texts(q.linesBox), "\n")
	for _, l := range lines {
		if !strings.Contains(shown, l.Description) || !strings.Contains(shown, format.Money(l.ComputedSubtotal())) {
			t.Errorf("the quote form does not show the line %s at %s:\n%s", l.Description, format.Money(l.ComputedSubtotal()), shown)
		}
	}
	if !q.formBox.Visible() {
		t.Error("the quote form is hidden")
	}
}

// shownTexts is every visible label and button text of the invoice tab.
func shownTexts(inv *invoiceTab) string { return strings.Join(texts(inv.body), "\n") }

// Over the NTE while no quote can be submitted, the tab says once what the
// person can do, and never tells them to request an increase they cannot.
func TestOverTheNteWithoutAPossibleQuoteSaysOnceWhy(t *testing.T) {
	for _, c := range []struct {
		quote api.QuoteStatus
		says  string
	}{
		{api.QuoteSubmitted, "waiting for the customer's decision"},
		{api.QuoteApproved, "only after the customer rejects that one"},
	} {
		t.Run(string(c.quote), func(t *testing.T) {
			h := newHarness(t)
			inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
				return wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == c.quote && !wo.Nte.NoLimit() && inv.Status.Editable()
			})
			wo := h.desk.detail.wo
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
			h.settle()
			inv.scroll.ScrollToBottom()
			h.capture("invoice-over-nte-" + string(c.quote))
		})
	}
}

// gaugeSeen is what the NTE gauge shows: its words and the colour of its
// filled part.
func gaugeSeen(t *testing.T, inv *invoiceTab) (string, color.Color) {
	t.Helper()
	if !inv.gauge.BarShown() || !inv.gauge.Bar.Visible() {
		t.Fatal("the NTE gauge is hidden")
	}
	var text string
	var rects []*canvas.Rectangle
	for _, o := range test.WidgetRenderer(inv.gauge.Bar).Objects() {
		switch c := o.(type) {
		case *canvas.Text:
			text = c.Text
		case *canvas.Rectangle:
			if c.Visible() && c.Size().Width > 0 {
				rects = append(rects, c)
			}
		}
	}
	// The filled part is drawn over the track, so it is the last rectangle.
	if len(rects) == 0 {
		t.Fatal("the NTE gauge draws no bar")
	}
	return text, rects[len(rects)-1].FillColor
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func TestTheNteGaugeShowsAnOverrunInRed(t *testing.T) {
	h := newHarness(t)
	var item int
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, pl *api.PriceList) bool {
		if wo.Currency != "USD" || !inv.Status.Editable() || !pl.AllowPriceListItems.True() {
			return false
		}
		for i, it := range pl.Items {
			if !it.IsRateReadOnly {
				item = i
				return true
			}
		}
		return false
	})
	wo := h.desk.detail.wo
	// The QA case: the customer's NTE is $1,050.00.
	if err := h.sb.SetNte(wo.WorkOrderId, decimal.RequireFromString("1050")); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the new NTE", func() bool { return inv.wo.Nte.Amount.Amount.Equal(decimal.NewFromInt(1050)) })
	clearLines(t, inv)
	row := addPriceItem(t, inv, item)
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
