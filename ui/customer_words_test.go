package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheCustomersWordAsItReachesTheWindow: a work order the customer puts
// on hold says so, and why, in its header, and its visit actions close; the
// Activity tab says it in plain words; an invoice the customer pays shows
// the payment as the customer's notification gave it.
func TestTheCustomersWordAsItReachesTheWindow(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(r.Id)
	if err := h.sb.Act(r.Id, api.ActionPutOnHold, sandbox.ActOptions{Comment: "Waiting for the landlord's approval."}); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the hold in the replica", func() bool {
		wo, _ := h.store.WorkOrder(ctx, r.Id)
		return wo.Status == api.StatusOnHold
	})
	// The status can reach the replica before the notification that says
	// why is recorded: the header says it once the window hears of both.
	notice := h.desk.detail.notice
	h.waitFor("the hold and why in the header", func() bool {
		return notice.Visible() && strings.Contains(notice.Text, "put this work order on hold: Waiting for the landlord's approval")
	})
	if h.desk.detail.wo.Can(api.CheckIn) == nil {
		t.Fatal("check-in is still offered on hold")
	}
	if it := h.activityAbout("Put on hold"); !strings.Contains(it.text, "Waiting for the landlord") {
		t.Fatalf("Activity says %q", it.text)
	}

	// The customer authorizes and pays a submitted invoice.
	var paid int64
	for _, row := range h.rows() {
		if row.Status != api.StatusCheckedOut {
			continue
		}
		if inv, err := h.eng.Client.GetInvoice(ctx, row.Id); err == nil && inv.Status == api.InvoiceSubmitted {
			paid = row.Id
			break
		}
	}
	if paid == 0 {
		t.Fatal("no submitted invoice in the world")
	}
	h.open(paid)
	for _, st := range []api.InvoiceStatus{api.InvoiceAuthorized, api.InvoicePaid} {
		if err := h.sb.Act(paid, api.ActionInvoiceStatusChanged, sandbox.ActOptions{Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	h.waitFor("the paid invoice in the replica", func() bool {
		n, _ := h.store.InvoiceNotice(ctx, paid)
		inv, _ := h.store.Invoice(ctx, paid)
		return n != nil && n.Status == api.InvoicePaid && inv != nil && inv.Status == api.InvoicePaid
	})
	h.flush()
	h.selectTab("Invoice")
	details := invoiceOf(h).text()
	if !strings.Contains(details, "The customer's notification: Paid ") || !strings.Contains(details, ", check CHK-") {
		t.Fatalf("the invoice says %q", details)
	}
}
