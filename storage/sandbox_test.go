package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// recorded is one request the fake network saw.
type recorded struct {
	Method, Path string
	Query        string
	MessageId    string
	Body         []byte
}

// wire sits between the client and the sandbox: it records requests and
// can fail them, like a flaky network or a refusing service would.
type wire struct {
	next http.Handler

	mu    sync.Mutex
	log   []recorded
	fault func(r *http.Request, body []byte) faultKind
	// onHang is called once a hangAfter request has been applied.
	onHang func()
	// inFlight and peak count requests being answered, by "METHOD /path".
	inFlight, peak map[string]int
}

type faultKind int

const (
	pass          faultKind = iota
	dropBefore              // the request never reaches the service
	dropAfter               // the service applies it, the answer is lost
	serverError             // HTTP 503
	serverRefusal           // HTTP 400, code 3000: a business rule says no
	hangAfter               // the service applies it, then the line goes dead until the client is gone
)

func (w *wire) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	id := r.URL.Query().Get("messageId")
	if id == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var env struct{ MessageId string }
		json.Unmarshal(body, &env)
		id = env.MessageId
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if i := bytes.Index(body, []byte(`name="MessageId"`)); i >= 0 {
			rest := strings.TrimLeft(string(body[i+len(`name="MessageId"`):]), "\r\n")
			id, _, _ = strings.Cut(rest, "\r\n")
		}
	}
	w.mu.Lock()
	if r.URL.Path != "/oauth/token" {
		w.log = append(w.log, recorded{Method: r.Method, Path: strings.ToLower(r.URL.Path), Query: r.URL.RawQuery, MessageId: id, Body: body})
	}
	fault, next := w.fault, w.next
	key := r.Method + " " + r.URL.Path
	if w.inFlight == nil {
		w.inFlight = map[string]int{}
	}
	if w.peak == nil {
		w.peak = map[string]int{}
	}
	w.inFlight[key]++
	w.peak[key] = max(w.peak[key], w.inFlight[key])
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.inFlight[key]--
		w.mu.Unlock()
	}()
	kind := pass
	if fault != nil && r.URL.Path != "/oauth/token" {
		kind = fault(r, body)
	}
	switch kind {
	case dropBefore:
		panic(http.ErrAbortHandler) // closes the connection: the client sees a network error
	case hangAfter:
		next.ServeHTTP(httptest.NewRecorder(), r)
		w.mu.Lock()
		hang := w.onHang
		w.onHang = nil
		w.mu.Unlock()
		if hang != nil {
			hang()
		}
		<-r.Context().Done()
		panic(http.ErrAbortHandler)
	case dropAfter:
		next.ServeHTTP(httptest.NewRecorder(), r)
		panic(http.ErrAbortHandler)
	case serverError:
		rw.WriteHeader(http.StatusServiceUnavailable)
		return
	case serverRefusal:
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(rw).Encode(map[string]any{"Code": 3000, "Message": "The customer's desk is closed", "MessageId": id})
		return
	}
	next.ServeHTTP(rw, r)
}

// wrapNext puts f's handler between the wire and the service.
func (w *wire) wrapNext(f func(http.Handler) http.Handler) {
	w.mu.Lock()
	w.next = f(w.next)
	w.mu.Unlock()
}

func (w *wire) setFault(f func(r *http.Request, body []byte) faultKind) {
	w.mu.Lock()
	w.fault = f
	w.mu.Unlock()
}

// calls returns the recorded requests whose path ends with suffix.
func (w *wire) calls(method, suffix string) []recorded {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []recorded
	for _, c := range w.log {
		if c.Method == method && strings.HasSuffix(strings.TrimRight(c.Path, "/"), strings.ToLower(suffix)) {
			out = append(out, c)
		}
	}
	return out
}

func (w *wire) reset() {
	w.mu.Lock()
	w.log = nil
	w.peak = map[string]int{}
	w.mu.Unlock()
}

// inFlightNow is how many requests to method path are being answered.
func (w *wire) inFlightNow(method, path string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.inFlight[method+" "+path]
}

// peakInFlight is the most requests to method path (exact, as sent) that
// were being answered at the same moment since the last reset.
func (w *wire) peakInFlight(method, path string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peak[method+" "+path]
}

// service is a sandbox behind a recording wire, with a client for it.
type service struct {
	sb     *sandboxtest.Sandbox
	wire   *wire
	srv    *httptest.Server
	client *api.Client
	tokens *api.ClientCredentials
}

// newService starts a sandbox of n generated work orders that does not
// de-duplicate by MessageId: the real service is not documented to, so the
// outbox must never rely on it. The wire in front of it records attempts
// (sb.Received counts what reached the service).
func newService(t testing.TB, n int) *service {
	t.Helper()
	w := &wire{}
	sb := sandboxtest.New(t, sandboxtest.Seed(7), sandboxtest.WorkOrders(n), sandboxtest.RealClock(), sandboxtest.NoMessageIdDedup(),
		sandboxtest.Wrap(func(next http.Handler) http.Handler { w.next = next; return w }))
	return &service{sb: sb, wire: w, srv: sb.Server, client: sb.Client, tokens: sb.Tokens}
}

// syncedStore is a fresh replica on the sandbox's clock, synced once.
func syncedStore(t testing.TB, svc *service) *Store {
	t.Helper()
	s, _ := openTest(t)
	s.now = svc.sb.Clock().Now
	if err := NewSyncer(s, svc.client, SyncOptions{}).SyncNow(context.Background()); err != nil {
		t.Fatalf("first sync: %v", err)
	}
	svc.wire.reset()
	return s
}

// pick finds a synced work order matching ok.
func pick(t testing.TB, s *Store, ok func(*api.WorkOrder) bool) *api.WorkOrder {
	t.Helper()
	rows, err := s.List(context.Background(), ListQuery{Sort: SortNumber})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		wo, err := s.WorkOrder(context.Background(), r.Id)
		if err != nil {
			t.Fatal(err)
		}
		if ok(wo) {
			return wo
		}
	}
	t.Fatal("no work order in the sandbox world fits the test")
	return nil
}

func status(st api.WorkOrderStatus) func(*api.WorkOrder) bool {
	return func(wo *api.WorkOrder) bool { return wo.Status == st && !wo.IsPreBilled }
}

func (svc *service) remote(t testing.TB, id int64) *api.WorkOrder {
	t.Helper()
	wo, err := svc.client.GetWorkOrder(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return wo
}
