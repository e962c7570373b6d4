package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestTheInvoiceDeadlineIsInTheList: a checked-out work order, once its
// invoice was read, shows when the invoice is due in the list
// ("Invoice · in 29 days").
func TestTheInvoiceDeadlineIsInTheList(t *testing.T) {
	h := newHarness(t)
	var id int64
	for _, r := range h.rows() {
		if r.Status == api.StatusCheckedOut {
			h.open(r.Id) // reads its invoice
			if inv := h.desk.storedInvoice(r.Id); inv != nil && inv.Status.Editable() && inv.SubmissionDeadline != nil {
				id = r.Id
				break
			}
		}
	}
	if id == 0 {
		t.Fatal("no checked-out work order of the demo has an invoice to submit")
	}
	h.flush()
	if c := h.listCell(id, "Next deadline"); !strings.HasPrefix(c.text, "Invoice · ") {
		t.Errorf("the list says %q of a checked-out work order whose invoice is due", c.text)
	}
}

// TestARowActedOnUnderAFilterStays: under the New filter, the work order
// the person accepts stays in the list, marked Accepted, until they open
// another one; then the filter has it go.
func TestARowActedOnUnderAFilterStays(t *testing.T) {
	h := newHarness(t)
	h.statusFilter().SetSelectedIndex(1 + slices.Index(api.AllStatuses, api.StatusNew))
	rows := h.rows()
	if len(rows) < 2 {
		t.Fatal("the demo has fewer than two new work orders")
	}
	first, next := rows[0], rows[1]
	h.open(first.Id)
	tapButton(h.desk.detail.accept)
	h.flush()
	h.send()
	listed := func(id int64) (storage.Row, bool) {
		for _, r := range h.rows() {
			if r.Id == id {
				return r, true
			}
		}
		return storage.Row{}, false
	}
	r, ok := listed(first.Id)
	if !ok {
		t.Fatalf("%s went from the New list the moment it was accepted", first.Number)
	}
	if r.Status != api.StatusAccepted {
		t.Errorf("%s stays listed as %s, not Accepted", first.Number, r.Status)
	}
	h.open(next.Id)
	if _, ok := listed(first.Id); ok {
		t.Errorf("%s is still under New after the person moved on", first.Number)
	}
}

func tapButton(b *widget.Button) { b.OnTapped() }
