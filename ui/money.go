package ui

import (
	"github.com/workorderdesk/workdesk/api"
)

// amountText is an amount as an entry shows it: its currency's minor
// units, no symbol.
func amountText(m api.Money) string {
	return m.Amount.StringFixed(int32(api.MinorUnits(m.Currency)))
}
