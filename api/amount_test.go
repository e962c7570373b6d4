package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// amountCases is the table of TestParseAmount and the seed corpus of
// FuzzParseAmount: want is the value as written back, "" for a refusal.
var amountCases = []struct{ in, want string }{
	{"1250.50", "1250.5"},
	{"-3", "-3"},
	{"0", "0"},
	{"0.00", "0"},
	{"1.5e3", "1500"},
	{"120000", "120000"},
	{"9999999999999999999999999999", "9999999999999999999999999999"},     // 28 digits
	{"0.0000000000000000000000000001", "0.0000000000000000000000000001"}, // 28 decimals
	{"1000000000000000000000000000e0", "1000000000000000000000000000"},
	{"0e10000000", "0"},                     // zero, whatever its exponent
	{"10000000000000000000000000000", ""},   // 29 whole digits
	{"0.00000000000000000000000000001", ""}, // 29 decimals
	{"1.2345678901234567890123456789", ""},  // 29 significant digits
	{"1e10000000", ""},                      // issue 15: eleven characters, ten million digits
	{"1e-10000000", ""},
	{"1e400", ""},
	{"-1e400", ""},
	{"1e99999999999999999999", ""},
	{strings.Repeat("1", 81), ""},
	{"ten", ""},
	{"", ""},
	{"1,5", ""},
	{"NaN", ""},
	{"Infinity", ""},
	{"0x10", ""},
}

func TestParseAmount(t *testing.T) {
	t.Parallel()
	for _, c := range amountCases {
		d, err := ParseAmount(c.in)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("ParseAmount(%.20q) = %s, want a refusal", c.in, d)
		case c.want != "" && err != nil:
			t.Errorf("ParseAmount(%q): %v", c.in, err)
		case c.want != "" && d.String() != c.want:
			t.Errorf("ParseAmount(%q) = %s, want %s", c.in, d, c.want)
		}
		if err != nil && strings.HasPrefix(c.in, "1e") && len(c.in) < 15 && !errors.Is(err, ErrAmountTooLarge) {
			t.Errorf("ParseAmount(%q): %v, want it to say the amount is too large", c.in, err)
		}
	}
}

// TestHugeAmountRefusedAtOnce is issue 15's amount: before, 1e10000000
// decoded fine and cost about 20 s of CPU to format inside the replica's
// write transaction. Now every way in refuses it before any arithmetic.
// The bound of a second is generous (it takes microseconds) and far below
// the 20 s it cost.
func TestHugeAmountRefusedAtOnce(t *testing.T) {
	t.Parallel()
	start := time.Now()
	var m Money
	if err := json.Unmarshal([]byte(`1e10000000`), &m); err == nil {
		t.Fatalf("JSON 1e10000000 decoded to an amount")
	}
	if _, err := NewMoney("1e10000000", "USD"); err == nil {
		t.Fatalf("NewMoney accepted 1e10000000")
	}
	var l LineItem
	if err := json.Unmarshal([]byte(`{"Quantity":1e10000000,"Rate":1}`), &l); err == nil {
		t.Fatalf("a line item with a quantity of 1e10000000 decoded")
	}
	if _, err := ParseEvent([]byte(`{"Header":{"Action":"NteChanged","MessageId":"x"},"Amount":1e10000000}`)); err == nil {
		t.Fatalf("an NteChanged of 1e10000000 decoded")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("refusing 1e10000000 four times took %v", took)
	}
}

func TestMoneyCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m    Money
		want string // "" = fits
	}{
		{MustMoney("1250.50", "USD"), ""},
		{MustMoney("1250.505", "USD"), "USD amounts have at most 2 decimals"},
		{MustMoney("120000", "JPY"), ""},
		{MustMoney("1.5", "JPY"), "JPY amounts have no decimals"},
		{MustMoney("1.234", "BHD"), ""},
		{MustMoney("1000000000000000000000000000", "USD"), ""},
		{Money{Amount: MustMoney("1", "").Amount.Shift(400), Currency: "USD"}, "at most 28 digits"},
	} {
		err := c.m.Check()
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: Check() = %v, want %q", c.m.Amount.Coefficient(), c.m.Currency, err, c.want)
		}
	}
}
