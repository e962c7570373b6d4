package api

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTokenRequestForm(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	if _, err := c.ListMessages(bg, 42); err != nil {
		t.Fatal(err)
	}
	reqs := fs.tokenRequests()
	if len(reqs) != 1 {
		t.Fatalf("token requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost {
		t.Errorf("token request method = %s, want POST", r.Method)
	}
	if !strings.HasPrefix(r.ContentType, "application/x-www-form-urlencoded") {
		t.Errorf("token request Content-Type = %q", r.ContentType)
	}
	if r.Authorization != "" || r.HasBasic {
		t.Errorf("token request carries an Authorization header (%q); the service wants the credentials in the form", r.BasicUser)
	}
	want := map[string]string{"client_id": testClientID, "client_secret": testClientSecret, "grant_type": "client_credentials"}
	for k, v := range want {
		if got := r.Form.Get(k); got != v {
			t.Errorf("form %s = %q, want %q", k, got, v)
		}
	}
	for k := range r.Form {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected form field %q", k)
		}
	}
	// The deprecated refresh_token must never be used: the token is
	// fetched anew with the credentials after expiry.
	call := fs.lastCall(t)
	if call.Bearer != "AAAAtok01<---->SIGNsecretpart01" {
		t.Errorf("API call bearer = %q", call.Bearer)
	}
}

func TestRefreshTokenIgnoredOnRenewal(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	clock := newFakeClock()
	c, _ := fs.client(t, clock)
	if _, err := c.ListMessages(bg, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(25 * time.Minute)
	if _, err := c.ListMessages(bg, 1); err != nil {
		t.Fatal(err)
	}
	reqs := fs.tokenRequests()
	if len(reqs) != 2 {
		t.Fatalf("token requests = %d, want 2", len(reqs))
	}
	if g := reqs[1].Form.Get("grant_type"); g != "client_credentials" {
		t.Errorf("renewal grant_type = %q, want client_credentials (refresh_token is deprecated)", g)
	}
	if reqs[1].Form.Has("refresh_token") {
		t.Error("renewal sent the deprecated refresh_token")
	}
}

func TestBearerOnEveryCallAndRenewalAtOneMinuteLeft(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	clock := newFakeClock()
	c, cc := fs.client(t, clock)
	start := clock.Now()
	steps := []struct {
		at          time.Duration
		wantFetches int
		wantToken   string
	}{
		{0, 1, "AAAAtok01<---->SIGNsecretpart01"},
		{10 * time.Minute, 1, "AAAAtok01<---->SIGNsecretpart01"},
		{18*time.Minute + 59*time.Second, 1, "AAAAtok01<---->SIGNsecretpart01"},
		{19*time.Minute + 1*time.Second, 2, "AAAAtok02<---->SIGNsecretpart02"},
		{19*time.Minute + 30*time.Second, 2, "AAAAtok02<---->SIGNsecretpart02"},
	}
	for _, s := range steps {
		clock.Set(start.Add(s.at))
		if _, err := c.GetInvoice(bg, 7); err != nil {
			t.Fatalf("at +%v: %v", s.at, err)
		}
		call := fs.lastCall(t)
		if call.Bearer != s.wantToken {
			t.Errorf("at +%v: Authorization bearer = %q, want %q", s.at, call.Bearer, s.wantToken)
		}
		if n := len(fs.tokenRequests()); n != s.wantFetches {
			t.Errorf("at +%v: token requests = %d, want %d", s.at, n, s.wantFetches)
		}
	}
	if got, want := cc.ValidUntil(), start.Add(19*time.Minute+time.Second+20*time.Minute); !got.Equal(want) {
		t.Errorf("ValidUntil = %v, want %v", got, want)
	}
	for _, call := range fs.apiCalls() {
		if call.Bearer == "" {
			t.Errorf("%s %s went without a bearer token", call.Method, call.Path)
		}
	}
}

func TestUnauthorizedRetriesOnceWithNewToken(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.revokeOnIssue = 1 // the first token is refused by the API
	c, cc := fs.client(t, nil)
	r := &AcceptRequest{WorkOrderId: 42}
	if err := c.Accept(bg, r); err != nil {
		t.Fatalf("Accept after one 401: %v", err)
	}
	calls := fs.apiCalls()
	if len(calls) != 2 {
		t.Fatalf("API calls = %d, want 2 (the refused one and one retry)", len(calls))
	}
	if calls[0].Bearer == calls[1].Bearer {
		t.Error("the retry reused the refused token")
	}
	if cc.Fetches() != 2 {
		t.Errorf("token requests = %d, want 2", cc.Fetches())
	}
	// The retry is the same request: same MessageId, so the service can de-duplicate.
	a, b := decodeBody(t, calls[0].Body), decodeBody(t, calls[1].Body)
	if a["MessageId"] != b["MessageId"] || a["MessageId"] == "" {
		t.Errorf("retry MessageId %v differs from first %v", b["MessageId"], a["MessageId"])
	}
}

func TestSecondUnauthorizedIsAnError(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.rejectAll = true
	c, cc := fs.client(t, nil)
	_, err := c.GetWorkOrders(bg, []int64{1, 2})
	if !IsUnauthorized(err) {
		t.Fatalf("err = %v, want IsUnauthorized", err)
	}
	if n := len(fs.apiCalls()); n != 2 {
		t.Errorf("API calls = %d, want exactly 2", n)
	}
	if cc.Fetches() != 2 {
		t.Errorf("token requests = %d, want 2", cc.Fetches())
	}
	if IsTemporary(err) || IsBusiness(err) {
		t.Error("a refused credential is neither temporary nor a business refusal")
	}
	// The refused token is not kept: the next call asks for a new one.
	fs.mu.Lock()
	fs.rejectAll = false
	fs.mu.Unlock()
	if _, err := c.GetWorkOrders(bg, []int64{1}); err != nil {
		t.Fatal(err)
	}
	if cc.Fetches() != 3 {
		t.Errorf("token requests after recovery = %d, want 3", cc.Fetches())
	}
}

// onlyReader hides Seek so an upload cannot be replayed.
type onlyReader struct{ io.Reader }

func TestUnreplayableUploadIsNotRetried(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.revokeOnIssue = 1
	c, cc := fs.client(t, nil)
	_, err := c.UploadAttachment(bg, 42, Upload{Name: "photo.jpg", MimeType: "image/jpeg",
		Content: onlyReader{strings.NewReader("jpeg bytes")}})
	if !IsUnauthorized(err) {
		t.Fatalf("err = %v, want IsUnauthorized", err)
	}
	if n := len(fs.apiCalls()); n != 1 {
		t.Errorf("API calls = %d, want 1: a stream cannot be sent twice", n)
	}
	// The refused token was dropped, so the next call succeeds with a new one.
	if _, err := c.ListAttachments(bg, 42); err != nil {
		t.Fatal(err)
	}
	if cc.Fetches() != 2 {
		t.Errorf("token requests = %d, want 2", cc.Fetches())
	}
}

func TestConcurrentCallsShareOneTokenRequest(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	gate, arrived := make(chan struct{}), make(chan struct{}, 1)
	fs.tokenGate, fs.tokenArrived = gate, arrived
	c, cc := fs.client(t, nil)
	const n = 64
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := c.ListMessages(bg, int64(i))
			errs <- err
		}()
	}
	close(start)
	<-arrived // one fetch is in flight; the others queue behind it
	close(gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := len(fs.tokenRequests()); got != 1 || cc.Fetches() != 1 {
		t.Errorf("token requests = %d (Fetches %d), want exactly 1 for %d concurrent calls", got, cc.Fetches(), n)
	}
	if got := len(fs.apiCalls()); got != n {
		t.Errorf("API calls = %d, want %d", got, n)
	}
}

func TestTokenRequestsPer1000Calls(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	clock := newFakeClock()
	c, cc := fs.client(t, clock)
	for i := range 1000 {
		// spread the calls over 18 minutes of the 20-minute lifetime
		clock.Advance(18 * time.Minute / 1000)
		if _, err := c.ListMessages(bg, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if cc.Fetches() != 1 {
		t.Errorf("token requests for 1,000 calls within one lifetime = %d, want 1", cc.Fetches())
	}
}

func TestTokenServerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		secret    string
		stopToken bool
		wantIs    error
		wantTemp  bool
	}{
		{name: "wrong secret", secret: "wrong-secret-value", wantIs: ErrCredentialsRejected},
		{name: "token server down", secret: testClientSecret, stopToken: true, wantTemp: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeService(t)
			if tt.stopToken {
				fs.tokenSrv.Close()
			}
			cc := NewClientCredentials(CredentialsConfig{TokenURL: fs.tokenSrv.URL, ClientID: testClientID, ClientSecret: tt.secret})
			c, err := NewClient(fs.apiSrv.URL, nil, cc)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ListMessages(bg, 1)
			if err == nil {
				t.Fatal("call succeeded without a token")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("err = %v, want %v", err, tt.wantIs)
			}
			if IsTemporary(err) != tt.wantTemp {
				t.Errorf("IsTemporary(%v) = %v, want %v", err, !tt.wantTemp, tt.wantTemp)
			}
			if strings.Contains(err.Error(), tt.secret) {
				t.Errorf("error text reveals the client secret: %v", err)
			}
			if n := len(fs.apiCalls()); n != 0 {
				t.Errorf("API calls without a token = %d", n)
			}
		})
	}
}
