package hub

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// What GET /metrics counts, in the Prometheus text format. Each instance
// has its own registry (never the process-wide default), so instances in
// one process (tests) count apart.
const (
	// Results of a desktop's write, once the hub has taken it (a malformed
	// one is refused before and not counted).
	writeOK           = "ok"            // the service took it (2xx)
	writeRefused      = "refused"       // the service refused it (4xx: a business rule, a conflict)
	writeServiceError = "service_error" // the service failed (5xx)
	writeUnreachable  = "unreachable"   // the service was not reached; nothing was sent
	writeBusy         = "busy"          // it waited too long for its turn or a database connection
	writeInDoubt      = "in_doubt"      // sent, with no answer the hub could record; the desktop's retry settles it
	writeRepeat       = "repeat"        // a retry answered from the record of an earlier attempt
	writeAbandoned    = "abandoned"     // not sent: its desktop hung up, its person was disabled, or its file too large

	notificationAccepted = "accepted"
	notificationRefused  = "refused" // not from the allowed range, a token that does not verify, malformed
	notificationFailed   = "failed"  // verified, but the hub could not store it (the service sends it again)

	signInBadCredentials = "credentials"  // unknown client, wrong secret or a disabled account
	signInRateLimited    = "rate_limited" // too many from one address
	signInMalformed      = "malformed"    // not a client-credentials form
)

type metrics struct {
	reg            *prometheus.Registry
	writes         *prometheus.CounterVec
	forwardSeconds prometheus.Histogram
	notifications  *prometheus.CounterVec
	signInsRefused *prometheus.CounterVec
	connsClosed    *prometheus.CounterVec
	rereads        *prometheus.CounterVec
	// conns are the classes of the server NewServer made last.
	conns atomic.Pointer[connClasses]
}

func newMetrics(h *Hub) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		writes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workdesk_hub_writes_forwarded_total",
			Help: "Desktops' writes this instance took, by result: ok, refused (by the service), service_error, unreachable, busy, in_doubt, repeat, abandoned.",
		}, []string{"result"}),
		forwardSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "workdesk_hub_forward_seconds",
			Help:    "Time from a desktop's write reaching this instance to its answer: its turn, the service's answer, the re-read and the record.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120},
		}),
		notifications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workdesk_hub_notifications_total",
			Help: "The service's notifications at this instance, by result: accepted, refused, failed.",
		}, []string{"result"}),
		signInsRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workdesk_hub_sign_ins_refused_total",
			Help: "Staff sign-ins this instance refused, by reason: credentials, rate_limited, malformed.",
		}, []string{"reason"}),
		connsClosed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workdesk_hub_connections_capped_total",
			Help: "Anonymous connections closed (or new ones refused) to keep within a cap, by cap: address, network, anonymous_share, total.",
		}, []string{"cap"}),
		rereads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workdesk_hub_notification_rereads_total",
			Help: "Work orders re-read after the service's notifications, by result: changed (an event went out), unchanged, unknown (the service does not know it), failed.",
		}, []string{"result"}),
	}
	// Every result shows from the start, at 0, so a rate can be taken of it.
	for _, r := range []string{writeOK, writeRefused, writeServiceError, writeUnreachable, writeBusy, writeInDoubt, writeRepeat, writeAbandoned} {
		m.writes.WithLabelValues(r)
	}
	for _, r := range []string{notificationAccepted, notificationRefused, notificationFailed} {
		m.notifications.WithLabelValues(r)
	}
	for _, r := range []string{signInBadCredentials, signInRateLimited, signInMalformed} {
		m.signInsRefused.WithLabelValues(r)
	}
	for _, r := range []string{capAddress, capNetwork, capAnonymous, capTotal} {
		m.connsClosed.WithLabelValues(r)
	}
	for _, r := range []string{rereadChanged, rereadUnchanged, rereadUnknown, rereadFailed} {
		m.rereads.WithLabelValues(r)
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.writes, m.forwardSeconds, m.notifications, m.signInsRefused, m.connsClosed, m.rereads,
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "workdesk_hub_notifications_coalesced_total",
			Help: "Notifications that joined a re-read of their work order already waiting, instead of costing one of their own.",
		}, func() float64 { return float64(h.notices.folded.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "workdesk_hub_connections_anonymous",
			Help: "Connections open on this instance that have not carried a valid staff token.",
		}, func() float64 {
			if c := m.conns.Load(); c != nil {
				n, _ := c.counts()
				return float64(n)
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "workdesk_hub_connections_signed_in",
			Help: "Connections open on this instance that have carried a valid staff token.",
		}, func() float64 {
			if c := m.conns.Load(); c != nil {
				_, n := c.counts()
				return float64(n)
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "workdesk_hub_streams_open",
			Help: "Desktops' event streams open on this instance.",
		}, func() float64 { return float64(h.streams.open()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "workdesk_hub_writes_waiting",
			Help: "Desktops' writes this instance holds that have not gone to the service yet (their turn at a work order, an upload slot, a database connection).",
		}, func() float64 { return float64(h.WritesWaiting()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "workdesk_hub_syncs_total",
			Help: "Syncs from the service this instance completed.",
		}, func() float64 { return float64(h.Syncs()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "workdesk_hub_sync_leader",
			Help: "1 on the one instance of the office that syncs from the service, 0 on the others.",
		}, func() float64 {
			if h.Leading() {
				return 1
			}
			return 0
		}),
		syncLag{h},
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "workdesk_hub_build_info",
			Help:        "The hub's version, as a label.",
			ConstLabels: prometheus.Labels{"version": h.opts.Version},
		}, func() float64 { return 1 }),
	)
	return m
}

// syncLagDesc: seconds since the syncing instance last completed a sync
// (since it took the sync over, before its first): shown by that instance
// only, so the office's lag is the one series there is.
var syncLagDesc = prometheus.NewDesc("workdesk_hub_sync_lag_seconds",
	"Seconds since this instance, the one that syncs, last completed a sync from the service; absent on the others.", nil, nil)

type syncLag struct{ h *Hub }

func (s syncLag) Describe(ch chan<- *prometheus.Desc) { ch <- syncLagDesc }

func (s syncLag) Collect(ch chan<- prometheus.Metric) {
	if !s.h.Leading() {
		return
	}
	since := max(s.h.lastSync.Load(), s.h.leadingSince.Load())
	if since == 0 {
		return
	}
	lag := time.Since(time.Unix(0, since)).Seconds()
	ch <- prometheus.MustNewConstMetric(syncLagDesc, prometheus.GaugeValue, lag)
}

// wrote counts one write with its result and the time it took.
func (m *metrics) wrote(result string, took time.Duration) {
	m.writes.WithLabelValues(result).Inc()
	m.forwardSeconds.Observe(took.Seconds())
}

func (m *metrics) notification(result string) { m.notifications.WithLabelValues(result).Inc() }

func (m *metrics) connClosed(cap string) { m.connsClosed.WithLabelValues(cap).Inc() }

func (m *metrics) watchConns(c *connClasses) { m.conns.Store(c) }

func (m *metrics) reread(result string, n int) { m.rereads.WithLabelValues(result).Add(float64(n)) }

func (m *metrics) signInRefused(reason string) { m.signInsRefused.WithLabelValues(reason).Inc() }

// MetricsHandler serves GET /metrics in the Prometheus text format, and
// /healthz and /readyz, for a listener of its own (Options.PrivateMetrics:
// `--metrics-addr`), one the public cannot reach.
func (h *Hub) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h.metricsHandler())
	mux.HandleFunc("GET /healthz", h.serveHealth)
	mux.HandleFunc("GET /readyz", h.serveReady)
	return mux
}

func (h *Hub) metricsHandler() http.Handler {
	return promhttp.HandlerFor(h.metrics.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}
