package invoice

// The invoice's status and what follows from it: whether it may change,
// what the person sees about it, and what is still missing before it can be
// submitted.

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// status is the invoice status as the service last told it; the draft's
// copy may be older.
func (t *Tab) status() api.InvoiceStatus {
	if t.stored != nil {
		return t.stored.Status
	}
	return t.inv.Status
}

// editable says whether the invoice may change now, and why not.
func (t *Tab) editable() (bool, string) {
	if err := t.wo.CanEditInvoice(&api.Invoice{Status: t.status()}); err != nil {
		return false, format.Capital(err.Error()) + "."
	}
	return true, ""
}

func (t *Tab) renderStatus() {
	st := t.status()
	if st == "" {
		st = api.InvoiceDraft
	}
	t.badge.Set(format.Status(st), palette.Invoice(st))
	inv := t.stored
	var parts []string
	if inv == nil {
		parts = append(parts, "The invoice has not been fetched from the service yet; it is loaded when the work order is opened while online. What you save replaces the invoice the service holds.")
	} else {
		if inv.AuthNumber != "" {
			parts = append(parts, "Authorization number "+inv.AuthNumber)
		}
		if inv.CheckNumber != "" {
			parts = append(parts, "Check number "+inv.CheckNumber)
		}
		if inv.PaidDate != nil {
			parts = append(parts, "Paid on "+format.Time(*inv.PaidDate))
		}
		if inv.SubmissionDeadline != nil && inv.Status.Editable() { // a deadline to submit by, until submitted
			parts = append(parts, "Submit by "+format.Deadline(inv.SubmissionDeadline))
		}
		if inv.IsPreBilled || t.wo.IsPreBilled {
			parts = append(parts, "Pre-billed: submitting this invoice is how the work order is accepted")
		}
		if inv.Status == api.InvoiceDisputed && inv.Comment != "" {
			parts = append(parts, "The customer disputes it: "+inv.Comment)
		}
		if inv.Status.AwaitsVerification() {
			parts = append(parts, "Waiting for the customer to verify the work: prepare the lines now; it can be submitted once the work is verified")
		}
	}
	if n := t.notice(); n != "" {
		parts = append(parts, n)
	}
	t.details.SetText(strings.Join(parts, "\n"))
	if len(parts) == 0 {
		t.details.Hide() // an empty label would still leave a gap
	} else {
		t.details.Show()
	}
	ok, why := t.editable()
	// A submitted, authorized or paid invoice is not a fault: only a
	// rejected or recalled work order warrants the warning colour.
	if t.wo.Status.Closed() {
		t.editNote.Importance = widget.WarningImportance
	} else {
		t.editNote.Importance = widget.MediumImportance
	}
	t.editNote.SetText(why)
	t.editNote.Refresh()
	if ok {
		t.editNote.Hide()
	} else {
		t.editNote.Show()
	}
	for _, w := range []fyne.Disableable{t.number, t.date, t.discount, t.priceSel, t.freeType, t.addFree} {
		arrange.SetEnabled(w, ok)
	}
	// An invoice that takes no changes is read, not edited: its number,
	// date, lines and totals show as text, not as faint disabled entries,
	// and the controls that could not be used are not shown at all.
	arrange.ShowIf(ok, t.number, t.date, t.adders, t.discTitle, t.discEntry, t.buttons, t.delRow)
	arrange.ShowIf(!ok, t.numberLbl, t.dateLbl)
	t.renderLastAction()
}

// renderAdders offers the price list and, when the customer allows them,
// the contractor's own lines.
func (t *Tab) renderAdders() {
	var opts []string
	problem := t.pl.CurrencyProblem(t.wo.Currency)
	if t.pl != nil && !t.pl.AllowPriceListItems.False() && problem == "" {
		for _, it := range t.pl.Items {
			s := format.PriceItem(it, t.wo.Currency)
			if it.IsRateReadOnly {
				s += " (fixed rate)"
			}
			opts = append(opts, s)
		}
	}
	t.priceSel.Options = opts
	t.priceSel.ClearSelected()
	switch {
	case t.pl == nil:
		// Short: the picker's width is its placeholder's, and it shares a
		// row with "Add item" on a narrow detail pane.
		t.priceSel.PlaceHolder = "Price list not loaded yet (loads online)"
	case t.pl.AllowPriceListItems.False() || len(t.pl.Items) == 0:
		t.priceSel.PlaceHolder = "This customer has no price list items"
	case problem != "":
		t.priceSel.PlaceHolder = "Price list not usable here"
	default:
		t.priceSel.PlaceHolder = "Price list item…"
	}
	t.priceSel.Refresh()
	if problem != "" {
		t.plNote.SetText(problem + " Add your own lines instead, or ask the customer to correct the price list.")
		t.plNote.Show()
	} else {
		t.plNote.SetText("")
		t.plNote.Hide()
	}
	ok, _ := t.editable()
	arrange.SetEnabled(t.addItem, ok && len(opts) > 0)
	if t.pl == nil || !t.pl.AllowProviderItems.False() {
		t.freeBox.Show()
	} else {
		t.freeBox.Hide()
	}
}

// recompute refreshes everything derived from the draft: subtotals, totals,
// the NTE gauge, the submit checks and the buttons.
func (t *Tab) recompute() {
	// The notes below wrap; when one changes, the tab is laid out again or
	// a longer note would run under what follows it. Only then: this runs
	// on every keystroke.
	notes := func() string {
		return fmt.Sprint(t.problems.Text, t.problems.Visible(), t.warnings.Text, t.warnings.Visible(),
			t.settled.Text, t.nteWarn.Text, t.nteWarn.Visible(), t.requestRow.Visible(), t.discRow.Visible())
	}
	before := notes()
	defer func() {
		if notes() != before {
			t.relayout()
		}
	}()
	cur := t.wo.Currency
	for i, r := range t.rows {
		l := t.inv.LineItems[i]
		l.Rate = l.Rate.In(cur)
		r.subtotal.SetText(format.Money(l.ComputedSubtotal()))
	}
	tt := t.inv.Totals(cur)
	t.inv.TotalAmount = tt.Total
	lines := "Lines " + format.Money(tt.Lines)
	if !tt.Tax.IsZero() {
		lines += " (tax " + format.Money(tt.Tax) + ")"
	}
	t.linesSum.SetText(lines)
	if tt.Discount.IsZero() {
		t.discLbl.SetText("")
	} else {
		// An en dash for the minus: U+2212 is in no font Fyne bundles
		// (glyphs_test.go), and a system may lack it.
		t.discLbl.SetText("–" + format.Money(tt.Discount))
	}
	t.total.SetText("Total " + format.Money(tt.Total) + "  " + cur)
	if ok, _ := t.editable(); !ok {
		// Read, not edited: a discount shows as text, and only if there is one.
		t.discRow.Hidden = tt.Discount.IsZero()
		if !tt.Discount.IsZero() {
			t.discLbl.SetText("Discount –" + format.Money(tt.Discount))
		}
	} else {
		t.discRow.Hidden = false
	}
	hasTax := false
	for _, l := range t.inv.LineItems {
		hasTax = hasTax || l.Type == api.LineTax
	}
	ok, _ := t.editable()
	// Assumption: no composite tax in the customer's service area, so one
	// tax line at most (the service answers 3042 otherwise).
	arrange.SetEnabled(t.addTax, ok && !hasTax)

	t.renderNte(tt.Total)

	blocking, warnings := t.checks()
	// Past submission the checks would only say "already submitted" in
	// red; the person has nothing to fix, so say where the invoice stands.
	settled := invoiceSettledText(t.status())
	if settled != "" {
		blocking, warnings = nil, nil
		t.settled.SetText(settled)
		t.settled.Show()
	} else {
		t.settled.SetText("")
		t.settled.Hide()
	}
	if !ok {
		// Nothing can be done here (the editing note says why): no to-do list.
		blocking, warnings = nil, nil
	}
	if t.dirty {
		t.unsaved.SetText("Unsaved changes — Save to send them")
	} else {
		t.unsaved.SetText("")
	}
	arrange.ShowIf(ok && t.dirty, t.unsaved) // over the buttons, only while there is something to save: see New
	if len(blocking) == 0 {
		t.submitTried = false
	}
	t.renderChecklist(blocking)
	// The NTE section already says, once, what to do about an overrun.
	shown := slices.DeleteFunc(slices.Clone(warnings), func(w string) bool { return w == t.wo.OverNteWarning(tt.Total) })
	if len(shown) > 0 {
		t.warnings.SetText("• " + strings.Join(shown, "\n• "))
		t.warnings.Show()
	} else {
		t.warnings.SetText("")
		t.warnings.Hide()
	}
	t.win.Enable(t.save, ok && t.dirty)
	// Submit stays pressable while something is missing: pressing it turns
	// the checklist red instead of leaving the person guessing at a grey
	// button.
	t.win.Enable(t.submit, ok && settled == "")
	t.win.Enable(t.del, ok && t.stored != nil && (len(t.stored.LineItems) > 0 || t.stored.InvoiceNumber != ""))
}

// renderChecklist shows what is still missing before the invoice can be
// submitted: a neutral to-do list while the person works on it, red once
// they pressed Submit and the service would refuse it.
func (t *Tab) renderChecklist(blocking []string) {
	if len(blocking) == 0 {
		t.problems.SetText("")
		t.problems.Hide()
		return
	}
	head := "Before you can submit:"
	t.problems.Importance = widget.MediumImportance
	if t.submitTried {
		head = "Not submitted yet — first:"
		t.problems.Importance = widget.DangerImportance
	}
	t.problems.SetText(head + "\n• " + strings.Join(blocking, "\n• "))
	t.problems.Show()
	t.problems.Refresh()
}

// invoiceSettledText says where an invoice stands once it has left the
// contractor's hands (submitted or further); "" while it may be edited and
// submitted (draft, disputed).
func invoiceSettledText(s api.InvoiceStatus) string {
	if s.Editable() {
		return ""
	}
	if waits := format.InvoiceWaits(s); waits != "" {
		return format.Status(s) + " — " + waits + "."
	}
	return format.Status(s) + " — the service takes no changes or new submission now."
}

// checks runs the service's submit checks (api) on the draft with the status the service
// last reported (a notification may have moved it while the person typed).
func (t *Tab) checks() (blocking, warnings []string) {
	inv := t.inv
	inv.Status = t.status()
	return t.wo.SubmitChecks(&inv, t.pl)
}
