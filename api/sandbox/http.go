package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

type routeKind int

const (
	kindRead     routeKind = iota // GET: shared lock
	kindReadBody                  // POST search: a read with a JSON body
	kindMutate                    // PUT/POST/DELETE: exclusive lock, idempotent by MessageId
	kindUpload                    // multipart: streamed before the lock is taken
)

type route struct {
	kind routeKind
	fn   func(c *call) (any, error)
}

// endpoint is one route the sandbox answers. Each area's file declares its
// own beside their handlers (see endpoints), so the oracle of an action is
// one file.
type endpoint struct {
	method string
	path   string // as normalizePath leaves it
	kind   routeKind
	fn     func(c *call) (any, error)
}

// routeTable is every endpoint, by path and method.
var routeTable = map[string]map[string]route{}

// endpoints adds es to the route table, at package initialization.
func endpoints(es ...endpoint) bool {
	for _, e := range es {
		if routeTable[e.path] == nil {
			routeTable[e.path] = map[string]route{}
		}
		if _, dup := routeTable[e.path][e.method]; dup {
			panic("sandbox: " + e.method + " " + e.path + " is declared twice")
		}
		routeTable[e.path][e.method] = route{e.kind, e.fn}
	}
	return true
}

// call is one API request being answered.
type call struct {
	s     *Sandbox
	r     *http.Request
	w     http.ResponseWriter
	path  string // the route, as serve.Route names it
	body  []byte
	msgID string
	now   time.Time
}

func (s *Sandbox) routes() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := serve.Route(r.URL.EscapedPath())
		switch {
		case p == "/oauth/token":
			s.handleToken(w, r)
			return
		case strings.HasPrefix(p, "/files/"):
			s.serveFile(w, r)
			return
		case p == "/_sandbox" || strings.HasPrefix(p, "/_sandbox/"):
			s.serveControl(w, r, p)
			return
		}
		methods, ok := routeTable[p]
		if !ok {
			serve.WriteError(w, serve.NotFound(), serve.MessageId(r.URL.Query(), nil))
			return
		}
		rt, ok := methods[r.Method]
		if !ok {
			var allow []string
			for m := range methods {
				allow = append(allow, m)
			}
			w.Header().Set("Allow", strings.Join(allow, ", "))
			serve.WriteError(w, &api.Error{StatusCode: http.StatusMethodNotAllowed, Message: "The requested resource does not support http method '" + r.Method + "'."}, serve.MessageId(r.URL.Query(), nil))
			return
		}
		if !s.authorized(r) {
			serve.Denied(w, serve.MessageId(r.URL.Query(), nil))
			return
		}
		s.serveAPI(w, r, p, rt)
	})
}

func (s *Sandbox) serveAPI(w http.ResponseWriter, r *http.Request, p string, rt route) {
	c := &call{s: s, r: r, w: w, path: p, msgID: serve.MessageId(r.URL.Query(), nil)}
	if rt.kind == kindUpload {
		rt.fn(c) // writes its own answer: it streams before locking
		return
	}
	if r.Method != http.MethodGet {
		b, bad := serve.ReadBody(w, r)
		if bad != nil {
			serve.WriteError(w, bad, c.msgID)
			return
		}
		c.body = b
		c.msgID = serve.MessageId(r.URL.Query(), b)
	}
	// The service echoes the caller's MessageId; one is made up when the
	// caller sent none (service-facts §3 leaves a missing id [UNK]).
	given := c.msgID != ""
	if !given {
		c.msgID = uuid.NewString()
	}
	switch rt.kind {
	case kindRead, kindReadBody:
		buf := getBuffer()
		defer putBuffer(buf)
		s.mu.RLock()
		c.now = s.clock.Now()
		v, err := rt.fn(c)
		status := c.encode(buf, v, err)
		s.mu.RUnlock()
		serve.WriteRaw(w, status, s.speak(p, status, buf.Bytes()))
	case kindMutate:
		key := r.Method + " " + p + " " + c.msgID
		buf := getBuffer()
		defer putBuffer(buf)
		dedup := given && !s.opts.NoMessageIdDedup
		s.mu.Lock()
		if dedup {
			if b, ok := s.idem.get(key); ok {
				s.mu.Unlock()
				serve.WriteRaw(w, http.StatusOK, b)
				return
			}
		}
		c.now = s.clock.Now()
		v, err := rt.fn(c)
		status := c.encode(buf, v, err)
		if dedup && status == http.StatusOK {
			s.idem.put(key, bytes.Clone(buf.Bytes()))
		}
		s.mu.Unlock()
		serve.WriteRaw(w, status, buf.Bytes())
	}
}

// Answers are encoded into pooled buffers: a batch of 50 work orders is
// ~100 KB, and not re-growing a fresh slice per call keeps the garbage
// collector (which must walk the whole world when it runs) out of the way.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 4<<20 {
		return // a huge search answer: let it go rather than pin it
	}
	b.Reset()
	buffers.Put(b)
}

// encode writes a handler's result into buf like answer and returns the status.
func (c *call) encode(buf *bytes.Buffer, v any, err error) int {
	if err == nil {
		if v == nil {
			v = map[string]string{"MessageId": c.msgID}
		}
		if json.NewEncoder(buf).Encode(v) == nil {
			return http.StatusOK
		}
		buf.Reset()
		err = &api.Error{StatusCode: http.StatusInternalServerError, Message: "encoding the answer failed"}
	}
	status, b := c.answer(nil, err)
	buf.Write(b)
	return status
}

// answer encodes a handler's result: nil becomes {"MessageId"}, an
// *api.Error its status and error body.
func (c *call) answer(v any, err error) (int, []byte) {
	if err != nil {
		var e *api.Error
		if !errors.As(err, &e) {
			e = &api.Error{StatusCode: http.StatusInternalServerError, Message: "internal error: " + err.Error()}
		}
		return serve.ErrorBody(e, c.msgID)
	}
	if v == nil {
		v = map[string]string{"MessageId": c.msgID}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return serve.ErrorBody(&api.Error{StatusCode: http.StatusInternalServerError, Message: "encoding the answer failed"}, c.msgID)
	}
	return http.StatusOK, b
}

// envelope is the usual success answer {"<key>": v, "MessageId": id}.
func (c *call) envelope(key string, v any) map[string]any {
	return map[string]any{key: v, "MessageId": c.msgID}
}

// business is the service's answer to an action its rules refuse (codes
// 3xxx, service-facts §10).
func business(code int, format string, args ...any) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// decode reads the JSON body into v; a malformed body is a 2100.
func (c *call) decode(v any) error {
	if bad := serve.DecodeJSON(c.body, v); bad != nil {
		return bad
	}
	return nil
}

// query is a query parameter, its name matched as ASP.NET binds it.
func (c *call) query(name string) string { return serve.Query(c.r.URL.Query(), name) }

func (c *call) queryID(name string) (int64, error) {
	n, bad := serve.QueryID(c.r.URL.Query(), name)
	if bad != nil {
		return 0, bad
	}
	return n, nil
}

// order finds a work order the contractor may act on: unknown and recalled
// ones are both 3005 ("stop acting on it").
func (c *call) order(id int64) (*order, error) {
	return c.s.st.actionable(id)
}

// queryOrder is order for the workOrderId of a read's query string.
func (c *call) queryOrder() (*order, error) {
	id, err := c.queryID("workOrderId")
	if err != nil {
		return nil, err
	}
	return c.order(id)
}

// queryInvoiceOrder is invoiceOrder for the workOrderId of the query string.
func (c *call) queryInvoiceOrder() (*order, error) {
	id, err := c.queryID("workOrderId")
	if err != nil {
		return nil, err
	}
	return c.invoiceOrder(id)
}

func (s *store) actionable(id int64) (*order, error) {
	o, ok := s.orders[id]
	if !ok || id <= 0 {
		return nil, business(api.CodeNotFoundOrRecalled, "Work order %d was not found.", id)
	}
	if o.wo.Status == api.StatusRecalled {
		return nil, business(api.CodeNotFoundOrRecalled, "Work order %s was recalled by the customer.", o.wo.WorkOrderNumber)
	}
	return o, nil
}

// wrongStatus is the 3001 answer for an operation outside its states.
func wrongStatus(o *order, op string, allowed ...api.WorkOrderStatus) *api.Error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return business(api.CodeWrongStatus, "Work order %s is %s; %s is only possible when it is %s.",
		o.wo.WorkOrderNumber, o.wo.Status, op, strings.Join(names, " or "))
}

func statusIn(s api.WorkOrderStatus, allowed ...api.WorkOrderStatus) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

// idemCache remembers the answers of recent successful mutations by method,
// path and MessageId. Assumption: only successes are remembered, so a
// request refused for a transient state can be retried with the same id;
// the service documents MessageId only as a correlation id.
type idemCache struct {
	answers map[string][]byte
	ring    []string
	next    int
}

const idemSize = 4096

func (c *idemCache) get(key string) ([]byte, bool) {
	b, ok := c.answers[key]
	return b, ok
}

func (c *idemCache) put(key string, b []byte) {
	if c.answers == nil {
		c.answers = make(map[string][]byte, idemSize)
		c.ring = make([]string, idemSize)
	}
	if old := c.ring[c.next]; old != "" {
		delete(c.answers, old)
	}
	c.ring[c.next] = key
	c.next = (c.next + 1) % idemSize
	c.answers[key] = b
}

// linkBase is the scheme and host the caller reached us by, for absolute
// download links that work behind httptest or any port.
func linkBase(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: r.Host}).String()
}
