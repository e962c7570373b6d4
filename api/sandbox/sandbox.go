// Package sandbox simulates the Work Order Integration Service in memory: the
// OAuth token server, every endpoint the api package calls, signed event
// notifications and a scripted customer, over an injectable clock. Demo mode,
// the tests and `workdesk sandbox` (for integrators) all run it.
//
// The contract it speaks is the api package's: same paths (matched
// case-insensitively, trailing slash tolerated, an optional /Direct prefix as
// on the real host), query keys, JSON envelopes, multipart field names and
// error body. Where spec.md and service-facts.md are silent, the behaviour is
// a guess written down next to the code as an "assumption".
package sandbox

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Options configures New. The zero value is a working demo sandbox.
type Options struct {
	Seed       int64            // world seed (default 1)
	WorkOrders int              // size of the generated world (default 72, min 60)
	Now        func() time.Time // base of the sandbox Clock; nil = time.Now
	NotifyURL  string           // receiver for signed notifications; "" = none
	// RetryIntervals is the notification back-off; the last one repeats.
	// Default 5s,10s,20s,40s,60s: the real service's 5→60 minute ladder in
	// seconds, so a demo recovers quickly.
	RetryIntervals []time.Duration
	// NotifyAttempts bounds deliveries of one notification (default 200, as
	// the real service); after that it is dropped as dead.
	NotifyAttempts int
	// CustomerEvery is the scripted customer's tick; 0 = the customer only
	// acts through the control API and the Go methods.
	CustomerEvery time.Duration
	ClientID      string          // default: 32 upper-case hex digits
	ClientSecret  string          // default: random
	Key           *rsa.PrivateKey // token and notification signing key; nil = new RSA-2048
	Logger        *slog.Logger
	// NoMessageIdDedup applies every request, even one repeating the
	// MessageId of a request already applied. The real service documents
	// MessageId only as a correlation id (service-facts §3); clients must
	// not rely on de-duplication, and tests prove it with this on.
	NoMessageIdDedup bool
	// StateFile keeps the world across restarts (demo mode): read by New
	// when it exists, written shortly after every change and on Close.
	StateFile string
	// Dialect answers the reads without a published schema with other
	// names than the client's guesses (DialectRenamed; see dialect.go).
	Dialect Dialect
}

// ConnectionInfo is what an integrator configures a client with.
type ConnectionInfo struct {
	BaseURL      string
	TokenURL     string
	ClientID     string
	ClientSecret string
	CertPEM      []byte // self-signed X.509 certificate of the signing key
}

// Sandbox is a running simulated service. It is safe for concurrent use.
type Sandbox struct {
	opts         Options
	log          *slog.Logger
	clock        *Clock
	key          *rsa.PrivateKey
	certPEM      []byte
	clientID     string
	clientSecret string
	linkSecret   []byte // HMAC key of download links

	// mu guards the world: reads (search, GET) share it, every change and
	// its idempotency record hold it exclusively.
	mu   sync.RWMutex
	st   *store
	idem idemCache
	cust *script

	tokens tokenCache
	notify *notifier

	handler http.Handler

	srvMu    sync.Mutex
	srv      *http.Server
	info     ConnectionInfo
	tickMu   sync.Mutex // guards stopTick: Close and StopCustomer may race
	stopTick chan struct{}
	tickDone chan struct{}
	closed   bool

	persist  *persister // nil unless Options.StateFile
	restored bool
}

// New builds a sandbox and its world. Nothing listens until Start; Handler
// can be served by any server (httptest in tests).
func New(opts Options) (*Sandbox, error) {
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.WorkOrders == 0 {
		opts.WorkOrders = 72
	}
	if opts.WorkOrders < 60 {
		opts.WorkOrders = 60
	}
	if len(opts.RetryIntervals) == 0 {
		opts.RetryIntervals = []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 60 * time.Second}
	}
	if opts.NotifyAttempts <= 0 {
		opts.NotifyAttempts = 200
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Sandbox{opts: opts, log: log, clock: NewClock(opts.Now)}
	s.key = opts.Key
	if s.key == nil {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return nil, fmt.Errorf("sandbox: generating the signing key: %w", err)
		}
		s.key = k
	}
	cert, err := selfSignedCert(s.key, s.clock.Now())
	if err != nil {
		return nil, fmt.Errorf("sandbox: certificate: %w", err)
	}
	s.certPEM = cert
	s.clientID, s.clientSecret = opts.ClientID, opts.ClientSecret
	if s.clientID == "" {
		s.clientID = strings.ToUpper(hex.EncodeToString(randomBytes(16)))
	}
	if s.clientSecret == "" {
		s.clientSecret = base64.RawURLEncoding.EncodeToString(randomBytes(24))
	}
	s.linkSecret = randomBytes(32)
	s.st = Generate(opts.Seed, opts.WorkOrders, s.clock.Now()).st
	s.cust = newScript(opts.Seed)
	s.notify = newNotifier(s, opts.NotifyURL)
	s.handler = s.routes()
	if opts.StateFile != "" {
		s.startPersist(opts.StateFile)
		s.st.onChange = s.changed
		routes := s.handler
		s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			routes.ServeHTTP(w, r)
			if r.Method != http.MethodGet {
				s.changed() // removals and uploads too, which move no LastUpdate
			}
		})
	}
	return s, nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return b
}

func selfSignedCert(key *rsa.PrivateKey, now time.Time) ([]byte, error) {
	tmpl := &x509.Certificate{
		SerialNumber:          new(big.Int).SetBytes(randomBytes(8)),
		Subject:               pkix.Name{CommonName: "CorrigoPro Direct Sandbox", Organization: []string{"Work Order Desk sandbox"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

// Handler serves /oauth/token, /api/..., /files/... (signed download links)
// and /_sandbox/... (the control API).
func (s *Sandbox) Handler() http.Handler { return s.handler }

// Clock is the sandbox clock; advancing it expires tokens and links.
func (s *Sandbox) Clock() *Clock { return s.clock }

// AdvanceClock moves the sandbox clock forward.
func (s *Sandbox) AdvanceClock(d time.Duration) { s.clock.Advance(d) }

// SetNotifyURL changes where notifications go ("" = nowhere). Queued
// notifications are delivered to the new address.
func (s *Sandbox) SetNotifyURL(url string) { s.notify.setURL(url) }

// WorkOrderCount is how many work orders the world holds now (New raises
// Options.WorkOrders to at least 60; dispatches add more).
func (s *Sandbox) WorkOrderCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.st.orders)
}

// Key is the signing key (tests verify notifications with its public half).
func (s *Sandbox) Key() *rsa.PrivateKey { return s.key }

// Start listens on addr (":0" picks a port; a bare port listens on loopback
// only, because the control API needs no authentication), serves the
// sandbox, and starts the scripted customer when Options.CustomerEvery > 0.
func (s *Sandbox) Start(addr string) (ConnectionInfo, error) {
	s.srvMu.Lock()
	defer s.srvMu.Unlock()
	if s.closed {
		return ConnectionInfo{}, errors.New("sandbox: already closed")
	}
	if s.srv != nil {
		return s.info, errors.New("sandbox: already started")
	}
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return ConnectionInfo{}, fmt.Errorf("sandbox: %w", err)
	}
	host := ln.Addr().(*net.TCPAddr)
	h := host.IP.String()
	if host.IP.IsUnspecified() {
		h = "127.0.0.1"
	}
	base := "http://" + net.JoinHostPort(h, fmt.Sprint(host.Port)) + "/"
	s.info = s.InfoFor(base)
	s.srv = &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("sandbox server stopped", "err", err)
		}
	}()
	if s.opts.CustomerEvery > 0 {
		s.startCustomer(s.opts.CustomerEvery)
	}
	s.log.Info("sandbox listening", "base_url", base)
	return s.info, nil
}

// Info is the connection data of a started sandbox (BaseURL empty before Start).
func (s *Sandbox) Info() ConnectionInfo {
	s.srvMu.Lock()
	defer s.srvMu.Unlock()
	if s.srv == nil {
		return ConnectionInfo{ClientID: s.clientID, ClientSecret: s.clientSecret, CertPEM: s.certPEM}
	}
	return s.info
}

// InfoFor is the connection data for a sandbox served at baseURL by someone
// else (httptest.NewServer(s.Handler()) in tests).
func (s *Sandbox) InfoFor(baseURL string) ConnectionInfo {
	base := strings.TrimRight(baseURL, "/") + "/"
	return ConnectionInfo{
		BaseURL: base, TokenURL: base + "oauth/token",
		ClientID: s.clientID, ClientSecret: s.clientSecret, CertPEM: s.certPEM,
	}
}

// Close stops the server, the scripted customer and notification delivery.
// Notifications still queued are dropped.
func (s *Sandbox) Close() error {
	s.srvMu.Lock()
	if s.closed {
		s.srvMu.Unlock()
		return nil
	}
	s.closed = true
	srv := s.srv
	s.srvMu.Unlock()
	s.stopCustomer()
	var err error
	if srv != nil {
		err = srv.Close()
	}
	s.notify.close()
	s.stopPersist()
	return err
}

// apiSender is how the contractor's own API calls appear in notifications.
var apiSender = &api.Sender{Name: "CorrigoPro Direct API", Type: "CorrigoPro"}
