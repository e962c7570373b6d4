package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// FuzzVerify: whatever arrives in a notification's Authorization header,
// Verify never panics, accepts only a token that passes every check, and
// never repeats the token in its error. Seeds: TestVerify's tokens.
func FuzzVerify(f *testing.F) {
	key, other := testKeys(f)
	now := newFakeClock().Now()
	tv := newTokenVariants(f, key, now.Add(-5*time.Minute))
	for _, tok := range []string{tv.good, tv.tamperedData, tv.tamperedSig, tv.wrongAud, tv.gzipped, tv.padded,
		mint(f, other, SHA1, tv.valid), tv.dataPart + tv.signPart, tv.dataPart + TokenSeparator} {
		f.Add("Bearer " + tok)
	}
	for _, h := range []string{"", "Bearer ", "Basic dXNlcjpwYXNz", "bearer  x<---->y", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"} {
		f.Add(h)
	}
	v := NewVerifierFromKey(&key.PublicKey, WithClock(func() time.Time { return now }))
	f.Fuzz(func(t *testing.T, header string) {
		c, err := v.Verify(header)
		if err != nil {
			_, sign, _ := strings.Cut(header, TokenSeparator)
			if len(sign) >= 16 && strings.Contains(err.Error(), sign) {
				t.Fatalf("the error repeats the token: %v", err)
			}
			return
		}
		checkAccepted(t, c, now)
	})
}

// FuzzVerifySignedClaims reaches past the signature: the fuzzer writes the
// claims bytes and the test signs them, so what the verifier does with
// signed but odd claims (not JSON, gzip, no audience, dates in any shape)
// is explored too.
func FuzzVerifySignedClaims(f *testing.F) {
	key, _ := testKeys(f)
	now := newFakeClock().Now()
	valid, _ := json.Marshal(NewClaims(testClientID, now.Add(-time.Minute), 20*time.Minute))
	f.Add(valid)
	f.Add([]byte(`{"Claims":[{"Type":"Aud","Value":"CorrigoProDirect"}],"Properties":{"Dictionary":{".expires":"Mon, 01 Jan 2125 00:00:00 GMT",".issued":"Mon, 01 Jan 2125 00:00:00 GMT"}}}`))
	f.Add([]byte{0x1f, 0x8b, 0x08})
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		tok := resign(t, key, data)
		c, err := VerifyToken(&key.PublicKey, SHA1, tok, now)
		if err == nil {
			checkAccepted(t, c, now)
		}
	})
}

func checkAccepted(t *testing.T, c Claims, now time.Time) {
	t.Helper()
	if aud, _ := c.Claim("Aud"); aud != Audience {
		t.Fatalf("accepted a token for audience %q", aud)
	}
	if !now.Before(c.Expires()) {
		t.Fatalf("accepted a token that expired at %v", c.Expires())
	}
	if iss := c.Issued(); !iss.IsZero() && iss.After(now.Add(MaxClockSkew)) {
		t.Fatalf("accepted a token issued at %v, in the future", iss)
	}
}

// FuzzParseEvent: any notification body either is refused or decodes to
// an event whose amounts are within bounds and which writes back to a body
// that decodes to the same header. Seeds: TestParseEventBodies' table and
// the bodies issue 15 found accepted.
func FuzzParseEvent(f *testing.F) {
	for _, c := range eventCases {
		f.Add([]byte(`{` + eventHeaderJSON + `"` + c.action + `"},` + c.body + `}`))
	}
	for _, b := range []string{`null`, `{}`, `{"Header":{"WorkOrderId":1}}`, `{"Header":null}`,
		notification(ActionNteChanged, "m-big", `,"Amount":1e10000000`),
		notification(ActionQuoteChanged, "m-q", `,"Quote":{"Amount":1e400,"LineItems":[{"Quantity":1e400,"Rate":1}]}`),
		notification("IsmStatusChanged", "m-ism", `,"Status":"Passed"`)} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		ev, err := ParseEvent(raw)
		if err != nil {
			return
		}
		if b, ok := ev.Body.(*NteChangedEvent); ok && CheckDigits(b.Amount.Amount) != nil {
			t.Fatalf("NteChanged decoded with an amount beyond bounds")
		}
		if b, ok := ev.Body.(*QuoteChangedEvent); ok && CheckDigits(b.Quote.Amount.Amount) != nil {
			t.Fatalf("QuoteChanged decoded with an amount beyond bounds")
		}
		again, err := MarshalEvent(ev.Header, ev.Body)
		if err != nil {
			t.Fatalf("a decoded event does not encode: %v", err)
		}
		back, err := ParseEvent(again)
		if err != nil {
			t.Fatalf("an encoded event does not decode: %v\n%s", err, again)
		}
		h1, h2 := ev.Header, back.Header
		if h1.Action != h2.Action || h1.MessageId != h2.MessageId || h1.WorkOrderId != h2.WorkOrderId || !h1.ActionDate.Equal(h2.ActionDate) {
			t.Fatalf("header changed on the way back: %+v, then %+v", h1, h2)
		}
	})
}

// FuzzParseAmount: an amount is either refused or within MaxAmountDigits,
// the same number decimal reads, and written back in a few dozen
// characters that read back to it. Seeds: TestParseAmount's table.
func FuzzParseAmount(f *testing.F) {
	for _, c := range amountCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseAmount(s)
		if err != nil {
			return
		}
		if err := CheckDigits(d); err != nil {
			t.Fatalf("ParseAmount(%q) accepted %v", s, err)
		}
		ref, err := decimal.NewFromString(s)
		if i := strings.LastIndexAny(s, "eE"); err != nil && i > 0 {
			// decimal refuses an exponent beyond its MaxDecodeExponent;
			// ParseAmount reads a zero with one (0e10000000) as 0.
			if m, merr := decimal.NewFromString(s[:i]); merr == nil && m.IsZero() && d.IsZero() && d.Exponent() == 0 {
				return
			}
		}
		if err == nil && ref.IsZero() {
			// Comparing 0e19000000 with anything rescales it to nineteen
			// million digits; ParseAmount hands back a plain zero.
			if !d.IsZero() || d.Exponent() > 1 {
				t.Fatalf("ParseAmount(%q) = %s, want a plain 0", s, d)
			}
			return
		}
		if err != nil || !ref.Equal(d) {
			t.Fatalf("ParseAmount(%q) = %s, decimal reads %s (%v)", s, d, ref, err)
		}
		out := d.String()
		if len(out) > 2*MaxAmountDigits+3 {
			t.Fatalf("ParseAmount(%q) writes back as %d characters", s, len(out))
		}
		if back, err := ParseAmount(out); err != nil || !back.Equal(d) {
			t.Fatalf("ParseAmount(%q) = %s, which reads back as %s (%v)", s, out, back, err)
		}
	})
}
