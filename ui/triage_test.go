package ui

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestOverdueRowsLookLate: a row past its deadline says so in the theme's
// error colour, on a row tinted with it; a row due in a few hours is bold
// in the text colour, on the amber of rows due soon.
func TestOverdueRowsLookLate(t *testing.T) {
	h := newHarness(t)
	v := h.desk.list
	var late, soon int = -1, -1
	for i, r := range h.rows() {
		switch {
		case late < 0 && r.Why == api.AttentionOverdue && r.Id != v.openID:
			late = i
		case soon < 0 && r.Why == api.AttentionDueSoon && r.Id != v.openID:
			soon = i
		}
	}
	if late < 0 || soon < 0 {
		t.Fatalf("the demo has no overdue (%d) or no due-soon (%d) row", late, soon)
	}
	c := cellAt(v, late, colDeadline)
	if c.text.Importance != widget.DangerImportance || !strings.Contains(c.text.Text, "late") {
		t.Errorf("an overdue row reads %q in importance %v, not late in the error colour", c.text.Text, c.text.Importance)
	}
	if c.bg.FillColor != overdueRowFill() {
		t.Errorf("an overdue row is filled %v, not the error tint", c.bg.FillColor)
	}
	c = cellAt(v, soon, colDeadline)
	if c.text.Importance == widget.DangerImportance || !c.text.TextStyle.Bold || !strings.Contains(c.text.Text, " · in ") {
		t.Errorf("a row due soon reads %q (importance %v, bold %v)", c.text.Text, c.text.Importance, c.text.TextStyle.Bold)
	}
	if c.bg.FillColor != color.Color(attentionRowFill) {
		t.Errorf("a row due soon is filled %v", c.bg.FillColor)
	}
}

// TestNeedsAttentionSaysWhy: under "Needs attention" every row says why in
// its deadline cell (a deadline late or close, or the reason in words),
// and a finished work order with nothing due is not among them.
func TestNeedsAttentionSaysWhy(t *testing.T) {
	h := newHarness(t)
	v := h.desk.list
	v.attention.SetChecked(true)
	rows := h.rows()
	if len(rows) == 0 {
		t.Fatal("nothing needs attention in the demo")
	}
	words := map[string]bool{}
	for i, r := range rows {
		if !r.Attention {
			t.Errorf("%s (%s) is listed but needs no attention", r.Number, r.Status)
		}
		if r.Status == api.StatusVerified && r.NextDeadline.IsZero() && r.Why == api.AttentionQuoteRequested {
			t.Errorf("%s is verified, with nothing due, listed for its old quote request", r.Number)
		}
		c := cellAt(v, i, colDeadline)
		switch {
		case r.Why.Deadline():
			if !strings.Contains(c.text.Text, " · ") {
				t.Errorf("%s: %q does not say what is due", r.Number, c.text.Text)
			}
		case c.text.Text != r.Why.Word():
			t.Errorf("%s needs attention (%s) but reads %q", r.Number, r.Why.Word(), c.text.Text)
		default:
			words[c.text.Text] = true
		}
	}
	t.Logf("reasons in words: %v", words)
}

// TestTheInvoiceDeadlineIsInTheList: a checked-out work order, once its
// invoice was read, shows when the invoice is due in the list
// ("Invoice · in 29 days").
func TestTheInvoiceDeadlineIsInTheList(t *testing.T) {
	h := newHarness(t)
	v := h.desk.list
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
	i := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == id })
	c := cellAt(v, i, colDeadline)
	if !strings.HasPrefix(c.text.Text, "Invoice · ") {
		t.Errorf("the list says %q of a checked-out work order whose invoice is due", c.text.Text)
	}
}

// TestARowActedOnUnderAFilterStays: under the New filter, the work order
// the person accepts stays in the list, marked Accepted, until they open
// another one; then the filter has it go.
func TestARowActedOnUnderAFilterStays(t *testing.T) {
	h := newHarness(t)
	v := h.desk.list
	v.statusSel.SetSelectedIndex(1 + slices.Index(api.AllStatuses, api.StatusNew))
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
