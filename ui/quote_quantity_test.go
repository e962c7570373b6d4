package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
)

// TestAQuoteQuantityTooLargeToWriteOutIsRefusedAsItIsTyped types
// 1e10000000, eleven characters worth ten million digits, as a quote
// line's quantity, key by key as a person does: it is refused on the spot
// with the limit in words, and the line keeps its quantity (taken, its
// amount was written out in full on the main goroutine: seconds per
// keystroke, the window frozen). The invoice's lines: ui/invoice.
func TestAQuoteQuantityTooLargeToWriteOutIsRefusedAsItIsTyped(t *testing.T) {
	const huge = "1e10000000"
	h := newHarness(t)

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
