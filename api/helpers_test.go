package api

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	testClientID     = "0123456789ABCDEF0123456789ABCDEF"
	testClientSecret = "s3cr3t-client-secret-value"
)

// fakeClock is the injectable clock the token source and verifier read.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2024, 2, 28, 2, 3, 24, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// tokenRequest is what the token server saw.
type tokenRequest struct {
	Method        string
	ContentType   string
	Authorization string
	BasicUser     string
	HasBasic      bool
	Form          url.Values
}

// apiCall is what the API server saw.
type apiCall struct {
	Method      string
	Path        string
	Query       url.Values
	Bearer      string
	ContentType string
	Body        []byte
}

// fakeService is a token server plus an API server. The API accepts only the
// tokens it issued and has not revoked; answer decides the API's reply.
type fakeService struct {
	t        *testing.T
	tokenSrv *httptest.Server
	apiSrv   *httptest.Server

	mu        sync.Mutex
	tokenReqs []tokenRequest
	calls     []apiCall
	issued    int
	valid     map[string]bool
	rejectAll bool // every API call answers 401
	// revokeOnIssue makes the next n issued tokens invalid at once, as if the
	// service had restarted and forgotten them.
	revokeOnIssue int
	expiresIn     int
	// tokenGate, when set, holds token requests until it is closed; each
	// token request first signals tokenArrived.
	tokenGate    chan struct{}
	tokenArrived chan struct{}
	// unauthorizedBody, when set, writes the body of 401 answers.
	unauthorizedBody func(authorization string) string
	// streamAnswer, when set, answers with the request body unread, for
	// tests that watch a body arrive.
	streamAnswer func(w http.ResponseWriter, r *http.Request)
	// answer writes the API reply for an authorised call; nil = 200 {}.
	answer func(w http.ResponseWriter, r *http.Request, body []byte)
}

func newFakeService(t testing.TB) *fakeService {
	fs := &fakeService{valid: map[string]bool{}, expiresIn: 1200}
	fs.tokenSrv = httptest.NewServer(http.HandlerFunc(fs.serveToken))
	fs.apiSrv = httptest.NewServer(http.HandlerFunc(fs.serveAPI))
	t.Cleanup(fs.tokenSrv.Close)
	t.Cleanup(fs.apiSrv.Close)
	return fs
}

func (fs *fakeService) serveToken(w http.ResponseWriter, r *http.Request) {
	fs.mu.Lock()
	gate, arrived := fs.tokenGate, fs.tokenArrived
	fs.mu.Unlock()
	if arrived != nil {
		select {
		case arrived <- struct{}{}:
		default:
		}
	}
	if gate != nil {
		<-gate
	}
	user, _, hasBasic := r.BasicAuth()
	ct := r.Header.Get("Content-Type")
	_ = r.ParseForm()
	fs.mu.Lock()
	fs.tokenReqs = append(fs.tokenReqs, tokenRequest{
		Method: r.Method, ContentType: ct, Authorization: r.Header.Get("Authorization"),
		BasicUser: user, HasBasic: hasBasic, Form: r.PostForm,
	})
	if r.PostForm.Get("client_id") != testClientID || r.PostForm.Get("client_secret") != testClientSecret {
		fs.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_client"}`)
		return
	}
	fs.issued++
	tok := fmt.Sprintf("AAAAtok%02d<---->SIGNsecretpart%02d", fs.issued, fs.issued)
	if fs.revokeOnIssue > 0 {
		fs.revokeOnIssue--
	} else {
		fs.valid[tok] = true
	}
	exp := fs.expiresIn
	fs.mu.Unlock()
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	// refresh_token is deprecated (spec §5.4): a client must not use it.
	fmt.Fprintf(w, `{"access_token":%q,"token_type":"bearer","expires_in":%d,"refresh_token":"deprecated-refresh"}`, tok, exp)
}

func (fs *fakeService) serveAPI(w http.ResponseWriter, r *http.Request) {
	bearer := ""
	if s := r.Header.Get("Authorization"); strings.HasPrefix(s, "Bearer ") {
		bearer = strings.TrimPrefix(s, "Bearer ")
	}
	fs.mu.Lock()
	stream := fs.streamAnswer
	fs.mu.Unlock()
	var body []byte
	if stream == nil {
		body, _ = io.ReadAll(r.Body)
	}
	fs.mu.Lock()
	fs.calls = append(fs.calls, apiCall{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Bearer: bearer,
		ContentType: r.Header.Get("Content-Type"), Body: body})
	ok := fs.valid[bearer] && !fs.rejectAll
	answer, unauth := fs.answer, fs.unauthorizedBody
	fs.mu.Unlock()
	if !ok {
		w.WriteHeader(http.StatusUnauthorized)
		if unauth != nil {
			io.WriteString(w, unauth(r.Header.Get("Authorization")))
		}
		return
	}
	if stream != nil {
		stream(w, r)
		return
	}
	if answer != nil {
		answer(w, r, body)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{}`)
}

func (fs *fakeService) tokenRequests() []tokenRequest {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]tokenRequest(nil), fs.tokenReqs...)
}

func (fs *fakeService) apiCalls() []apiCall {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]apiCall(nil), fs.calls...)
}

func (fs *fakeService) lastCall(t testing.TB) apiCall {
	t.Helper()
	calls := fs.apiCalls()
	if len(calls) == 0 {
		t.Fatal("the API received no call")
	}
	return calls[len(calls)-1]
}

func (fs *fakeService) setAnswer(f func(w http.ResponseWriter, r *http.Request, body []byte)) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.answer = f
}

// answerJSON makes every authorised call answer status with body.
func (fs *fakeService) answerJSON(status int, body string) {
	fs.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
}

// client returns a Client pointed at the fake with base path /Direct/, as
// the real service is addressed.
func (fs *fakeService) client(t testing.TB, clock *fakeClock) (*Client, *ClientCredentials) {
	t.Helper()
	cfg := CredentialsConfig{TokenURL: fs.tokenSrv.URL + "/OAuth/Token", ClientID: testClientID, ClientSecret: testClientSecret,
		HTTPClient: fs.tokenSrv.Client()}
	if clock != nil {
		cfg.Now = clock.Now
	}
	cc := NewClientCredentials(cfg)
	c, err := NewClient(fs.apiSrv.URL+"/Direct", fs.apiSrv.Client(), cc)
	if err != nil {
		t.Fatal(err)
	}
	return c, cc
}

func decodeBody(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("request body is not a JSON object: %v: %s", err, b)
	}
	return m
}

var (
	keysOnce        sync.Once
	testKey, otherK *rsa.PrivateKey
)

// testKeys returns two RSA-2048 keys, generated once per test binary because
// key generation dominates the run time otherwise.
func testKeys(t testing.TB) (signer, other *rsa.PrivateKey) {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		if testKey, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if otherK, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
	})
	return testKey, otherK
}

var bg = context.Background()
