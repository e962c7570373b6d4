package storage

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// fault is what the proxy does to one request.
type fault int

const (
	forward     fault = iota
	answer500         // HTTP 500 with the service's error shape; nothing applied
	answer401         // HTTP 401; nothing applied
	hang              // applied, then no answer until the client gives up
	truncated         // applied, then half the answer and the line drops
	invalidJSON       // applied, then 200 with a body that is not JSON
	resetBefore       // the connection drops before the service sees it
)

// faultProxy sits between the client and the sandbox on a real loopback
// connection and does to each request what plan says; it counts token
// requests and records every attempt's MessageId. What got past it is
// recorded at the sandbox (sb.Received), which applies every request it
// gets, repeats included, as the real service may.
type faultProxy struct {
	t    testing.TB
	sb   *sandboxtest.Sandbox
	next http.Handler
	done chan struct{} // closed at cleanup: frees hung handlers

	mu      sync.Mutex
	plan    func(r *http.Request, token bool) fault
	tokens  int
	actions map[string][]string // "METHOD path" → MessageIds, in order
}

func newFaultProxy(t testing.TB, workOrders int) *faultProxy {
	t.Helper()
	p := &faultProxy{t: t, done: make(chan struct{}), actions: map[string][]string{}}
	p.sb = sandboxtest.New(t, sandboxtest.Seed(11), sandboxtest.WorkOrders(workOrders), sandboxtest.RealClock(), sandboxtest.NoMessageIdDedup(),
		sandboxtest.Wrap(func(next http.Handler) http.Handler { p.next = next; return p }))
	t.Cleanup(func() { close(p.done) }) // before the server's close, which waits for hung handlers
	return p
}

// callTimeout stands for the 60 s the app's HTTP client allows a call
// (backend.go), shortened so hangs cost the test little.
const callTimeout = 1500 * time.Millisecond

// client is a fresh client through the proxy: its own token source, so
// its first call asks for a token.
func (p *faultProxy) client(t testing.TB) (*api.Client, sandbox.ConnectionInfo) {
	t.Helper()
	return p.sb.NewClient(&http.Client{Timeout: callTimeout}), p.sb.Info
}

func (p *faultProxy) set(plan func(r *http.Request, token bool) fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plan = plan
}

func (p *faultProxy) tokenRequests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tokens
}

func (p *faultProxy) resetCounts() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokens = 0
	p.actions = map[string][]string{}
}

// sent returns the MessageIds of every attempt at method path.
func (p *faultProxy) sent(method, path string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.actions[method+" "+path]...)
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token := strings.HasSuffix(strings.ToLower(r.URL.Path), "/oauth/token")
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	p.mu.Lock()
	if token {
		p.tokens++
	} else if r.Method != http.MethodGet {
		var env struct{ MessageId string }
		json.Unmarshal(body, &env)
		if env.MessageId == "" {
			env.MessageId = r.URL.Query().Get("messageId")
		}
		key := r.Method + " " + r.URL.Path
		p.actions[key] = append(p.actions[key], env.MessageId)
	}
	plan := p.plan
	p.mu.Unlock()
	f := forward
	if plan != nil {
		f = plan(r, token)
	}
	switch f {
	case forward:
		p.next.ServeHTTP(w, r)
	case answer500:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"Code":0,"Message":"An error has occurred."}`)
	case answer401:
		w.WriteHeader(http.StatusUnauthorized)
	case resetBefore:
		panic(http.ErrAbortHandler)
	case hang:
		p.next.ServeHTTP(httptest.NewRecorder(), r)
		select {
		case <-r.Context().Done():
		case <-p.done:
		}
		panic(http.ErrAbortHandler)
	case truncated, invalidJSON:
		rec := httptest.NewRecorder()
		p.next.ServeHTTP(rec, r)
		out := rec.Body.Bytes()
		if f == invalidJSON {
			out = []byte(`{"MessageId": "x", <html>Bad gateway</html>`)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.WriteHeader(rec.Code)
		if f == truncated {
			w.Write(out[:len(out)/2])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		w.Write(out)
	}
}
