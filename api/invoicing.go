package api

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// InvoiceTotals are an invoice's sums in the work order's currency.
type InvoiceTotals struct {
	Lines, Tax, Discount, Total Money
	// Foreign lists the lines (1-based) and the discount (0) that carry
	// another currency: they are left out of the sums, never relabelled.
	Foreign []int
}

// Totals sums inv in currency the way the service does: each line's
// Quantity × Rate rounded to minor units, minus the discount.
func (inv *Invoice) Totals(currency string) InvoiceTotals {
	z := Money{Currency: currency}
	tt := InvoiceTotals{Lines: z, Tax: z, Discount: inv.DiscountAmount.In(currency), Total: z}
	if tt.Discount.Currency != currency {
		tt.Foreign = append(tt.Foreign, 0)
		tt.Discount = z
	}
	for i, l := range inv.LineItems {
		l.Rate = l.Rate.In(currency)
		sub := l.ComputedSubtotal()
		sum, err := tt.Lines.Add(sub)
		if err != nil {
			tt.Foreign = append(tt.Foreign, i+1)
			continue
		}
		tt.Lines = sum
		if l.Type == LineTax {
			tt.Tax, _ = tt.Tax.Add(sub)
		}
	}
	tt.Total = Money{Amount: tt.Lines.Amount.Sub(tt.Discount.Amount), Currency: currency}.Round()
	return tt
}

// NteLevel is where an invoice total stands against the NTE.
type NteLevel int

const (
	NteNoLimit NteLevel = iota
	NteWithin
	NteNear // at least NteNearShare of the NTE: time to ask for more
	NteOver
)

// NteNearShare is when a total counts as near the NTE: a last line or a
// tax adjustment commonly adds the final tenth.
var NteNearShare = decimal.NewFromFloat(0.9)

// NteStanding compares total with nte (same currency); share is total/nte,
// for drawing only.
func NteStanding(total, nte Money) (NteLevel, float64) {
	if nte.IsZero() {
		return NteNoLimit, 0
	}
	share := total.Amount.Div(nte.Amount)
	f, _ := share.Float64() // only drawn, never computed with
	switch {
	case total.Amount.GreaterThan(nte.Amount):
		return NteOver, f
	case share.GreaterThanOrEqual(NteNearShare):
		return NteNear, f
	}
	return NteWithin, f
}

// CurrencyProblem says why the price list cannot be used on a work order
// billed in currency, or "" when it can. Money is never mixed or converted
// across currencies. Assumption: a list that names no currency (Currency is
// not in the spec) is in the work order's currency.
func (pl *PriceList) CurrencyProblem(currency string) string {
	if pl == nil {
		return ""
	}
	cur := pl.Currency
	for _, it := range pl.Items {
		if it.Rate.Currency != "" && it.Rate.Currency != currency {
			cur = it.Rate.Currency
			break
		}
	}
	if cur == "" || cur == currency {
		return ""
	}
	return fmt.Sprintf("The customer's price list is in %s, but this work order is billed in %s, so its rates cannot be used here: amounts in different currencies are never mixed or converted.", cur, currency)
}

// CheckModes says whether lines use only the item modes the customer
// allows (service-facts §4.6: its own price list items, the contractor's
// free lines, or both); tax lines are always allowed. A nil list is not
// known yet and allows everything, and so does a mode the list does not
// state: only a mode known to be off refuses (the service judges the rest).
func (pl *PriceList) CheckModes(lines []LineItem) error {
	if pl == nil {
		return nil
	}
	for i, l := range lines {
		if l.PriceListItemId != 0 && pl.AllowPriceListItems.False() {
			return refuse("line %d: this customer does not allow price list items", i+1)
		}
		if l.PriceListItemId == 0 && l.Type != LineTax && pl.AllowProviderItems.False() {
			return refuse("line %d: this customer accepts only items from its price list", i+1)
		}
	}
	return nil
}

// CanEditInvoice says whether inv (nil: not read yet) may change now: the
// work order allows saving its invoice and the invoice's status allows it.
func (w *WorkOrder) CanEditInvoice(inv *Invoice) error {
	if err := w.Can(SaveInvoice); err != nil {
		return err
	}
	if inv != nil && !inv.Status.Editable() {
		return refuse("the invoice of %s is %s: the service does not allow changes unless the customer disputes it",
			w.Name(), strings.ToLower(string(inv.Status)))
	}
	return nil
}

// CheckInvoice is what an invoice must satisfy to be saved: the work order
// and its stored invoice (stored, nil when not read) allow a change, it is
// in the work order's currency, its lines are well formed and use the modes
// the price list (nil when not read) allows, its comment fits.
func (w *WorkOrder) CheckInvoice(inv Invoice, stored *Invoice, pl *PriceList) error {
	if err := w.CanEditInvoice(stored); err != nil {
		return err
	}
	if inv.Currency != "" && inv.Currency != w.Currency {
		return refuse("the invoice is in %s but %s is billed in %s", inv.Currency, w.Name(), w.Currency)
	}
	if err := checkLines(inv.LineItems, w.Currency, true); err != nil {
		return err
	}
	if err := pl.CheckModes(inv.LineItems); err != nil {
		return err
	}
	return CheckText("comment", inv.Comment, false)
}

// SubmitChecks lists what is still missing before the service would take
// inv (blocking: service-facts §4.6 rules 1-9, each worded as what the
// person has to do, without the codes 3050-3052 it would answer), and what
// it may accept but the customer may not (warnings). Whether the customer
// blocks invoices above the NTE is not published to contractors, so over
// the NTE is a warning. pl is nil when the price list is not known.
func (w *WorkOrder) SubmitChecks(inv *Invoice, pl *PriceList) (blocking, warnings []string) {
	add := func(s string, args ...any) { blocking = append(blocking, fmt.Sprintf(s, args...)) }
	if err := w.Can(SubmitInvoice); err != nil {
		blocking = append(blocking, err.Error())
	}
	if !inv.Status.Editable() {
		add("nothing: the invoice is already %s, and can be submitted again only if the customer disputes it", strings.ToLower(string(inv.Status)))
	}
	if inv.Status.AwaitsVerification() {
		add("wait for the customer to verify the work: the invoice can be submitted once it has (you can prepare its lines meanwhile)")
	}
	// The number, the date and a line's category are required only where
	// the service's answer carries them: their names are guessed, and a
	// name it does not carry would lock the submission for good (the
	// service judges instead, 3052).
	if strings.TrimSpace(inv.InvoiceNumber) == "" && inv.number != notCarried {
		add("enter the invoice number")
	}
	if (inv.InvoiceDate == nil || inv.InvoiceDate.IsZero()) && inv.date != notCarried {
		add("pick the invoice date")
	}
	if len(inv.LineItems) == 0 {
		add("add at least one line")
	}
	currency := w.Currency
	plProblem := pl.CurrencyProblem(currency)
	for i, l := range inv.LineItems {
		n := i + 1
		if strings.TrimSpace(l.Description) == "" {
			add("line %d: add a description", n)
		}
		if l.Quantity.IsZero() {
			add("line %d: enter a quantity (it is 0)", n)
		}
		if l.Type == "" && l.TypeRequired() {
			add("line %d: choose a category", n)
		}
		if l.PriceListItemId != 0 && pl != nil && plProblem == "" {
			var item *PriceListItem
			for k := range pl.Items {
				if pl.Items[k].Id == l.PriceListItemId {
					item = &pl.Items[k]
				}
			}
			switch {
			case item == nil:
				add("line %d: remove it or pick another item: the customer no longer offers this price list item", n)
			case item.IsRateReadOnly && !l.Rate.Amount.Equal(item.Rate.Amount):
				add("line %d: keep the price list rate of %s", n, item.Rate.In(currency).Format())
			}
		}
	}
	tt := inv.Totals(currency)
	for _, n := range tt.Foreign {
		if n == 0 {
			add("the discount is in %s, but the work order is billed in %s: enter it again", inv.DiscountAmount.Currency, currency)
		} else {
			add("line %d is in %s, but the work order is billed in %s: remove it", n, inv.LineItems[n-1].Rate.Currency, currency)
		}
	}
	if plProblem != "" {
		for _, l := range inv.LineItems {
			if l.PriceListItemId != 0 {
				warnings = append(warnings, plProblem+" The price list lines were not checked against it.")
				break
			}
		}
	}
	if tt.Discount.Amount.IsNegative() || !tt.Discount.FitsMinorUnits() {
		add("correct the discount: it is not a valid %s amount", currency)
	}
	if tt.Total.Amount.IsNegative() {
		add("lower the discount (%s): it is larger than the lines (%s)", tt.Discount.Format(), tt.Lines.Format())
	}
	if s := w.OverNteWarning(tt.Total); s != "" {
		warnings = append(warnings, s)
	}
	return blocking, warnings
}

// OverNteWarning is the submit-time warning for a total above the NTE; ""
// when it is within (or the NTE is in another currency, never compared).
func (w *WorkOrder) OverNteWarning(total Money) string {
	nte := w.Nte.Amount.In(w.Currency)
	if nte.Currency != total.Currency {
		return ""
	}
	if level, _ := NteStanding(total, nte); level != NteOver {
		return ""
	}
	return fmt.Sprintf("The total (%s) is above the NTE (%s): the service may refuse the invoice, or the customer may dispute it later.",
		total.Format(), nte.Format())
}

// CheckSubmit is SubmitChecks as one refusal: storage queues a submission
// only when nothing blocks it.
func (w *WorkOrder) CheckSubmit(inv *Invoice, pl *PriceList) error {
	blocking, _ := w.SubmitChecks(inv, pl)
	if len(blocking) == 0 {
		return nil
	}
	return refuse("the invoice of %s cannot be submitted yet: %s", w.Name(), strings.Join(blocking, "; "))
}
