package format

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

// What a person types as a number, read back: plain words when it cannot
// be, and never more digits than any amount (api.MaxAmountDigits).

// ParseQuantity accepts a decimal above zero (hours may be fractional),
// bounded as every amount is (api.ParseAmount): "1e10000000" is refused at
// once, not written out to ten million digits on every keystroke.
func ParseQuantity(s string) (decimal.Decimal, error) {
	q, err := api.ParseAmount(strings.TrimSpace(s))
	if errors.Is(err, api.ErrAmountTooLarge) {
		return decimal.Zero, fmt.Errorf("the quantity is too large: at most %d digits", api.MaxAmountDigits)
	}
	if err != nil {
		return decimal.Zero, errors.New("the quantity must be a number, e.g. 1.5")
	}
	if !q.IsPositive() {
		return decimal.Zero, errors.New("the quantity must be greater than zero")
	}
	return q, nil
}

// ParseRate accepts a non-negative amount with at most the currency's decimals.
func ParseRate(s, currency string) (api.Money, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	if s == "" {
		return api.Money{Currency: currency}, nil
	}
	m, err := api.NewMoney(s, currency)
	if errors.Is(err, api.ErrAmountTooLarge) {
		return api.Money{}, fmt.Errorf("the amount is too large: at most %d digits", api.MaxAmountDigits)
	}
	if err != nil {
		return api.Money{}, errors.New("the amount must be a number, e.g. " + decimal.NewFromInt(85).StringFixed(int32(api.MinorUnits(currency))))
	}
	if m.Amount.IsNegative() {
		return api.Money{}, errors.New("the amount cannot be negative")
	}
	if !m.FitsMinorUnits() {
		if api.MinorUnits(currency) == 0 {
			return api.Money{}, fmt.Errorf("%s amounts have no decimals", currency)
		}
		return api.Money{}, fmt.Errorf("%s amounts have at most %d decimals", currency, api.MinorUnits(currency))
	}
	return m, nil
}
