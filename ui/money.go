package ui

import (
	"fmt"

	"github.com/workorderdesk/workdesk/api"
)

// priceListProblem says, in plain words, why a customer's price list cannot
// be used on a work order billed in currency, or "" when it can. Money is
// never mixed, compared or converted across currencies, so a list in another
// currency is refused rather than relabelled.
//
// Assumption: a price list that names no currency (Currency is not in the
// spec and may be absent) is in the work order's currency, since a customer
// prices its work orders in one currency.
func priceListProblem(pl *api.PriceList, currency string) string {
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

// amountText is an amount as an entry shows it: its currency's minor
// units, no symbol.
func amountText(m api.Money) string {
	return m.Amount.StringFixed(int32(api.MinorUnits(m.Currency)))
}
