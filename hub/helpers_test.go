package hub

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/hub/pgtest"
	"golang.org/x/crypto/bcrypt"
)

var cluster *pgtest.Cluster

func TestMain(m *testing.M) {
	bcryptCost = bcrypt.MinCost
	// The tests spend their time waiting on the network, PostgreSQL and
	// their own fault timeouts far more than on a core: without -parallel,
	// run more of them at once than go test's one per core (each holds
	// about 7 of the cluster's 300 connections at its peak). Those that
	// time an answer stay serial (no t.Parallel).
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(min(16, max(8, 4*runtime.GOMAXPROCS(0)))))
	}
	if os.Getenv("WORKDESK_STALL_ADDR") != "" {
		// BenchmarkStalledSockets's attacker (TestStallHelper) needs no
		// database.
		os.Exit(m.Run())
	}
	code := pgtest.Main(m, &cluster)
	if hubBinDir != "" {
		os.RemoveAll(hubBinDir)
	}
	os.Exit(code)
}

// migratedTemplate is the database every test's is copied from: the hub's
// schema migrated once, not once per test.
var migratedTemplate = sync.OnceValues(func() (string, error) {
	const name = "hub_migrated"
	return name, cluster.Template(name, func(url string) error {
		db, err := OpenDB(context.Background(), url)
		if err != nil {
			return err
		}
		db.Close()
		return nil
	})
})

// officeDB is a fresh database for one test, its schema migrated.
func officeDB(t testing.TB) string {
	t.Helper()
	if cluster == nil {
		return pgtest.Require(t, cluster) // skips, or fails with PGTEST_REQUIRED
	}
	name, err := migratedTemplate()
	if err != nil {
		t.Fatal(err)
	}
	return cluster.NewDBFrom(t, name)
}

// serviceKey signs every test's tokens and notifications: an RSA key takes
// a while to make under -race, and no test needs one of its own (each
// sandbox has its own client id and URL).
var serviceKey = sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) })

// office is one test's world: the sandbox as the service, one database,
// and the hub instances started on it.
type office struct {
	t    testing.TB
	sb   *sandbox.Sandbox
	svc  *httptest.Server
	info sandbox.ConnectionInfo
	url  string // the database
	db   *DB
	// writes counts the writes that reached the service (every request,
	// whatever the service then makes of it).
	writes atomic.Int64
	// intercept, when set, sees each call to the service first and answers
	// it in the service's place by returning true.
	intercept atomic.Pointer[func(http.ResponseWriter, *http.Request) bool]
}

func newOffice(t testing.TB, opts sandbox.Options) *office {
	t.Helper()
	return newOfficeAt(t, officeDB(t), opts)
}

// newOfficeAt is newOffice on the database at url (a cluster of the
// test's own, say, that it stops and starts).
func newOfficeAt(t testing.TB, url string, opts sandbox.Options) *office {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	if opts.Key == nil {
		key, err := serviceKey()
		if err != nil {
			t.Fatal(err)
		}
		opts.Key = key
	}
	// The service's de-duplication by MessageId is undocumented: the hub
	// must never lean on it, so its tests run against a service that
	// applies every repeat, and a write sent twice shows twice.
	opts.NoMessageIdDedup = true
	sb, err := sandbox.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	o := &office{t: t, sb: sb, url: url}
	o.svc = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && r.Method != http.MethodGet && !strings.HasSuffix(r.URL.Path, "/search") {
			o.writes.Add(1)
		}
		if f := o.intercept.Load(); f != nil && (*f)(w, r) {
			return
		}
		sb.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(func() { o.svc.Close(); sb.Close() })
	db, err := OpenDB(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	o.db, o.info = db, sb.InfoFor(o.svc.URL)
	return o
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// instance is one running hub on its own database pools and HTTP server.
type instance struct {
	hub    *Hub
	srv    *httptest.Server
	db     *DB
	served served
}

// served follows the requests an instance serves, so a test can wait for
// the hub to notice that a desktop hung up, or to be done with a request.
type served struct {
	mu    sync.Mutex
	calls []*servedCall
}

// servedCall is one request the hub serves or served.
type servedCall struct {
	method, path string
	// ctx is the request's: done once the desktop hung up (or the hub answered).
	ctx context.Context
	// done closes when the hub's handler has returned.
	done chan struct{}
}

func (s *served) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &servedCall{method: r.Method, path: r.URL.Path, ctx: r.Context(), done: make(chan struct{})}
		s.mu.Lock()
		s.calls = append(s.calls, c)
		s.mu.Unlock()
		defer close(c.done)
		next.ServeHTTP(w, r)
	})
}

// last is the newest request to path the instance has begun to serve.
func (s *served) last(t testing.TB, method, path string) *servedCall {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.calls) - 1; i >= 0; i-- {
		if c := s.calls[i]; c.method == method && serve.Route(c.path) == serve.Route(path) {
			return c
		}
	}
	t.Errorf("the hub never served %s %s", method, path)
	return nil
}

// count is how many requests to path the instance has begun to serve.
func (s *served) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if serve.Route(c.path) == serve.Route(path) {
			n++
		}
	}
	return n
}

// hungUp waits until the hub has noticed that the desktop making the call
// hung up. It may run on any goroutine: it reports with t.Error.
func (c *servedCall) hungUp(t testing.TB) {
	t.Helper()
	if c == nil {
		return
	}
	select {
	case <-c.ctx.Done():
	case <-time.After(time.Minute):
		t.Errorf("the hub did not notice within a minute that the desktop's %s %s hung up", c.method, c.path)
	}
}

// finished waits until the hub is done with the call: whatever it would
// send the service for it, it has sent.
func (c *servedCall) finished(t testing.TB) {
	t.Helper()
	if c == nil {
		return
	}
	select {
	case <-c.done:
	case <-time.After(time.Minute):
		t.Fatalf("the hub was still serving %s %s after a minute", c.method, c.path)
	}
}

func (o *office) start(tune func(*Options)) *instance {
	o.t.Helper()
	return o.startOn(o.url, tune)
}

// startOn starts an instance on the office's database reached at url
// (the office's, with settings of its own).
func (o *office) startOn(url string, tune func(*Options)) *instance {
	o.t.Helper()
	db, err := OpenDB(context.Background(), url)
	if err != nil {
		o.t.Fatal(err)
	}
	v, err := api.NewVerifier(o.info.CertPEM)
	if err != nil {
		o.t.Fatal(err)
	}
	opts := Options{
		DB: db,
		Service: api.Connection{BaseURL: o.info.BaseURL, TokenURL: o.info.TokenURL,
			ClientID: o.info.ClientID, ClientSecret: o.info.ClientSecret},
		Verifier: v, SyncEvery: time.Hour, LeaderPoll: time.Second, Logger: quietLogger(),
	}
	if tune != nil {
		tune(&opts)
	}
	h, err := New(opts)
	if err != nil {
		o.t.Fatal(err)
	}
	// The hub's own hardened server, as `hub serve` runs it.
	in := &instance{hub: h, db: db}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = h.NewServer()
	srv.Config.Handler = in.served.wrap(srv.Config.Handler)
	srv.Listener = h.Listener(srv.Listener)
	srv.Start()
	h.Start(context.Background())
	in.srv = srv
	o.t.Cleanup(in.stop)
	return in
}

// stop ends the instance as a dying process would, as far as others can
// tell: its server, its background work and every database connection go.
func (in *instance) stop() {
	// No new connection first: a desktop's event stream that reconnected
	// between the two calls below would be active, and Close would wait
	// for it for ever.
	in.srv.Listener.Close()
	in.srv.CloseClientConnections()
	in.srv.Close()
	in.hub.Close()
	in.db.Close()
}

// person adds a staff account and returns a desktop's client signed in with it.
func (o *office) person(in *instance, name string) (*api.Client, Credentials) {
	o.t.Helper()
	c, err := o.db.AddPerson(context.Background(), name)
	if err != nil {
		o.t.Fatal(err)
	}
	return desktop(o.t, in, c), c
}

func desktop(t testing.TB, in *instance, c Credentials) *api.Client {
	t.Helper()
	return desktopAt(t, in.srv.URL, c)
}

// desktopAt is a desktop's client of the hub at url.
func desktopAt(t testing.TB, url string, c Credentials) *api.Client {
	t.Helper()
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: url + "/oauth/token", ClientID: c.ClientId, ClientSecret: c.ClientSecret})
	client, err := api.NewClient(url+"/", nil, tokens)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// token signs in as c at in and returns the bearer token.
func token(t testing.TB, in *instance, c Credentials) string {
	t.Helper()
	return tokenAt(t, in.srv.URL, c)
}

// tokenAt signs in as c at the hub at url.
func tokenAt(t testing.TB, url string, c Credentials) string {
	t.Helper()
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: url + "/oauth/token", ClientID: c.ClientId, ClientSecret: c.ClientSecret})
	tok, err := tokens.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// sseEvent is one event read from a stream.
type sseEvent struct {
	Id   int64
	Data string
}

// openStream opens GET /api/hub/events as c and returns the events as they
// come; the stream closes when the test ends.
func openStream(t testing.TB, in *instance, c Credentials, lastEventId string) <-chan sseEvent {
	t.Helper()
	return openStreamAt(t, in.srv.URL, token(t, in, c), lastEventId)
}

// openStreamAt opens the event stream of the hub at url with a bearer token.
func openStreamAt(t testing.TB, url, tok, lastEventId string) <-chan sseEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/hub/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	if lastEventId != "" {
		req.Header.Set("Last-Event-ID", lastEventId)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events stream: HTTP %d", resp.StatusCode)
	}
	out := make(chan sseEvent, 100)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				ev.Id, _ = strconv.ParseInt(line[4:], 10, 64)
			case strings.HasPrefix(line, "data: "):
				ev.Data = line[6:]
			case line == "" && ev.Data != "":
				out <- ev
				ev = sseEvent{}
			}
		}
	}()
	return out
}

// waitEvent returns the first event on ch that match accepts, failing the
// test when none comes within a minute (a hang; a loaded machine takes
// seconds).
func waitEvent(t testing.TB, ch <-chan sseEvent, match func(HubEvent, sseEvent) bool) (HubEvent, sseEvent) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("the event stream ended")
			}
			var he HubEvent
			if err := json.Unmarshal([]byte(ev.Data), &he); err != nil {
				t.Fatalf("event data is not JSON: %q", ev.Data)
			}
			if match(he, ev) {
				return he, ev
			}
		case <-deadline:
			t.Fatal("no matching event within a minute")
		}
	}
}

// newWorkOrder returns the id of a work order in status New.
func newWorkOrder(t testing.TB, o *office) int64 {
	t.Helper()
	wo, err := o.sb.DispatchWorkOrder()
	if err != nil {
		t.Fatal(err)
	}
	return wo.WorkOrderId
}
