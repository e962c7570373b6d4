package format

import (
	"github.com/workorderdesk/workdesk/api"
)

// Money shows an amount in its own currency, with its minor units:
// "$1,240.00", "¥12,000".
func Money(m api.Money) string { return m.Format() }

// Amount is an amount as an entry shows it: its currency's minor units,
// no symbol.
func Amount(m api.Money) string {
	return m.Amount.StringFixed(int32(api.MinorUnits(m.Currency)))
}

// Nte shows an NTE amount in its own currency; 0 means "no limit".
func Nte(m api.Money) string {
	if m.IsZero() {
		return "no limit"
	}
	return m.Format()
}

// PriceItem names a price list item with its rate in currency, as a
// picker lists it: "Service call — $95.00 / visit". Call it only for a
// price list whose currency is the work order's (api's CurrencyProblem).
func PriceItem(it api.PriceListItem, currency string) string {
	s := it.Description + " — " + Money(it.Rate.In(currency))
	if it.Unit != "" {
		s += " / " + it.Unit
	}
	return s
}
