package api

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Money is an amount in one ISO 4217 currency. On the wire the service sends
// amounts as bare JSON numbers and the currency once per work order or invoice,
// so Money marshals as a number and the enclosing model stamps the currency in
// after decoding (see WorkOrder.UnmarshalJSON and Invoice.UnmarshalJSON).
type Money struct {
	Amount   decimal.Decimal
	Currency string
}

// NewMoney parses what a person typed, such as "1250.50", in the given
// currency, refusing in plain words anything that is not a number or has
// more digits than an amount can (ParseAmount). Decimals beyond the
// currency's minor units are left to the caller's Check or FitsMinorUnits,
// which word that refusal for the field it is about.
func NewMoney(amount, currencyCode string) (Money, error) {
	d, err := ParseAmount(strings.TrimSpace(amount))
	if err != nil {
		return Money{}, err
	}
	return Money{Amount: d, Currency: currencyCode}, nil
}

// MustMoney is NewMoney for literals known to be valid (tests, demo data).
func MustMoney(amount, currencyCode string) Money {
	m, err := NewMoney(amount, currencyCode)
	if err != nil {
		panic(err)
	}
	return m
}

func (m Money) IsZero() bool { return m.Amount.IsZero() }

// In labels an amount the service sent without a currency (a bare number)
// with currencyCode. An amount that already carries another currency is
// returned as it is: money is never converted, so adding or comparing it
// with currencyCode then fails instead of the number silently changing
// currency.
func (m Money) In(currencyCode string) Money {
	if m.Currency == "" {
		m.Currency = currencyCode
	}
	return m
}

// Add sums two amounts of the same currency; money is never added across currencies.
func (m Money) Add(o Money) (Money, error) {
	if err := m.sameCurrency(o); err != nil {
		return Money{}, err
	}
	return Money{Amount: m.Amount.Add(o.Amount), Currency: m.currencyOr(o)}, nil
}

// Cmp compares two amounts of the same currency (-1, 0, +1).
func (m Money) Cmp(o Money) (int, error) {
	if err := m.sameCurrency(o); err != nil {
		return 0, err
	}
	return m.Amount.Cmp(o.Amount), nil
}

func (m Money) currencyOr(o Money) string {
	if m.Currency != "" {
		return m.Currency
	}
	return o.Currency
}

func (m Money) sameCurrency(o Money) error {
	if m.Currency != "" && o.Currency != "" && m.Currency != o.Currency {
		return fmt.Errorf("cannot combine %s and %s amounts", m.Currency, o.Currency)
	}
	return nil
}

// MinorUnits is the number of decimals the currency uses (USD 2, JPY 0, BHD 3),
// from the CLDR data in golang.org/x/text. Unknown codes get 2.
func MinorUnits(currencyCode string) int {
	u, err := currency.ParseISO(currencyCode)
	if err != nil {
		return 2
	}
	scale, _ := currency.Standard.Rounding(u)
	return scale
}

// ValidCurrency reports whether code is an ISO 4217 alphabetic code.
func ValidCurrency(code string) bool {
	_, err := currency.ParseISO(code)
	return err == nil && len(code) == 3
}

// FitsMinorUnits reports whether the amount has no more decimals than its currency allows.
func (m Money) FitsMinorUnits() bool {
	return m.Amount.Equal(m.Amount.Truncate(int32(MinorUnits(m.Currency))))
}

// Round rounds half-up to the currency's minor units (line subtotals, totals).
func (m Money) Round() Money {
	return Money{Amount: m.Amount.Round(int32(MinorUnits(m.Currency))), Currency: m.Currency}
}

var printer = message.NewPrinter(language.English)

// Format renders the amount for people: currency symbol, grouping and exactly
// the currency's minor units, e.g. "$1,250.50", "¥120,000", "€980.00".
func (m Money) Format() string {
	minor := MinorUnits(m.Currency)
	fixed := m.Amount.Abs().StringFixed(int32(minor))
	whole, frac, _ := strings.Cut(fixed, ".")
	var b strings.Builder
	if m.Amount.IsNegative() {
		b.WriteByte('-')
	}
	b.WriteString(Symbol(m.Currency))
	b.WriteString(group(whole))
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Symbol is the short symbol people expect for a currency ("$", "€", "£", "¥"),
// or the code followed by a space when CLDR has no narrow symbol for it.
func Symbol(code string) string {
	u, err := currency.ParseISO(code)
	if err != nil {
		return code + " "
	}
	s := printer.Sprint(currency.NarrowSymbol(u.Amount(0)))
	sym, _, _ := strings.Cut(s, " ")
	if sym == "" || sym == u.String() {
		return u.String() + " "
	}
	return sym
}

func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		b.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

func (m Money) String() string { return m.Format() }

// MarshalJSON writes the bare number, as the service expects.
func (m Money) MarshalJSON() ([]byte, error) { return []byte(m.Amount.String()), nil }

// UnmarshalJSON reads a JSON number (or a numeric string) within
// ParseAmount's bounds; null leaves zero. The currency is not known here
// (the enclosing model stamps it later), so minor units are checked where
// an amount is used, not here.
func (m *Money) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		m.Amount = decimal.Zero
		return nil
	}
	b = bytes.Trim(b, `"`)
	d, err := ParseAmount(string(b))
	if err != nil {
		return fmt.Errorf("money: %w", err)
	}
	m.Amount = d
	return nil
}
