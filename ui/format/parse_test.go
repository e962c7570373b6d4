package format

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

// quantityCases are ParseQuantity's table, and the seeds of its fuzz target.
var quantityCases = []struct {
	in   string
	want string // the quantity read; "" when refused
	says string // a refusal's words
}{
	{"1", "1", ""},
	{" 1.5 ", "1.5", ""},
	{"0.25", "0.25", ""},
	{"1e3", "1000", ""},
	{"9999999999999999999999999999", "9999999999999999999999999999", ""},
	{"", "", "must be a number"},
	{"abc", "", "must be a number"},
	{"1,5", "", "must be a number"},
	{"0", "", "greater than zero"},
	{"-2", "", "greater than zero"},
	{"1e10000000", "", "too large: at most 28 digits"},
	{"1e-10000000", "", "too large: at most 28 digits"},
	{"99999999999999999999999999999", "", "too large"},
	{strings.Repeat("9", 200), "", "too large"},
}

func TestParseQuantity(t *testing.T) {
	for _, c := range quantityCases {
		q, err := ParseQuantity(c.in)
		switch {
		case c.want != "" && (err != nil || !q.Equal(decimal.RequireFromString(c.want))):
			t.Errorf("ParseQuantity(%q) = %s, %v; want %s", c.in, q, err, c.want)
		case c.want == "" && (err == nil || !strings.Contains(err.Error(), c.says)):
			t.Errorf("ParseQuantity(%q) = %s, %v; want a refusal saying %q", c.in, q, err, c.says)
		}
	}
}

// FuzzParseQuantity: whatever is typed, a quantity accepted is above zero
// and has no more digits than any amount (api.MaxAmountDigits), so
// computing and showing a line with it stays instant.
func FuzzParseQuantity(f *testing.F) {
	for _, c := range quantityCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			return
		}
		if !q.IsPositive() {
			t.Fatalf("%q was read as %s", s, q)
		}
		if err := api.CheckDigits(q); err != nil {
			t.Fatalf("%q was read as %s: %v", s, q, err)
		}
	})
}

// A rate with too many digits is refused in words about its size, not as
// "must be a number".
func TestParseRateNamesTheLimit(t *testing.T) {
	_, err := ParseRate("1e40", "USD")
	if err == nil || !strings.Contains(err.Error(), "too large: at most 28 digits") {
		t.Fatalf("ParseRate(1e40) = %v", err)
	}
}
