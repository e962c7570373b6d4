package api

import "strings"

// CheckQuote is what a quote must satisfy before it is sent (spec §3,
// service-facts §6): the work order allows a quote now, the amount is in the
// work order's currency (an amount without one is taken as in it), positive,
// in whole minor units and above the current NTE unless there is no limit;
// a reason is given; lines are well formed. fromLines words the NTE
// refusal for an amount that is the total of lines.
func (w *WorkOrder) CheckQuote(amount Money, reason string, lines []LineItem, fromLines bool) error {
	if err := w.Can(SubmitQuote); err != nil {
		return err
	}
	if amount.Currency == "" {
		amount.Currency = w.Currency
	}
	if amount.Currency != w.Currency {
		return refuse("the quote is in %s but %s is billed in %s", amount.Currency, w.Name(), w.Currency)
	}
	if !amount.Amount.IsPositive() {
		return refuse("the quote amount must be greater than zero")
	}
	if !amount.FitsMinorUnits() {
		if MinorUnits(w.Currency) == 0 {
			return refuse("%s amounts have no decimals", w.Currency)
		}
		return refuse("%s amounts have at most %d decimals", w.Currency, MinorUnits(w.Currency))
	}
	if err := amount.Check(); err != nil {
		return refuse("the quote amount: %s", err)
	}
	if !w.Nte.NoLimit() && amount.Amount.LessThanOrEqual(w.Nte.Amount.Amount) {
		nte := w.Nte.Amount.In(w.Currency).Format()
		if fromLines {
			return refuse("the line items total %s, which must exceed the current NTE of %s: add lines or raise their quantities", amount.Format(), nte)
		}
		return refuse("the quote must exceed the current NTE of %s", nte)
	}
	if strings.TrimSpace(reason) == "" {
		return refuse("a reason is required: tell the customer why the work costs more")
	}
	if err := CheckText("reason", reason, true); err != nil {
		return err
	}
	return checkLines(lines, w.Currency, false)
}

// checkLines is what every quote or invoice line must satisfy before it is
// saved: a description (or a price list item that brings one), a quantity
// (above zero on a quote; on an invoice any but zero, service-facts §4.6,
// so that a credit can be a negative quantity), a rate not below zero
// (except tax), in the work order's currency.
func checkLines(lines []LineItem, currency string, credits bool) error {
	for i, l := range lines {
		n := i + 1
		if strings.TrimSpace(l.Description) == "" && l.PriceListItemId == 0 {
			return refuse("line %d needs a description", n)
		}
		if credits && l.Quantity.IsZero() {
			return refuse("line %d: the quantity cannot be zero", n)
		}
		if !credits && !l.Quantity.IsPositive() {
			return refuse("line %d: the quantity must be greater than zero", n)
		}
		if l.Rate.Amount.IsNegative() && l.Type != LineTax {
			return refuse("line %d: the rate cannot be negative", n)
		}
		if l.Rate.Currency != "" && l.Rate.Currency != currency {
			return refuse("line %d is in %s but the work order is billed in %s", n, l.Rate.Currency, currency)
		}
		if err := (Money{Amount: l.Rate.Amount, Currency: currency}).Check(); err != nil {
			return refuse("line %d: the rate: %s", n, err)
		}
		if err := CheckDigits(l.Quantity); err != nil {
			return refuse("line %d: the quantity: %s", n, err)
		}
	}
	return nil
}
