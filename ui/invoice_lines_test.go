package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

// quantityCases are parseQuantity's table, and the seeds of its fuzz target.
var quantityCases = []struct {
	in   string
	want string // the quantity read; "" when refused
	says string // a refusal's words
}{
	{"1", "1", ""},
	{" 1.5 ", "1.5", ""},
	{"0.25", "0.25", ""},
	{"1e3", "1000", ""},
	{"9999999999999999999999999999", "9999999999999999999999999999", ""},
	{"", "", "must be a number"},
	{"abc", "", "must be a number"},
	{"1,5", "", "must be a number"},
	{"0", "", "greater than zero"},
	{"-2", "", "greater than zero"},
	{"1e10000000", "", "too large: at most 28 digits"},
	{"1e-10000000", "", "too large: at most 28 digits"},
	{"99999999999999999999999999999", "", "too large"},
	{strings.Repeat("9", 200), "", "too large"},
}

func TestParseQuantity(t *testing.T) {
	for _, c := range quantityCases {
		q, err := parseQuantity(c.in)
		switch {
		case c.want != "" && (err != nil || !q.Equal(decimal.RequireFromString(c.want))):
			t.Errorf("parseQuantity(%q) = %s, %v; want %s", c.in, q, err, c.want)
		case c.want == "" && (err == nil || !strings.Contains(err.Error(), c.says)):
			t.Errorf("parseQuantity(%q) = %s, %v; want a refusal saying %q", c.in, q, err, c.says)
		}
	}
}

// FuzzParseQuantity: whatever is typed, a quantity accepted is above zero
// and has no more digits than any amount (api.MaxAmountDigits), so
// computing and showing a line with it stays instant.
func FuzzParseQuantity(f *testing.F) {
	for _, c := range quantityCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuantity(s)
		if err != nil {
			return
		}
		if !q.IsPositive() {
			t.Fatalf("%q was read as %s", s, q)
		}
		if err := api.CheckDigits(q); err != nil {
			t.Fatalf("%q was read as %s: %v", s, q, err)
		}
	})
}

// TestAQuantityTooLargeToWriteOutIsRefusedAsItIsTyped types 1e10000000,
// eleven characters worth ten million digits, as an invoice line's and a
// quote line's quantity, key by key as a person does: each is refused on
// the spot with the limit in words, and the line keeps its quantity (taken,
// its subtotal was written out in full on the main goroutine: seconds per
// keystroke, the window frozen).
func TestAQuantityTooLargeToWriteOutIsRefusedAsItIsTyped(t *testing.T) {
	const huge = "1e10000000"
	h := newHarness(t)

	inv := openInvoice(h, func(wo *api.WorkOrder, i *api.Invoice, _ *api.PriceList) bool {
		return i.Status.Editable() && len(i.LineItems) > 0 && i.LineItems[0].Type != api.LineTax
	})
	qty, subtotal := inv.inv.LineItems[0].Quantity, inv.rows[0].subtotal.Text
	inv.rows[0].qty.SetText("")
	test.Type(inv.rows[0].qty, huge)
	if !strings.Contains(inv.inputErr.Text, "Line 1: the quantity is too large: at most 28 digits") {
		t.Errorf("typing %s as an invoice quantity says %q", huge, inv.inputErr.Text)
	}
	// It keeps the last quantity that could be read ("1e10" on the way).
	if got := inv.inv.LineItems[0].Quantity; api.CheckDigits(got) != nil {
		t.Errorf("the invoice line took a quantity of %d digits", len(got.String()))
	}
	if err := inv.rows[0].qty.Validate(); err == nil {
		t.Error("the quantity entry does not mark the number as wrong")
	}
	inv.rows[0].qty.SetText(qty.String())
	if inv.inputErr.Text != "" || inv.rows[0].subtotal.Text != subtotal {
		t.Errorf("after fixing the quantity: %q, subtotal %q (was %q)", inv.inputErr.Text, inv.rows[0].subtotal.Text, subtotal)
	}

	q := openQuotable(h)
	q.priceSel.SetSelectedIndex(0)
	q.qty.SetText("2")
	test.Tap(q.addLine)
	q.lineRows[0].qty.SetText("")
	test.Type(q.lineRows[0].qty, huge)
	if !q.lineErr.Visible() || !strings.Contains(q.lineErr.Text, "the quantity is too large: at most 28 digits") {
		t.Errorf("typing %s as a quote quantity says %q", huge, q.lineErr.Text)
	}
	if got := q.lines[0].Quantity; api.CheckDigits(got) != nil || len(q.amount.Text) > 60 {
		t.Errorf("the quote line took a quantity of %d digits, its amount %d", len(got.String()), len(q.amount.Text))
	}

	// Adding a line with it is refused too, and adds nothing.
	q.qty.SetText(huge)
	test.Tap(q.addLine)
	if len(q.lines) != 1 || !strings.Contains(h.overlayText(), "too large") {
		t.Errorf("adding a line of %s: %d lines, the window says %q", huge, len(q.lines), h.overlayText())
	}
}

// A rate with too many digits is refused in words about its size, not as
// "must be a number".
func TestParseRateNamesTheLimit(t *testing.T) {
	_, err := parseRate("1e40", "USD")
	if err == nil || !strings.Contains(err.Error(), "too large: at most 28 digits") {
		t.Fatalf("parseRate(1e40) = %v", err)
	}
}
