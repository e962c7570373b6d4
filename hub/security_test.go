package hub

// The hub's security tests (here, in abuse_test.go and beside what they
// guard elsewhere) are named TestSecurity...: `go test -run Security ./...`
// runs them all.

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// A staff token reaches the service's API through the hub, and nothing
// else on the service's host: a path that climbs out of /api/ with ".."
// (plain or percent-encoded) is refused, and never sent with the
// company's token.
func TestSecurityAPathOutOfTheAPIIsRefused(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	var mu sync.Mutex
	var strays []string
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if p := r.URL.Path; (!strings.HasPrefix(p, "/api/") && p != "/oauth/token") || strings.Contains(p, "..") {
			mu.Lock()
			strays = append(strays, r.Method+" "+r.URL.RequestURI())
			mu.Unlock()
		}
		return false
	})
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/../private/keys"},
		{http.MethodGet, "/api/%2e%2e/private/keys"},
		{http.MethodGet, "/api/attachments/../../private/keys?workOrderId=1"},
		{http.MethodPut, "/api/workOrder/../../admin/reset"},
		{http.MethodGet, "/api/./messages/../../../x"},
	} {
		req, err := http.NewRequest(c.method, a.srv.URL+c.path, strings.NewReader(`{"WorkOrderId":1}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s: HTTP %d, want 404", c.method, c.path, resp.StatusCode)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(strays) > 0 {
		t.Fatalf("the service was called outside its API with the company's token: %q", strays)
	}
}

// serviceURL keeps every call under the service's /api/, below its base
// path, whatever path it is handed.
func TestSecurityServiceURLStaysUnderTheAPI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ base, path, query, want string }{
		{"https://svc.example/Direct/", "/api/workOrder/accept", "", "https://svc.example/Direct/api/workOrder/accept"},
		{"https://svc.example/Direct/", "api/messages", "workOrderId=7", "https://svc.example/Direct/api/messages?workOrderId=7"},
		{"http://127.0.0.1:9/", "/API/invoice", "", "http://127.0.0.1:9/API/invoice"},
		{"https://svc.example/Direct/", "/Direct/api/invoice", "", "https://svc.example/Direct/api/invoice"},
		{"https://svc.example/Direct/", "/direct/../api/invoice", "", ""},
		{"https://svc.example/Direct/", "/api/../oauth/token", "", ""},
		{"https://svc.example/Direct/", "/api/x/../../y", "", ""},
		{"https://svc.example/Direct/", "/api/./messages", "", ""},
		{"https://svc.example/Direct/", "/private", "", ""},
		{"https://svc.example/Direct/", "/apix/y", "", ""},
	} {
		u, err := serviceURL(c.base, &url.URL{Path: c.path, RawQuery: c.query})
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s under %s: %s, want it refused", c.path, c.base, u)
		case c.want != "" && (err != nil || u.String() != c.want):
			t.Errorf("%s under %s: %v %v, want %s", c.path, c.base, u, err, c.want)
		}
	}
}

// A person disabled while their instance's event listener is away (it
// reconnects after a database restart, say) misses the notice that ends
// their streams: the stream's own heartbeat ends it then.
func TestSecurityADisabledPersonsStreamEndsWithoutTheNotice(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	const heartbeat = 100 * time.Millisecond
	a := o.start(func(opts *Options) { opts.StreamHeartbeat = heartbeat })
	_, creds := o.person(a, "Ana Ruiz")
	stream := openStream(t, a, creds, "")
	// Disabled behind the listener's back: no NOTIFY.
	if _, err := o.db.Pool.Exec(context.Background(), `UPDATE people SET disabled = true WHERE client_id = $1`, creds.ClientId); err != nil {
		t.Fatal(err)
	}
	select {
	case _, open := <-stream:
		if open {
			t.Fatal("an event reached a disabled person's stream")
		}
	case <-time.After(heartbeat + 10*time.Second):
		t.Fatalf("the disabled person's stream was still open %v after a heartbeat was due", 10*time.Second)
	}
}

// Writes a person queued behind a slow one on the same work order do not
// go to the service once the person is disabled meanwhile: their turn
// comes, and they are refused as their token now is.
func TestSecurityQueuedWritesOfADisabledPersonAreNotSent(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	release := make(chan struct{})
	var writes atomic.Int64
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if isWrite(r) && writes.Add(1) == 1 {
			<-release
		}
		return false
	})
	first := make(chan error, 1)
	go func() { first <- ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}) }()
	waitFor(t, 10*time.Second, "the accept at the service", func() bool { return writes.Load() == 1 })
	queued := make(chan error, 1)
	go func() {
		queued <- ana.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "queued behind the accept"})
	}()
	waitFor(t, 10*time.Second, "the message waiting for its turn", func() bool { return a.hub.WritesWaiting() == 1 })
	if _, err := o.db.DisablePerson(ctx, creds.ClientId); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("the accept already with the service: %v", err)
	}
	// The desktop's client takes the 401 for an expired token and asks for
	// a new one, which is refused.
	if err := <-queued; !errors.Is(err, api.ErrCredentialsRejected) && !api.IsUnauthorized(err) {
		t.Fatalf("the queued message of a person disabled meanwhile: %v, want signed out", err)
	}
	if n := writes.Load(); n != 1 {
		t.Fatalf("%d writes reached the service, want only the accept", n)
	}
}
