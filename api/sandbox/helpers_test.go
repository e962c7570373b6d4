package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// fixedNow is the base of every test sandbox's clock: time stands still
// unless a test advances it, so nothing depends on how fast the machine is.
var fixedNow = time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC)

// testKey is shared: generating RSA-2048 per test would dominate the run.
var testKey = sync.OnceValue(func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
})

type env struct {
	t      *testing.T
	sb     *Sandbox
	srv    *httptest.Server
	info   ConnectionInfo
	creds  *api.ClientCredentials
	client *api.Client
	ctx    context.Context
	used   map[int64]bool
}

func newEnv(t *testing.T, mods ...func(*Options)) *env {
	t.Helper()
	o := Options{
		Seed: 7, Now: func() time.Time { return fixedNow }, Key: testKey(),
		RetryIntervals: []time.Duration{5 * time.Millisecond, 10 * time.Millisecond},
	}
	for _, m := range mods {
		m(&o)
	}
	sb, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	info := sb.InfoFor(srv.URL)
	creds := api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret,
		HTTPClient: srv.Client(), Now: sb.Clock().Now,
	})
	client, err := api.NewClient(info.BaseURL, srv.Client(), creds)
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, sb: sb, srv: srv, info: info, creds: creds, client: client, ctx: context.Background(), used: map[int64]bool{}}
}

// setup picks an unused work order of the named customer received after
// version 4.1, puts it in status and lets fn adjust it, as a fixture.
func (e *env) setup(customer string, status api.WorkOrderStatus, fn func(o *order)) int64 {
	e.t.Helper()
	e.sb.mu.Lock()
	defer e.sb.mu.Unlock()
	ids := make([]int64, 0, len(e.sb.st.orders))
	for id := range e.sb.st.orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		o := e.sb.st.orders[id]
		if e.used[id] || o.cust.Customer.Name != customer || o.wo.Created.Before(api.Version41Date) {
			continue
		}
		e.used[id] = true
		o.wo.Status = status
		o.wo.IsPreBilled = false
		if fn != nil {
			fn(o)
		}
		return id
	}
	e.t.Fatalf("no work order of %s left", customer)
	return 0
}

// editableStep sets up a checked-in work order of customer whose first
// procedure is neither read-only nor N/A, empties that procedure's step-th
// step of attachments, and returns the order's id and the step.
func (e *env) editableStep(customer string, step int) (int64, api.StepRef) {
	e.t.Helper()
	var ref api.StepRef
	id := e.setup(customer, api.StatusCheckedIn, func(o *order) {
		e.sb.st.gen.addProcedures(o, 0, fixedNow)
		p := &o.wo.WorkDetails.Procedures[0]
		p.IsReadOnly, p.IsMarkedNa = false, false
		ref = api.StepRef{WorkOrderId: o.wo.WorkOrderId, ProcedureId: p.Id, StepId: p.Steps[step].Id}
		e.sb.st.steps[ref.StepId] = nil
	})
	return id, ref
}

// read returns a copy of a work order's state.
func (e *env) read(id int64) api.WorkOrder {
	e.t.Helper()
	e.sb.mu.RLock()
	defer e.sb.mu.RUnlock()
	w, err := copyWorkOrder(&e.sb.st.orders[id].wo)
	if err != nil {
		e.t.Fatal(err)
	}
	return w
}

func (e *env) token() string {
	e.t.Helper()
	tok, err := e.creds.Token(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// raw sends a request with a valid token; body is JSON-encoded unless it is
// an io.Reader or nil.
func (e *env) raw(method, path string, body any) (int, []byte) {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case io.Reader:
		r = b
	default:
		j, _ := json.Marshal(b)
		r = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, r)
	req.Header.Set("Authorization", "Bearer "+e.token())
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func errBody(t *testing.T, b []byte) api.Error {
	t.Helper()
	var e api.Error
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("error body %q is not the service's error shape: %v", b, err)
	}
	return e
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	if !api.HasCode(err, code) {
		t.Fatalf("want service error %d, got %v", code, err)
	}
}

// receiver is a notification endpoint that fails its first failFirst calls.
type receiver struct {
	srv       *httptest.Server
	mu        sync.Mutex
	failFirst int
	calls     int
	stamps    []time.Time // when each call arrived, failed ones included
	got       []delivery
}

type delivery struct {
	header http.Header
	body   []byte
	event  api.Event
}

func newReceiver(t *testing.T, failFirst int) *receiver {
	r := &receiver{failFirst: failFirst}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls++
		r.stamps = append(r.stamps, time.Now())
		if r.calls <= r.failFirst {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		ev, err := api.ParseEvent(b)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: b, event: ev})
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// wait polls (with a deadline, no fixed sleeps) for a delivery matching ok.
func (r *receiver) wait(t *testing.T, action string, woID int64) delivery {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		for _, d := range r.got {
			if d.event.Header.Action == action && (woID == 0 || d.event.Header.WorkOrderId == woID) {
				r.mu.Unlock()
				return d
			}
		}
		r.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("no %s notification for %d arrived", action, woID)
	return delivery{}
}

func (r *receiver) actions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, d := range r.got {
		out = append(out, d.event.Header.Action)
	}
	return out
}

func contains(s, sub string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(sub)) }

func itoa(n int64) string { return strconvFormat(n) }

func strconvFormat(n int64) string { return strconv.FormatInt(n, 10) }

// sleepBriefly is the poll step of deadline loops.
func sleepBriefly() { time.Sleep(2 * time.Millisecond) }

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// completeCheckOut is a check-out of work order id carrying everything its
// customer requires: the first repair code and the first allowed value (or
// a name) for each question.
func (e *env) completeCheckOut(id int64) *api.CheckOutRequest {
	e.t.Helper()
	e.sb.mu.RLock()
	defer e.sb.mu.RUnlock()
	p := e.sb.st.orders[id].cust
	r := &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: id}}
	if len(p.RepairCodes) > 0 {
		code := p.RepairCodes[0]
		r.RepairInfo = &code
	}
	for _, d := range p.CustomFields {
		v := "Elena Vasquez"
		if len(d.Values) > 0 {
			v = d.Values[0]
		}
		r.CustomFields = append(r.CustomFields, api.CustomField{Id: d.Id, Value: v})
	}
	return r
}
