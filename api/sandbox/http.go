package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
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
	body  []byte
	msgID string
	now   time.Time
}

func (s *Sandbox) routes() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := normalizePath(r.URL.Path)
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
			writeError(w, &api.Error{StatusCode: http.StatusNotFound, Message: "No HTTP resource was found that matches the request URI."}, r.URL.Query().Get("messageId"))
			return
		}
		rt, ok := methods[r.Method]
		if !ok {
			var allow []string
			for m := range methods {
				allow = append(allow, m)
			}
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, &api.Error{StatusCode: http.StatusMethodNotAllowed, Message: "The requested resource does not support http method '" + r.Method + "'."}, r.URL.Query().Get("messageId"))
			return
		}
		if !s.authorized(r) {
			// The real service's status and body for auth failures are not
			// published (service-facts §10): 401 in the usual error shape.
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			writeError(w, &api.Error{StatusCode: http.StatusUnauthorized, Message: "Authorization has been denied for this request."}, r.URL.Query().Get("messageId"))
			return
		}
		s.serveAPI(w, r, p, rt)
	})
}

// normalizePath lower-cases the path (the service is ASP.NET and matches
// routes case-insensitively), drops a trailing slash and the /Direct prefix
// of the real host.
func normalizePath(p string) string {
	p = strings.ToLower(p)
	if p != "/" {
		p = strings.TrimRight(p, "/")
	}
	if strings.HasPrefix(p, "/direct/") {
		p = p[len("/direct"):]
	}
	return p
}

// maxJSONBody caps JSON request bodies; invoices with many lines stay far below.
const maxJSONBody = 4 << 20

func (s *Sandbox) serveAPI(w http.ResponseWriter, r *http.Request, p string, rt route) {
	c := &call{s: s, r: r, w: w, msgID: r.URL.Query().Get("messageId")}
	if rt.kind == kindUpload {
		rt.fn(c) // writes its own answer: it streams before locking
		return
	}
	if r.Method != http.MethodGet {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
		if err != nil {
			writeError(w, tooLarge("the request body"), c.msgID)
			return
		}
		c.body = b
		var env struct{ MessageId string }
		if len(b) > 0 && json.Unmarshal(b, &env) == nil && env.MessageId != "" {
			c.msgID = env.MessageId
		}
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
		writeRaw(w, status, buf.Bytes())
	case kindMutate:
		key := r.Method + " " + p + " " + c.msgID
		buf := getBuffer()
		defer putBuffer(buf)
		dedup := given && !s.opts.NoMessageIdDedup
		s.mu.Lock()
		if dedup {
			if b, ok := s.idem.get(key); ok {
				s.mu.Unlock()
				writeRaw(w, http.StatusOK, b)
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
		writeRaw(w, status, buf.Bytes())
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
		return errorBody(e, c.msgID)
	}
	if v == nil {
		v = map[string]string{"MessageId": c.msgID}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return errorBody(&api.Error{StatusCode: http.StatusInternalServerError, Message: "encoding the answer failed"}, c.msgID)
	}
	return http.StatusOK, b
}

// envelope is the usual success answer {"<key>": v, "MessageId": id}.
func (c *call) envelope(key string, v any) map[string]any {
	return map[string]any{key: v, "MessageId": c.msgID}
}

func errorBody(e *api.Error, msgID string) (int, []byte) {
	status := e.StatusCode
	if status == 0 {
		status = http.StatusBadRequest
	}
	out := *e
	out.MessageId = msgID
	if len(out.Message) > 1000 { // the documented cap of Message
		out.Message = out.Message[:1000]
	}
	b, _ := json.Marshal(&out)
	return status, b
}

func writeError(w http.ResponseWriter, e *api.Error, msgID string) {
	if msgID == "" {
		msgID = uuid.NewString()
	}
	status, b := errorBody(e, msgID)
	writeRaw(w, status, b)
}

// Error constructors, one per family of service-facts §10.

func invalid(property, format string, args ...any) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: api.CodeInvalidModel,
		Message:          "The request is invalid.",
		ValidationErrors: []api.ValidationError{{Type: "InvalidValue", Property: property, Message: fmt.Sprintf(format, args...)}}}
}

func business(code int, format string, args ...any) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// tooLarge is a validation error like any other (service-facts §10: 400
// with the error body), not a bare 413, so clients show its message.
func tooLarge(what string) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: api.CodeInvalidModel,
		Message:          "The request is invalid.",
		ValidationErrors: []api.ValidationError{{Type: "TooLarge", Message: what + " is larger than the 20 MB limit"}}}
}

// decode reads the JSON body into v; a malformed body is a 2100.
func (c *call) decode(v any) error {
	if len(c.body) == 0 {
		return invalid("", "the request body is empty")
	}
	if err := json.Unmarshal(c.body, v); err != nil {
		return invalid("", "the request body is not valid: %v", err)
	}
	return nil
}

// query returns a query parameter, matching its name case-insensitively as
// ASP.NET model binding does.
func (c *call) query(name string) string {
	q := c.r.URL.Query()
	if v := q.Get(name); v != "" {
		return v
	}
	for k, v := range q {
		if strings.EqualFold(k, name) && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

func (c *call) queryID(name string) (int64, error) {
	v := c.query(name)
	if v == "" {
		return 0, invalid(name, "%s is required", name)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, invalid(name, "%s must be a positive integer", name)
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
