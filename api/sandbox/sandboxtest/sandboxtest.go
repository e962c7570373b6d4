// Package sandboxtest starts the sandbox for one test and makes the work
// orders the test needs, instead of searching the generated world for one
// that happens to fit.
//
// New serves a sandbox on an httptest server and returns it with its
// connection data and a ready client; everything closes when the test ends.
// A fixture creates exactly the work order a test is about, built as the
// service would hold it in that state (quote, NTE, invoice and procedure
// consistent with each other and with the customer's policy):
//
//	func TestPause(t *testing.T) {
//		t.Parallel()
//		sb := sandboxtest.New(t)
//		wo := sb.WorkOrderAt("Northwind Retail", api.StatusCheckedIn)
//		err := sb.Client.Pause(context.Background(), &api.VisitRequest{WorkOrderId: wo.WorkOrderId})
//		if err != nil {
//			t.Fatal(err)
//		}
//		if got := sb.WorkOrder(wo.WorkOrderId).Status; got != api.StatusPaused {
//			t.Errorf("after a pause the service has it %s", got)
//		}
//	}
//
// Other fixtures:
//
//	fresh := sb.NewWorkOrder() // New, with an NTE, no quote
//	yen := sb.Create(sandboxtest.WorkOrderSpec{Status: api.StatusPaused, Currency: "JPY", Quote: api.QuoteSubmitted})
//	billed := sb.Create(sandboxtest.WorkOrderSpec{Status: api.StatusCheckedOut, Invoice: api.InvoiceSubmitted})
//	steps := sb.Create(sandboxtest.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandboxtest.ProcedureEditable})
//	open := sb.Create(sandboxtest.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted, Nte: "0"})
//
// A fixture is the world as it stands, not an event: no notification goes
// out, and its LastUpdate is the sandbox's now, so a replica synced before
// reads it on its next sync.
//
// Options change the sandbox: a handler in front of it (faults, a slow
// line), de-duplication off, another clock or world:
//
//	sb := sandboxtest.New(t, sandboxtest.NoMessageIdDedup(), sandboxtest.Wrap(flaky))
//
// The sandbox records every request that reaches it (after any Wrap), so a
// test counts at the service, not in its de-duplicated state:
//
//	if got := sb.Received(http.MethodPost, "/api/messages"); len(got) != 1 { ... }
//
// Time stands still at a fixed instant (sb.Now()) unless the test advances
// it (sb.AdvanceClock) or asks for RealClock; give the code under test the
// same clock (sb.Clock().Now). A sandbox per test costs a few milliseconds
// (the signing key is shared), so tests that use one can run in parallel.
package sandboxtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// WorkOrderSpec describes a fixture: see sandbox.WorkOrderSpec.
type WorkOrderSpec = sandbox.WorkOrderSpec

// ProcedureKind is the state of WorkOrderSpec.Procedure.
type ProcedureKind = sandbox.ProcedureKind

const (
	NoProcedure       = sandbox.NoProcedure
	ProcedureEditable = sandbox.ProcedureEditable
	ProcedureReadOnly = sandbox.ProcedureReadOnly
	ProcedureMarkedNa = sandbox.ProcedureMarkedNa
)

// fixedNow is where every test sandbox's clock stands unless At or
// RealClock says otherwise.
var fixedNow = time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC)

// key is shared by every test sandbox of the process: generating RSA-2048
// per test would dominate a run.
var key = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
})

// Option changes the sandbox New starts.
type Option func(*config)

type config struct {
	opts sandbox.Options
	wrap []func(http.Handler) http.Handler
}

// Seed is the seed of the generated world (default 1, the demo's).
func Seed(n int64) Option { return func(c *config) { c.opts.Seed = n } }

// WorkOrders is the size of the generated world (default 72, at least 60).
func WorkOrders(n int) Option { return func(c *config) { c.opts.WorkOrders = n } }

// At stands the sandbox clock still at t.
func At(t time.Time) Option {
	return func(c *config) { c.opts.Now = func() time.Time { return t } }
}

// RealClock makes the sandbox clock follow the machine's.
func RealClock() Option { return func(c *config) { c.opts.Now = nil } }

// NoMessageIdDedup makes the sandbox apply every request, even one that
// repeats the MessageId of one already applied, as the real service may
// (its de-duplication is undocumented).
func NoMessageIdDedup() Option { return func(c *config) { c.opts.NoMessageIdDedup = true } }

// Wrap puts a handler between the client and the sandbox: a fault, a slow
// line, a recorder of attempts. The first Wrap is the outermost.
func Wrap(f func(next http.Handler) http.Handler) Option {
	return func(c *config) { c.wrap = append(c.wrap, f) }
}

// With changes any other sandbox option (NotifyURL, RetryIntervals,
// CustomerEvery, Key: nil for a key of its own, ...).
func With(f func(*sandbox.Options)) Option { return func(c *config) { f(&c.opts) } }

// Sandbox is a sandbox serving one test.
type Sandbox struct {
	*sandbox.Sandbox // the service: customer actions, clock, world

	// Server serves the sandbox behind every Wrap.
	Server *httptest.Server
	// Info is what a client is configured with (the Server's URLs).
	Info sandbox.ConnectionInfo
	// Client is a client of the Server; Tokens is its token source, on
	// the sandbox clock.
	Client *api.Client
	Tokens *api.ClientCredentials

	t   testing.TB
	rec *recorder
}

// New starts a sandbox for t, with a fixed clock, short notification
// retries (5 ms, then 10 ms) and a key shared by the process; t.Cleanup
// closes it and its server.
func New(t testing.TB, opts ...Option) *Sandbox {
	t.Helper()
	c := config{opts: sandbox.Options{
		Seed: 1, Now: func() time.Time { return fixedNow }, Key: key(),
		RetryIntervals: []time.Duration{5 * time.Millisecond, 10 * time.Millisecond},
	}}
	for _, o := range opts {
		o(&c)
	}
	sb, err := sandbox.New(c.opts)
	if err != nil {
		t.Fatalf("sandboxtest: %v", err)
	}
	rec := &recorder{next: sb.Handler()}
	var h http.Handler = rec
	for i := len(c.wrap) - 1; i >= 0; i-- {
		h = c.wrap[i](h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	s := &Sandbox{Sandbox: sb, Server: srv, Info: sb.InfoFor(srv.URL), t: t, rec: rec}
	s.Client, s.Tokens = s.newClient(srv.Client())
	return s
}

// NewClient is a client of the Server through hc with a token source of
// its own (its first call asks for a token).
func (s *Sandbox) NewClient(hc *http.Client) *api.Client {
	s.t.Helper()
	c, _ := s.newClient(hc)
	return c
}

func (s *Sandbox) newClient(hc *http.Client) (*api.Client, *api.ClientCredentials) {
	s.t.Helper()
	tokens := api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: s.Info.TokenURL, ClientID: s.Info.ClientID, ClientSecret: s.Info.ClientSecret,
		HTTPClient: hc, Now: s.Clock().Now,
	})
	c, err := api.NewClient(s.Info.BaseURL, hc, tokens)
	if err != nil {
		s.t.Fatalf("sandboxtest: %v", err)
	}
	return c, tokens
}

// Connection is Info as the app's settings hold it.
func (s *Sandbox) Connection() api.Connection {
	return api.Connection{BaseURL: s.Info.BaseURL, TokenURL: s.Info.TokenURL, ClientID: s.Info.ClientID, ClientSecret: s.Info.ClientSecret}
}

// Now is the sandbox clock's time.
func (s *Sandbox) Now() time.Time { return s.Clock().Now() }

// Create makes the work order spec describes and returns it as the service
// has it; a spec the service could never be in fails the test with the reason.
func (s *Sandbox) Create(spec WorkOrderSpec) api.WorkOrder {
	s.t.Helper()
	wo, err := s.CreateWorkOrder(spec)
	if err != nil {
		s.t.Fatalf("sandboxtest: %v", err)
	}
	return wo
}

// NewWorkOrder makes a work order just dispatched: New, with an NTE, no quote.
func (s *Sandbox) NewWorkOrder() api.WorkOrder {
	s.t.Helper()
	return s.Create(WorkOrderSpec{})
}

// WorkOrderAt makes a work order of customer (by name) in status.
func (s *Sandbox) WorkOrderAt(customer string, status api.WorkOrderStatus) api.WorkOrder {
	s.t.Helper()
	return s.Create(WorkOrderSpec{Customer: customer, Status: status})
}

// WorkOrder reads a work order from the service, failing the test if it cannot.
func (s *Sandbox) WorkOrder(id int64) *api.WorkOrder {
	s.t.Helper()
	wo, err := s.Client.GetWorkOrder(context.Background(), id)
	if err != nil {
		s.t.Fatalf("sandboxtest: reading work order %d: %v", id, err)
	}
	return wo
}

// Request is one request that reached the sandbox.
type Request struct {
	Method    string
	Path      string // as sent: /api/workOrder/accept
	Query     url.Values
	MessageId string // from the JSON body, the multipart form or the query; "" if none
	Body      []byte
	Status    int // the sandbox's answer; 0 while it is still being answered
}

// Received returns, in arrival order, the requests with method to path
// (compared without case or a trailing slash) that reached the sandbox.
// Token requests are counted by TokenRequests instead.
func (s *Sandbox) Received(method, path string) []Request {
	want := strings.ToLower(strings.TrimRight(path, "/"))
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == method && strings.ToLower(strings.TrimRight(r.Path, "/")) == want {
			out = append(out, r)
		}
	}
	return out
}

// Requests returns every request but token requests that reached the
// sandbox since New or the last ResetRequests, in arrival order.
func (s *Sandbox) Requests() []Request {
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	out := make([]Request, len(s.rec.log))
	copy(out, s.rec.log)
	return out
}

// TokenRequests counts the token requests that reached the sandbox since
// New or the last ResetRequests.
func (s *Sandbox) TokenRequests() int {
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	return s.rec.tokens
}

// ResetRequests forgets the requests recorded so far.
func (s *Sandbox) ResetRequests() {
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	s.rec.log, s.rec.tokens = nil, 0
}

// recorder notes each request on its way into the sandbox.
type recorder struct {
	next   http.Handler
	mu     sync.Mutex
	log    []Request
	tokens int
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.EqualFold(strings.TrimRight(r.URL.Path, "/"), "/oauth/token") {
		rec.mu.Lock()
		rec.tokens++
		rec.mu.Unlock()
		rec.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), MessageId: messageId(r, body), Body: body}
	rec.mu.Lock()
	i := len(rec.log)
	rec.log = append(rec.log, req)
	rec.mu.Unlock()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		rec.mu.Lock()
		if i < len(rec.log) { // not reset meanwhile
			rec.log[i].Status = sw.status
		}
		rec.mu.Unlock()
	}()
	rec.next.ServeHTTP(sw, r)
}

// messageId finds the MessageId a request carries, wherever the API puts it.
func messageId(r *http.Request, body []byte) string {
	if id := r.URL.Query().Get("messageId"); id != "" {
		return id
	}
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case ct == "application/json":
		var env struct{ MessageId string }
		json.Unmarshal(body, &env)
		return env.MessageId
	case strings.HasPrefix(ct, "multipart/") && params["boundary"] != "":
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return ""
			}
			if p.FormName() == "MessageId" {
				b, _ := io.ReadAll(io.LimitReader(p, 1<<10))
				return strings.TrimSpace(string(b))
			}
		}
	}
	return ""
}

type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
