package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestQuotesRefusedCloseTheFormAtThatCustomer: once the service refused a
// quote because the customer allows none (3004), the quote form at that
// customer explains and stays closed, on another of its work orders too,
// with Try again; Try again opens it, and the service judges the next one.
func TestQuotesRefusedCloseTheFormAtThatCustomer(t *testing.T) {
	h := newHarness(t)
	sakura := func(r storage.Row) bool {
		return r.Customer == "Sakura Mart Japan" && r.Status == api.StatusAccepted && r.QuoteStatus == "" && !r.Nte.IsZero()
	}
	rows := h.rowsWhere(2, sakura)
	h.open(rows[0].Id)
	h.selectTab("Quote")
	q := quoteOf(h)
	if !q.open() || q.button("Try again").Visible() {
		t.Fatal("the quote form is closed before any refusal")
	}
	minor := int32(api.MinorUnits(rows[0].Nte.Currency))
	q.amount().SetText(rows[0].Nte.Amount.Mul(decimal.NewFromInt(2)).StringFixed(minor))
	q.reason().SetText("Compressor must be replaced")
	test.Tap(q.submit())
	h.send()
	h.flush()

	h.open(rows[1].Id)
	h.selectTab("Quote")
	if q.open() || !q.button("Try again").Visible() {
		t.Fatalf("after the customer's 3004 the form on its other work order is open: %q", q.says())
	}
	if says := q.says(); !strings.Contains(says, "Sakura Mart Japan does not accept quotes") || !strings.Contains(says, "try again") {
		t.Fatalf("the quote tab says %q", says)
	}
	test.Tap(q.button("Try again"))
	h.flush()
	if !q.open() || q.button("Try again").Visible() {
		t.Fatalf("Try again left the form closed: %q", q.says())
	}
}
