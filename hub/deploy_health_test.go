package hub

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/hub/pgtest"
)

// status is the HTTP status of GET url (0 when it cannot be had).
func status(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitStatus waits until GET url answers want.
func waitStatus(t *testing.T, url string, want int, why string) {
	t.Helper()
	waitFor(t, 15*time.Second, why, func() bool { return status(url) == want })
}

// GET /readyz, what a load balancer asks, fails while PostgreSQL is
// stopped and recovers once it is back; /healthz (the process is alive)
// answers throughout.
func TestReadyzFollowsPostgres(t *testing.T) {
	t.Parallel()
	pg := pgtest.StartT(t)
	o := newOfficeAt(t, pg.NewDB(t), sandbox.Options{})
	a := o.start(nil)
	if got := status(a.srv.URL + "/readyz"); got != http.StatusOK {
		t.Fatalf("GET /readyz with PostgreSQL up: HTTP %d", got)
	}
	pg.Halt()
	waitStatus(t, a.srv.URL+"/readyz", http.StatusServiceUnavailable, "503 from /readyz with PostgreSQL stopped")
	if got := status(a.srv.URL + "/healthz"); got != http.StatusOK {
		t.Errorf("GET /healthz with PostgreSQL stopped: HTTP %d, want 200 (the process is alive)", got)
	}
	if err := pg.Resume(); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, a.srv.URL+"/readyz", http.StatusOK, "200 from /readyz once PostgreSQL is back")
}

// The customer's service is down (every call answered 503, its token
// endpoint too): the sync fails, and every instance stays ready, since
// taking them all out of the load balancer would leave the office nothing.
func TestReadyzStaysReadyWhileTheServiceIsDown(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	down := func(w http.ResponseWriter, r *http.Request) bool {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
		return true
	}
	o.intercept.Store(&down)
	if err := a.hub.SyncNow(context.Background()); err == nil {
		t.Fatal("a sync succeeded with the service down: the test proves nothing")
	}
	// Its database check may outlast its 2 s on a loaded machine (a 503
	// then says so, rightly); with the service down it must still come to
	// 200.
	waitStatus(t, a.srv.URL+"/readyz", http.StatusOK, "200 from /readyz with the service down")
}

// scrape is the instance's /metrics.
func scrape(t testing.TB, url string) string {
	t.Helper()
	body := get(nil, url+"/metrics")
	if body == "" {
		t.Fatalf("GET %s/metrics gave nothing", url)
	}
	return body
}

// want checks one series of a scrape.
func wantMetric(t *testing.T, scraped, series string, want float64) {
	t.Helper()
	got, ok := metricValue(scraped, series)
	if !ok || got != want {
		t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
	}
}

// GET /metrics (Prometheus' text format) counts what an admin watches: a
// write forwarded (and its time), a refused sign-in, a notification taken,
// the streams open, the instance that syncs.
func TestMetricsCountAForwardedWriteAndARefusedSignIn(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, anaCreds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	before := scrape(t, a.srv.URL)
	wantMetric(t, before, `workdesk_hub_writes_forwarded_total{result="ok"}`, 0)
	wantMetric(t, before, `workdesk_hub_sign_ins_refused_total{reason="credentials"}`, 0)

	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	if got := signInFrom(t, http.DefaultClient, a.srv.URL, anaCreds.ClientId, "not-her-secret"); got != http.StatusUnauthorized {
		t.Fatalf("a wrong secret: HTTP %d", got)
	}
	stream := openStream(t, a, anaCreds, "")
	postNotificationAt(t, o, a.srv.URL, id)
	waitEvent(t, stream, func(he HubEvent, _ sseEvent) bool { return he.Header.Action == api.ActionNteChanged })

	after := scrape(t, a.srv.URL)
	wantMetric(t, after, `workdesk_hub_writes_forwarded_total{result="ok"}`, 1)
	wantMetric(t, after, `workdesk_hub_writes_forwarded_total{result="refused"}`, 0)
	wantMetric(t, after, `workdesk_hub_forward_seconds_count`, 1)
	wantMetric(t, after, `workdesk_hub_sign_ins_refused_total{reason="credentials"}`, 1)
	wantMetric(t, after, `workdesk_hub_notifications_total{result="accepted"}`, 1)
	wantMetric(t, after, `workdesk_hub_streams_open`, 1)
	wantMetric(t, after, `workdesk_hub_writes_waiting`, 0)
	wantMetric(t, after, `workdesk_hub_sync_leader`, 1)
	if n, _ := metricValue(after, "workdesk_hub_syncs_total"); n < 1 {
		t.Errorf("workdesk_hub_syncs_total = %v after a sync", n)
	}
	if lag, ok := metricValue(after, "workdesk_hub_sync_lag_seconds"); !ok || lag < 0 || lag > 3600 {
		t.Errorf("workdesk_hub_sync_lag_seconds = %v (present %v) on the instance that syncs", lag, ok)
	}
	if !strings.Contains(after, "process_resident_memory_bytes") {
		t.Error("no process metrics")
	}
	// Metrics are the instance's own: a second instance counts nothing of A's.
	b := o.start(nil)
	other := scrape(t, b.srv.URL)
	wantMetric(t, other, `workdesk_hub_writes_forwarded_total{result="ok"}`, 0)
	wantMetric(t, other, `workdesk_hub_sync_leader`, 0)
	if _, ok := metricValue(other, "workdesk_hub_sync_lag_seconds"); ok {
		t.Error("an instance that does not sync shows a sync lag")
	}
}

// workdesk-hub --metrics-addr serves /metrics there, apart from desktops,
// and no longer on the main address; health checks answer on both.
func TestMetricsAddrKeepsMetricsOffTheMainAddress(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	hub := o.startHub(t, childConfig{Args: []string{"--metrics-addr", "127.0.0.1:0"}}, 60*time.Second)
	metricsBase := strings.TrimSuffix(hub.metrics, "/metrics")
	if metricsBase == hub.url {
		t.Fatalf("--metrics-addr: metrics still at %s", hub.metrics)
	}
	if got := status(hub.url + "/metrics"); got != http.StatusNotFound {
		t.Errorf("GET /metrics on the main address: HTTP %d, want 404", got)
	}
	if !strings.Contains(get(nil, hub.metrics), "workdesk_hub_syncs_total") {
		t.Errorf("GET %s gave no hub metrics", hub.metrics)
	}
	for _, base := range []string{hub.url, metricsBase} {
		if got := status(base + "/healthz"); got != http.StatusOK {
			t.Errorf("GET %s/healthz: HTTP %d", base, got)
		}
		if got := status(base + "/readyz"); got != http.StatusOK {
			t.Errorf("GET %s/readyz: HTTP %d", base, got)
		}
	}
}
