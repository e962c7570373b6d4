package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/summary"
)

// openSubmittableInvoice opens, on the Invoice tab, a checked-out work
// order whose draft invoice is complete and within the NTE.
func openSubmittableInvoice(h *harness) invoiceForm {
	h.t.Helper()
	return openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		if !wo.Status.Completed() || inv.Status != api.InvoiceDraft || len(inv.LineItems) == 0 {
			return false
		}
		level, _ := api.NteStanding(inv.TotalAmount.In(wo.Currency), wo.Nte.Amount.In(wo.Currency))
		return level != api.NteOver
	})
}

// summaryText is everything the Summary tab shows, whichever tab is
// selected: the page the tab scrolls.
func summaryText(h *harness) string {
	h.t.Helper()
	for i, tb := range h.desk.detail.tabs {
		if _, ok := tb.(*summary.Tab); ok {
			page := h.desk.detail.appTabs.Items[i].Content
			if s, ok := page.(*container.Scroll); ok {
				page = s.Content
			}
			return strings.Join(texts(page), "\n")
		}
	}
	h.t.Fatal("no Summary tab")
	return ""
}

// The work order stays Checked out at the service while the customer moves
// the invoice along; the Summary's next step and the header follow the
// invoice, and the header still fits the detail pane.
func TestTheHeaderAndSummaryFollowTheInvoice(t *testing.T) {
	h := newHarness(t)
	inv := openSubmittableInvoice(h)
	id := h.desk.detail.wo.WorkOrderId
	header := h.desk.detail.invoice
	if header.Text() != "" {
		t.Errorf("a draft invoice shows %q in the header", header.Text())
	}
	if s := summaryText(h); !strings.Contains(s, "; submit the invoice") {
		t.Errorf("before submitting, the summary says:\n%s", s)
	}

	fits := func(when string) {
		t.Helper()
		h.settle()
		if need, have := h.desk.detail.container.MinSize().Width, h.desk.detail.scroller.Size().Width; need > have {
			t.Errorf("%s: the detail pane needs %.0f px of its %.0f px", when, need, have)
		}
	}
	step := func(badge, says string) {
		t.Helper()
		h.waitFor(badge, func() bool { return header.Text() == badge })
		if got := h.desk.detail.status.Text(); got != "Checked out" && got != "Verified" {
			t.Errorf("%s: the work order's own badge reads %q", badge, got)
		}
		s := summaryText(h)
		if !strings.Contains(s, says) {
			t.Errorf("%s: the summary does not say %q:\n%s", badge, says, s)
		}
		if strings.Contains(s, "submit the invoice") {
			t.Errorf("%s: the summary still asks to submit the invoice:\n%s", badge, s)
		}
		fits(badge)
	}

	inv.submit()
	h.send()
	step("Invoice submitted", "Invoice submitted — waiting for the customer")

	if err := h.sb.SetInvoiceStatus(id, api.InvoiceDisputed, "Missing sign-off sheet"); err != nil {
		t.Fatal(err)
	}
	step("Invoice disputed", "Invoice disputed: fix and resubmit. The customer says: Missing sign-off sheet")

	// A disputed invoice may be fixed and sent again.
	inv.submit()
	h.send()
	step("Invoice submitted", "Invoice submitted — waiting for the customer")

	if err := h.sb.SetInvoiceStatus(id, api.InvoiceAuthorized, ""); err != nil {
		t.Fatal(err)
	}
	step("Invoice authorized", "Invoice authorized")
	if err := h.sb.SetInvoiceStatus(id, api.InvoicePaid, ""); err != nil {
		t.Fatal(err)
	}
	step("Invoice paid", "Invoice paid")
}
