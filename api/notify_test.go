package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func certPEM(t testing.TB, key *rsa.PrivateKey) []byte {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "Work Order Integration Service notifications"},
		NotBefore:    time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:     time.Date(2034, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func pkixPEM(t testing.TB, pub any) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

func mint(t testing.TB, key *rsa.PrivateKey, hash SignHash, c Claims) string {
	t.Helper()
	tok, err := MintToken(key, hash, c)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// resign builds a token over arbitrary claims bytes, for shapes MintToken never makes.
func resign(t testing.TB, key *rsa.PrivateKey, data []byte) string {
	t.Helper()
	sum := sha1.Sum(data)
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA1, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(data) + TokenSeparator + base64.RawURLEncoding.EncodeToString(sig)
}

// errAnyFailure marks cases where any error will do.
var errAnyFailure = errors.New("any failure")

// Claims carry RFC 1123 dates in GMT, as the real service's tokens do
// (service-facts §2), and a validator reads the documented sample.
func TestClaimsDatesAsTheServiceWritesThem(t *testing.T) {
	t.Parallel()
	issued := time.Date(2024, 2, 28, 2, 3, 24, 0, time.UTC)
	c := NewClaims(testClientID, issued, 20*time.Minute)
	if got := c.Properties.Dictionary[".expires"]; got != "Wed, 28 Feb 2024 02:23:24 GMT" {
		t.Errorf(".expires = %q, want the service's form", got)
	}
	var sample Claims
	sample.Properties.Dictionary = map[string]string{".expires": "Wed, 28 Feb 2024 02:23:24 GMT"}
	if !sample.Expires().Equal(issued.Add(20 * time.Minute)) {
		t.Errorf("documented sample expires at %v", sample.Expires())
	}
}

// tokenVariants are TestVerify's tokens, and FuzzVerify's seeds: a good
// one and the ways a token can be altered or written.
type tokenVariants struct {
	valid                                                Claims
	good, dataPart, signPart                             string
	tamperedData, tamperedSig, wrongAud, gzipped, padded string
}

func newTokenVariants(t testing.TB, key *rsa.PrivateKey, issued time.Time) tokenVariants {
	var tamperedData, tamperedSig, wrongAud, gzipped, padded string
	valid := NewClaims(testClientID, issued, 20*time.Minute)
	good := mint(t, key, SHA1, valid)
	dataPart, signPart, _ := strings.Cut(good, TokenSeparator)

	tamperedData = func() string {
		c := NewClaims("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", issued, 20*time.Minute)
		b, _ := json.Marshal(c)
		return base64.RawURLEncoding.EncodeToString(b) + TokenSeparator + signPart
	}()
	tamperedSig = func() string {
		sig, _ := base64.RawURLEncoding.DecodeString(signPart)
		sig[len(sig)/2] ^= 0x01
		return dataPart + TokenSeparator + base64.RawURLEncoding.EncodeToString(sig)
	}()
	wrongAud = func() string {
		c := NewClaims(testClientID, issued, 20*time.Minute)
		for i := range c.Claims {
			if c.Claims[i].Type == "Aud" {
				c.Claims[i].Value = "SomeOtherService"
			}
		}
		return mint(t, key, SHA1, c)
	}()
	gzipped = func() string {
		b, _ := json.Marshal(valid)
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return resign(t, key, buf.Bytes())
	}()
	padded = func() string {
		b, _ := json.Marshal(valid)
		return strings.Replace(resign(t, key, b), TokenSeparator,
			strings.Repeat("=", (4-len(dataPart)%4)%4)+TokenSeparator, 1)
	}()

	return tokenVariants{valid: valid, good: good, dataPart: dataPart, signPart: signPart,
		tamperedData: tamperedData, tamperedSig: tamperedSig, wrongAud: wrongAud, gzipped: gzipped, padded: padded}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	key, other := testKeys(t)
	clock := newFakeClock()
	issued := clock.Now().Add(-5 * time.Minute)
	tv := newTokenVariants(t, key, issued)
	valid, good, dataPart, signPart := tv.valid, tv.good, tv.dataPart, tv.signPart
	tamperedData, tamperedSig, wrongAud, gzipped, padded := tv.tamperedData, tv.tamperedSig, tv.wrongAud, tv.gzipped, tv.padded

	sha1V := NewVerifierFromKey(&key.PublicKey, WithClock(clock.Now))
	tests := []struct {
		name    string
		v       *Verifier
		header  string
		at      time.Time
		wantErr error
	}{
		{name: "valid", header: "Bearer " + good},
		{name: "valid, lower-case scheme as live senders use", header: "bearer " + good},
		{name: "valid, upper-case scheme and spaces", header: "  BEARER   " + good + " "},
		{name: "valid, old gzip form", header: "Bearer " + gzipped},
		{name: "valid, padded base64", header: "Bearer " + padded},
		{name: "missing header", header: "", wantErr: ErrTokenMissing},
		{name: "scheme only", header: "Bearer ", wantErr: ErrTokenMissing},
		{name: "basic auth", header: "Basic dXNlcjpwYXNz", wantErr: ErrTokenMissing},
		{name: "no scheme", header: good, wantErr: ErrTokenMissing},
		{name: "tampered data", header: "Bearer " + tamperedData, wantErr: ErrTokenSignature},
		{name: "tampered signature", header: "Bearer " + tamperedSig, wantErr: ErrTokenSignature},
		{name: "wrong key", header: "Bearer " + mint(t, other, SHA1, valid), wantErr: ErrTokenSignature},
		{name: "SHA-256 token under the SHA-1 scheme", header: "Bearer " + mint(t, key, SHA256, valid), wantErr: ErrTokenSignature},
		{name: "SHA-256 verifier", v: NewVerifierFromKey(&key.PublicKey, WithSHA256(), WithClock(clock.Now)),
			header: "Bearer " + mint(t, key, SHA256, valid)},
		{name: "no separator", header: "Bearer " + dataPart + signPart, wantErr: ErrTokenMalformed},
		{name: "empty signature", header: "Bearer " + dataPart + TokenSeparator, wantErr: ErrTokenMalformed},
		{name: "bad base64", header: "Bearer " + dataPart + TokenSeparator + "not*base64!", wantErr: ErrTokenMalformed},
		{name: "JWT-looking token", header: "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", wantErr: ErrTokenMalformed},
		{name: "expired", header: "Bearer " + good, at: issued.Add(20 * time.Minute), wantErr: ErrTokenExpired},
		{name: "wrong audience", header: "Bearer " + wrongAud, wantErr: ErrTokenAudience},
		{name: "issued a little ahead of our clock", header: "Bearer " + good, at: issued.Add(-MaxClockSkew + time.Second)},
		{name: "issued far in the future", header: "Bearer " + good, at: issued.Add(-MaxClockSkew - time.Second), wantErr: ErrTokenFuture},
		{name: "no certificate", v: &Verifier{}, header: "Bearer " + good, wantErr: errAnyFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock.Set(issued.Add(5 * time.Minute))
			if !tt.at.IsZero() {
				clock.Set(tt.at)
			}
			v := tt.v
			if v == nil {
				v = sha1V
			}
			c, err := v.Verify(tt.header)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Verify: %v", err)
			case tt.wantErr == nil:
				if sub, _ := c.Claim(claimName); sub != testClientID {
					t.Errorf("name claim = %q", sub)
				}
				if !c.Expires().Equal(issued.Add(20 * time.Minute)) {
					t.Errorf("expires = %v", c.Expires())
				}
			case err == nil:
				t.Fatalf("Verify accepted it, want %v", tt.wantErr)
			case tt.wantErr != errAnyFailure && !errors.Is(err, tt.wantErr):
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), signPart[:20]) {
				t.Errorf("error text contains the token: %v", err)
			}
		})
	}
}

func TestNewVerifierFormats(t *testing.T) {
	t.Parallel()
	key, _ := testKeys(t)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	cert := certPEM(t, key)
	certDER, _ := pem.Decode(cert)
	tests := []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"PEM certificate", cert, true},
		{"PEM public key (PKIX)", pkixPEM(t, &key.PublicKey), true},
		{"PEM RSA public key (PKCS#1)", pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&key.PublicKey)}), true},
		{"DER certificate (.cer)", certDER.Bytes, true},
		{"certificate after a private key block", append(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("x")}), cert...), true},
		{"EC key", pkixPEM(t, &ec.PublicKey), false},
		{"garbage", []byte("hello"), false},
		{"empty", nil, false},
		{"broken PEM certificate", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("nope")}), false},
	}
	clock := newFakeClock()
	tok := "Bearer " + mint(t, key, SHA1, NewClaims(testClientID, clock.Now(), 20*time.Minute))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := NewVerifier(tt.in, WithClock(clock.Now))
			if !tt.ok {
				if err == nil {
					t.Fatal("accepted")
				}
				if !errors.Is(err, ErrNoRSAKey) {
					t.Errorf("err = %v, want ErrNoRSAKey", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Verify(tok); err != nil {
				t.Errorf("a token signed by the key does not verify: %v", err)
			}
		})
	}
}

func TestLoadVerifier(t *testing.T) {
	t.Parallel()
	key, _ := testKeys(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "corrigo.pem")
	if err := os.WriteFile(good, certPEM(t, key), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadVerifier(good); err != nil {
		t.Errorf("LoadVerifier: %v", err)
	}
	missing := filepath.Join(dir, "nope.pem")
	_, err := LoadVerifier(missing)
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("missing file: err = %v, want a message naming the certificate file", err)
	}
	bad := filepath.Join(dir, "bad.pem")
	os.WriteFile(bad, []byte("not a certificate"), 0o600)
	if _, err := LoadVerifier(bad); err == nil || !strings.Contains(err.Error(), bad) || !errors.Is(err, ErrNoRSAKey) {
		t.Errorf("bad file: err = %v", err)
	}
}

// receiverRig is a Receiver behind an httptest server plus what it handed on.
type receiverRig struct {
	srv     *httptest.Server
	key     *rsa.PrivateKey
	clock   *fakeClock
	mu      sync.Mutex
	events  []Event
	fail    error // the handler's answer
	rejects []string
}

func newReceiverRig(t *testing.T, opts ReceiverOptions) *receiverRig {
	key, _ := testKeys(t)
	rig := &receiverRig{key: key, clock: newFakeClock()}
	v, err := NewVerifier(certPEM(t, key), WithClock(rig.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	opts.OnReject = func(status int, reason string) {
		rig.mu.Lock()
		defer rig.mu.Unlock()
		rig.rejects = append(rig.rejects, fmt.Sprintf("%d %s", status, reason))
	}
	rc := NewReceiver(v, func(ctx context.Context, ev Event) error {
		rig.mu.Lock()
		defer rig.mu.Unlock()
		if rig.fail != nil {
			return rig.fail
		}
		rig.events = append(rig.events, ev)
		return nil
	}, opts)
	rig.srv = httptest.NewServer(rc)
	t.Cleanup(rig.srv.Close)
	return rig
}

func (rig *receiverRig) token(t testing.TB) string {
	return mint(t, rig.key, SHA1, NewClaims("NOTIFIER", rig.clock.Now().Add(-time.Minute), 20*time.Minute))
}

// delivery is one notification as the service would send it.
type delivery struct {
	method    string
	auth      string // "" = a valid token; "-" = none
	eventType string // "" = the body's Action; "-" = no header
	rawHeader bool   // send the header name lower-case on the wire
	body      string
}

func notification(action, messageId, extra string) string {
	return fmt.Sprintf(`{"Header":{"WorkOrderId":42,"BranchId":492042,"Sender":{"Name":"Dana","Type":"Customer"},"Action":%q,"ActionDate":"2024-09-04T10:12:08.1671613Z","ApiVersion":"1.1","MessageId":%q}%s}`,
		action, messageId, extra)
}

func (rig *receiverRig) send(t *testing.T, d delivery) (int, string) {
	t.Helper()
	method := d.method
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequest(method, rig.srv.URL+"/notify", strings.NewReader(d.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	switch d.auth {
	case "":
		req.Header.Set("Authorization", "Bearer "+rig.token(t))
	case "-":
	default:
		req.Header.Set("Authorization", d.auth)
	}
	et := d.eventType
	if et == "" {
		var env struct{ Header EventHeader }
		json.Unmarshal([]byte(d.body), &env)
		et = env.Header.Action
	}
	if et != "-" {
		if d.rawHeader {
			req.Header["event-type"] = []string{et}
		} else {
			req.Header.Set("Event-Type", et)
		}
	}
	resp, err := rig.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (rig *receiverRig) handed() []Event {
	rig.mu.Lock()
	defer rig.mu.Unlock()
	return append([]Event(nil), rig.events...)
}

func TestReceiverSingleDeliveries(t *testing.T) {
	t.Parallel()
	nte := notification(ActionNteChanged, "m-1", `,"Amount":1250.50`)
	tests := []struct {
		name       string
		opts       ReceiverOptions
		d          func(rig *receiverRig) delivery
		wantStatus int
		wantHanded bool
	}{
		{name: "valid", wantStatus: 200, wantHanded: true,
			d: func(*receiverRig) delivery { return delivery{body: nte} }},
		{name: "GET", wantStatus: 405,
			d: func(*receiverRig) delivery { return delivery{method: "GET", body: ""} }},
		{name: "no token", wantStatus: 401,
			d: func(*receiverRig) delivery { return delivery{auth: "-", body: nte} }},
		{name: "tampered signature", wantStatus: 401,
			d: func(rig *receiverRig) delivery {
				tok := rig.token(t)
				return delivery{auth: "Bearer " + tok[:len(tok)-4] + "AAAA", body: nte}
			}},
		{name: "wrong key", wantStatus: 401,
			d: func(rig *receiverRig) delivery {
				_, other := testKeys(t)
				return delivery{auth: "Bearer " + mint(t, other, SHA1, NewClaims("X", rig.clock.Now(), 20*time.Minute)), body: nte}
			}},
		{name: "expired", wantStatus: 401,
			d: func(rig *receiverRig) delivery {
				return delivery{auth: "Bearer " + mint(t, rig.key, SHA1, NewClaims("X", rig.clock.Now().Add(-21*time.Minute), 20*time.Minute)), body: nte}
			}},
		{name: "body too big", opts: ReceiverOptions{MaxBody: 1024}, wantStatus: 413,
			d: func(*receiverRig) delivery {
				return delivery{body: notification("MessageSent", "m-2", `,"Text":"`+strings.Repeat("x", 2000)+`"`)}
			}},
		{name: "not JSON", wantStatus: 400,
			d: func(*receiverRig) delivery { return delivery{eventType: "NteChanged", body: `{"Header":`} }},
		{name: "typed body of the wrong shape", wantStatus: 400,
			d: func(*receiverRig) delivery {
				return delivery{body: notification(ActionNteChanged, "m-3", `,"Amount":"lots"`)}
			}},
		{name: "no envelope: null", wantStatus: 400,
			d: func(*receiverRig) delivery { return delivery{eventType: "-", body: `null`} }},
		{name: "no envelope: {}", wantStatus: 400,
			d: func(*receiverRig) delivery { return delivery{eventType: "-", body: `{}`} }},
		{name: "a header without Action", wantStatus: 400,
			d: func(*receiverRig) delivery {
				return delivery{eventType: "-", body: `{"Header":{"WorkOrderId":42,"MessageId":"m-4"},"Amount":10}`}
			}},
		{name: "an amount of ten million digits", wantStatus: 400,
			d: func(*receiverRig) delivery {
				return delivery{body: notification(ActionNteChanged, "m-5", `,"Amount":1e10000000`)}
			}},
		{name: "a quote amount of 29 digits", wantStatus: 400,
			d: func(*receiverRig) delivery {
				return delivery{body: notification(ActionQuoteChanged, "m-6", `,"Quote":{"Amount":12345678901234567890123456789,"QuoteStatus":"Approved"}`)}
			}},
		{name: "a new yen work order with an NTE in decimals", wantStatus: 400,
			d: func(*receiverRig) delivery {
				return delivery{body: notification(ActionNewWorkOrder, "m-7", `,"Details":{"WorkOrderId":42,"Currency":"JPY","Nte":{"Amount":1500.5}}`)}
			}},
		{name: "event-type differs", wantStatus: 400,
			d: func(*receiverRig) delivery { return delivery{eventType: "QuoteChanged", body: nte} }},
		{name: "event-type differs in case only", wantStatus: 400,
			d: func(*receiverRig) delivery { return delivery{eventType: "ntechanged", body: nte} }},
		{name: "event-type header name in lower case", wantStatus: 200, wantHanded: true,
			d: func(*receiverRig) delivery { return delivery{rawHeader: true, body: nte} }},
		{name: "no event-type (before version 4.1)", wantStatus: 200, wantHanded: true,
			d: func(*receiverRig) delivery { return delivery{eventType: "-", body: nte} }},
		{name: "source outside the service range", opts: ReceiverOptions{CheckSource: true}, wantStatus: 403,
			d: func(*receiverRig) delivery { return delivery{body: nte} }},
		{name: "source inside the configured range", wantStatus: 200, wantHanded: true,
			opts: ReceiverOptions{CheckSource: true, AllowedSource: netip.MustParsePrefix("127.0.0.0/8")},
			d:    func(*receiverRig) delivery { return delivery{body: nte} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rig := newReceiverRig(t, tt.opts)
			d := tt.d(rig)
			status, respBody := rig.send(t, d)
			if status != tt.wantStatus {
				t.Fatalf("status = %d, want %d (rejects: %v)", status, tt.wantStatus, rig.rejects)
			}
			handed := rig.handed()
			if tt.wantHanded != (len(handed) == 1) || len(handed) > 1 {
				t.Fatalf("events handed on = %d, want handed=%v", len(handed), tt.wantHanded)
			}
			if tt.wantStatus != 200 && len(rig.rejects) != 1 {
				t.Errorf("OnReject calls = %v, want one", rig.rejects)
			}
			// Neither the answer nor the reason may repeat the token.
			if tok := strings.TrimPrefix(d.auth, "Bearer "); d.auth != "" && d.auth != "-" {
				_, sig, _ := strings.Cut(tok, TokenSeparator)
				for _, s := range append([]string{respBody}, rig.rejects...) {
					if strings.Contains(s, sig) || strings.Contains(s, tok) {
						t.Errorf("token echoed: %q", s)
					}
				}
			}
			if tt.wantHanded {
				ev := handed[0]
				body, ok := ev.Body.(*NteChangedEvent)
				if !ok {
					t.Fatalf("Body = %T, want *NteChangedEvent", ev.Body)
				}
				if !body.Amount.Amount.Equal(MustMoney("1250.50", "").Amount) || ev.Header.MessageId != "m-1" || ev.Header.WorkOrderId != 42 {
					t.Errorf("event = %+v, body %+v", ev.Header, body)
				}
			}
		})
	}
}

func TestReceiverUnknownActionHandedOnRaw(t *testing.T) {
	t.Parallel()
	rig := newReceiverRig(t, ReceiverOptions{})
	body := notification("SomethingNewer", "m-new", `,"Status":"Passed"`)
	if status, _ := rig.send(t, delivery{body: body}); status != 200 {
		t.Fatalf("status = %d, want 200 for an action we do not model", status)
	}
	evs := rig.handed()
	if len(evs) != 1 {
		t.Fatalf("events = %d", len(evs))
	}
	if evs[0].Body != nil || evs[0].Header.Action != "SomethingNewer" || string(evs[0].Raw) != body {
		t.Errorf("event = %+v, want Body nil and the raw JSON", evs[0])
	}
}

func TestReceiverDeduplicates(t *testing.T) {
	t.Parallel()
	rig := newReceiverRig(t, ReceiverOptions{DedupWindow: 2})
	send := func(id string) int {
		s, _ := rig.send(t, delivery{body: notification(ActionRejected, id, `,"Status":"Rejected","Comment":"no"`)})
		return s
	}
	steps := []struct {
		id         string
		fail       error
		wantStatus int
		wantTotal  int // events handed on so far
	}{
		{"a", nil, 200, 1},
		{"a", nil, 200, 1}, // duplicate: acknowledged, not handed on
		{"b", errors.New("database is locked"), 500, 1},
		{"b", fmt.Errorf("%w: its amount does not fit", ErrUnacceptableEvent), 400, 1}, // the replica judged the body itself
		{"b", nil, 200, 2}, // a failed one is handed on again when redelivered
		{"b", nil, 200, 2},
		{"c", nil, 200, 3},
		{"a", nil, 200, 4}, // window of 2 (b, c): a was forgotten
		{"c", nil, 200, 4},
	}
	for i, s := range steps {
		rig.mu.Lock()
		rig.fail = s.fail
		rig.mu.Unlock()
		if got := send(s.id); got != s.wantStatus {
			t.Fatalf("step %d (%s): status = %d, want %d", i, s.id, got, s.wantStatus)
		}
		if n := len(rig.handed()); n != s.wantTotal {
			t.Fatalf("step %d (%s): events handed on = %d, want %d", i, s.id, n, s.wantTotal)
		}
	}
}

func TestReceiverConcurrentDuplicatesHandledOnce(t *testing.T) {
	t.Parallel()
	key, _ := testKeys(t)
	v := NewVerifierFromKey(&key.PublicKey)
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	var mu sync.Mutex
	handled := 0
	rc := NewReceiver(v, func(ctx context.Context, ev Event) error {
		entered <- struct{}{}
		<-release
		mu.Lock()
		handled++
		mu.Unlock()
		return nil
	}, ReceiverOptions{})
	srv := httptest.NewServer(rc)
	defer srv.Close()
	body := notification(ActionRejected, "same", `,"Status":"Rejected"`)
	tok := mint(t, key, SHA1, NewClaims("N", time.Now(), 20*time.Minute))
	post := func() int {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	first := make(chan int)
	go func() { first <- post() }()
	<-entered
	if s := post(); s == 200 {
		t.Errorf("a concurrent duplicate was acknowledged (%d) while the first was still being handled", s)
	}
	close(release)
	if s := <-first; s != 200 {
		t.Errorf("first delivery status = %d", s)
	}
	if s := post(); s != 200 {
		t.Errorf("later duplicate status = %d, want 200", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if handled != 1 {
		t.Errorf("handled %d times, want 1", handled)
	}
}
