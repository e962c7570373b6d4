package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// MaxAmountDigits bounds every amount the app accepts: at most this many
// significant digits, whole digits and decimals, which is what the
// service's .NET decimal holds. An amount such as 1e10000000 is eleven
// characters on the wire but ten million digits once formatted, enough to
// stall the replica's writer for seconds; it is refused where it enters.
const MaxAmountDigits = 28

// maxAmountText bounds the text parsed at all: the longest amount within
// MaxAmountDigits, written plainly with sign, point and zeros, is well
// under it, and a longer one is refused before any arithmetic.
const maxAmountText = 80

// ErrAmountTooLarge means an amount has more digits than MaxAmountDigits allows.
var ErrAmountTooLarge = fmt.Errorf("an amount has at most %d digits", MaxAmountDigits)

var (
	bigTen  = big.NewInt(10)
	bigZero = new(big.Int)
)

// ParseAmount reads a decimal number ("1250.50", "-3", "1.5e3") within
// MaxAmountDigits, and refuses anything else at once with a plain error.
// The result carries no trailing zeros beyond what its value needs.
func ParseAmount(s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Zero, errors.New("an amount is required")
	}
	if len(s) > maxAmountText {
		return decimal.Zero, fmt.Errorf("%q… is not an amount: %w", s[:12], ErrAmountTooLarge)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		if huge, zero := hugeExponent(s); huge {
			if zero {
				return decimal.Zero, nil
			}
			return decimal.Zero, fmt.Errorf("%q is not an amount: %w", s, ErrAmountTooLarge)
		}
		return decimal.Zero, fmt.Errorf("%q is not an amount", s)
	}
	if err := CheckDigits(d); err != nil {
		return decimal.Zero, fmt.Errorf("%q is not an amount: %w", s, err)
	}
	if d.IsZero() {
		return decimal.Zero, nil // 0e10000000 would cost as much to write out as 1e10000000
	}
	return d, nil
}

// hugeExponent reports whether s, which the decimal package refused, is a
// number all the same, refused for an exponent beyond what the package
// decodes (decimal.MaxDecodeExponent, since v1.5.0); and whether it is
// zero. A person who typed 1e10000000 is told it has too many digits, not
// that it is no number.
func hugeExponent(s string) (huge, zero bool) {
	i := strings.LastIndexAny(s, "eE")
	if i < 0 {
		return false, false
	}
	m, err := decimal.NewFromString(s[:i])
	if err != nil {
		return false, false
	}
	if _, err := strconv.ParseInt(s[i+1:], 10, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
		return false, false
	}
	return true, m.IsZero()
}

// CheckDigits applies MaxAmountDigits to d without ever writing d out.
// The exponent may be anything; a coefficient longer than the text
// ParseAmount reads is refused before its trailing zeros are counted.
func CheckDigits(d decimal.Decimal) error {
	c := new(big.Int).Abs(d.Coefficient())
	if c.Sign() == 0 {
		return nil
	}
	if c.BitLen() > maxAmountText*4 { // 4 bits a digit is more than enough
		return ErrAmountTooLarge
	}
	exp := int64(d.Exponent())
	q, r := new(big.Int), new(big.Int)
	for {
		q.QuoRem(c, bigTen, r)
		if r.Cmp(bigZero) != 0 {
			break
		}
		c.Set(q)
		exp++
	}
	sig := int64(len(c.String()))
	whole := sig + exp // digits before the point
	decimals := -exp   // digits after it
	if sig > MaxAmountDigits || whole > MaxAmountDigits || decimals > MaxAmountDigits {
		return ErrAmountTooLarge
	}
	return nil
}

// Check reports, in plain words, why m cannot be an amount of its currency:
// more digits than MaxAmountDigits, or more decimals than the currency's
// minor units. Amounts built in code rather than parsed (sums, products)
// are checked here before they are queued.
func (m Money) Check() error {
	if err := CheckDigits(m.Amount); err != nil {
		return err
	}
	if !m.FitsMinorUnits() {
		cur := m.Currency
		if cur == "" {
			cur = "the currency's"
		}
		if n := MinorUnits(m.Currency); n > 0 {
			return fmt.Errorf("%s amounts have at most %d decimals", cur, n)
		}
		return fmt.Errorf("%s amounts have no decimals", cur)
	}
	return nil
}

// UnmarshalJSON bounds Quantity as amounts are bounded: a quantity of
// 1e10000000 multiplies into a subtotal as costly to write out as such an
// amount. The text is checked before it is turned into a number.
func (l *LineItem) UnmarshalJSON(b []byte) error {
	type plain LineItem // no methods: no recursion
	var p struct {
		plain
		Quantity json.Number `json:"Quantity"` // shadows plain.Quantity
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*l = LineItem(p.plain)
	l.Quantity = decimal.Zero
	if p.Quantity != "" {
		q, err := ParseAmount(string(p.Quantity))
		if err != nil {
			return fmt.Errorf("line item quantity: %w", err)
		}
		l.Quantity = q
	}
	return nil
}

// CheckAmounts refuses a notification whose amounts do not fit the
// currency it names: a new work order's NTE and quote. Other events carry
// bare amounts in the work order's currency, which only the replica knows
// (it checks them when it applies them); their digits were bounded when
// they were decoded.
func (ev Event) CheckAmounts() error {
	nw, ok := ev.Body.(*NewWorkOrderEvent)
	if !ok || nw.Details.Currency == "" {
		return nil
	}
	cur := nw.Details.Currency
	if err := nw.Details.Nte.Amount.In(cur).Check(); err != nil {
		return fmt.Errorf("the NTE: %w", err)
	}
	if q := nw.Details.Nte.Quote; q != nil {
		if err := q.Amount.In(cur).Check(); err != nil {
			return fmt.Errorf("the quote: %w", err)
		}
	}
	return nil
}
