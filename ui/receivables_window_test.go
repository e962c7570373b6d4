package ui

import (
	"context"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// View › Receivables opens the view in a window of its own over the
// replica; when the customer pays an invoice, the notification's re-read
// reaches the open view: the row turns Paid, with its check number.
func TestReceivablesWindowFollowsThePayment(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if _, err := h.eng.Syncer.FetchInvoices(ctx); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.menuItem("Receivables").Action()
	h.flush()
	w, v := h.desk.Receivables()
	if w == nil || v == nil {
		t.Fatal("no receivables window")
	}
	t.Cleanup(w.Close)
	var authorized []any
	_, rows := v.Table()
	for _, r := range rows {
		if r[2] == "Authorized" {
			authorized = r
		}
	}
	if len(rows) == 0 || authorized == nil {
		t.Fatalf("the view shows %d invoices, none authorized", len(rows))
	}
	var id int64
	for _, r := range h.rows() {
		if r.Number == authorized[0] {
			id = r.Id
		}
	}
	if err := h.sb.SetInvoiceStatus(id, api.InvoicePaid, ""); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the payment in the receivables", func() bool {
		_, rows := v.Table()
		for _, r := range rows {
			if r[0] == authorized[0] {
				return r[2] == "Paid" && r[9] != "" && r[10] != nil
			}
		}
		return false
	})
	h.menuItem("Receivables").Action() // a second time brings it forward
	if w2, _ := h.desk.Receivables(); w2 != w {
		t.Error("View › Receivables opened a second window")
	}
}
