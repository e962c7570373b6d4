package api

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"
)

// Verifier checks the bearer token of notifications with the integrator's
// certificate (spec §5.7, service-facts §9.4).
type Verifier struct {
	key  *rsa.PublicKey
	hash SignHash
	now  func() time.Time
}

// VerifierOption adjusts NewVerifier.
type VerifierOption func(*Verifier)

// WithSignHash selects the signature digest. The real service signs with
// SHA-1 (the default); SHA-256 exists for sandboxes that prefer it.
func WithSignHash(h SignHash) VerifierOption { return func(v *Verifier) { v.hash = h } }

// WithSHA256 is WithSignHash(SHA256).
func WithSHA256() VerifierOption { return WithSignHash(SHA256) }

// WithClock replaces time.Now when checking expiry (tests, sandboxes).
func WithClock(now func() time.Time) VerifierOption { return func(v *Verifier) { v.now = now } }

// ErrNoRSAKey means the certificate material holds no usable RSA public key.
var ErrNoRSAKey = errors.New("no RSA public key found (expected a PEM CERTIFICATE, PUBLIC KEY or RSA PUBLIC KEY)")

// NewVerifier reads the first usable key from pemBytes: a PEM X.509
// CERTIFICATE, a PKIX PUBLIC KEY or a PKCS#1 RSA PUBLIC KEY. A bare DER
// certificate is accepted too, because certificate downloads on Windows are
// often .cer files in DER.
func NewVerifier(pemBytes []byte, opts ...VerifierOption) (*Verifier, error) {
	key, err := parseRSAPublicKey(pemBytes)
	if err != nil {
		return nil, err
	}
	v := &Verifier{key: key, hash: SHA1, now: time.Now}
	for _, o := range opts {
		o(v)
	}
	return v, nil
}

// NewVerifierFromKey builds a Verifier around a key already in memory (sandbox, tests).
func NewVerifierFromKey(key *rsa.PublicKey, opts ...VerifierOption) *Verifier {
	v := &Verifier{key: key, hash: SHA1, now: time.Now}
	for _, o := range opts {
		o(v)
	}
	return v
}

// LoadVerifier reads the certificate file downloaded from the integration tile.
func LoadVerifier(path string, opts ...VerifierOption) (*Verifier, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the notification certificate: %w", err)
	}
	v, err := NewVerifier(b, opts...)
	if err != nil {
		return nil, fmt.Errorf("notification certificate %s: %w", path, err)
	}
	return v, nil
}

func parseRSAPublicKey(b []byte) (*rsa.PublicKey, error) {
	rest := b
	sawPEM := false
	var lastErr error
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		sawPEM = true
		var pub any
		var err error
		switch block.Type {
		case "CERTIFICATE":
			var cert *x509.Certificate
			if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
				pub = cert.PublicKey
			}
		case "PUBLIC KEY":
			pub, err = x509.ParsePKIXPublicKey(block.Bytes)
		case "RSA PUBLIC KEY":
			pub, err = x509.ParsePKCS1PublicKey(block.Bytes)
		default:
			continue // e.g. a private key bundled in the same file: never needed here
		}
		if err != nil {
			lastErr = fmt.Errorf("%s block: %w", block.Type, err)
			continue
		}
		if k, ok := pub.(*rsa.PublicKey); ok {
			return k, nil
		}
		lastErr = fmt.Errorf("%s block holds a %T, not an RSA key", block.Type, pub)
	}
	if !sawPEM {
		if cert, err := x509.ParseCertificate(b); err == nil {
			if k, ok := cert.PublicKey.(*rsa.PublicKey); ok {
				return k, nil
			}
		}
	}
	if lastErr != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoRSAKey, lastErr)
	}
	return nil, ErrNoRSAKey
}

// Verify checks the Authorization header value of a notification and returns
// the token's claims. Errors name what failed, never the token itself.
func (v *Verifier) Verify(authorization string) (Claims, error) {
	if v == nil || v.key == nil {
		return Claims{}, errors.New("no notification certificate is configured")
	}
	token, err := bearerToken(authorization)
	if err != nil {
		return Claims{}, err
	}
	return VerifyToken(v.key, v.hash, token, v.now())
}

func bearerToken(authorization string) (string, error) {
	s := strings.TrimSpace(authorization)
	if s == "" {
		return "", ErrTokenMissing
	}
	scheme, rest, ok := strings.Cut(s, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", fmt.Errorf("%w: the Authorization header does not use the Bearer scheme", ErrTokenMissing)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return "", ErrTokenMissing
	}
	return rest, nil
}

// NotificationSourceRange is where the service's notifications come from (spec §5.8).
var NotificationSourceRange = netip.MustParsePrefix("130.250.135.128/25")

// ReceiverOptions configure NewReceiver; the zero value is usable.
type ReceiverOptions struct {
	// CheckSource refuses requests whose RemoteAddr is outside AllowedSource.
	// Leave it off behind a reverse proxy, where RemoteAddr is the proxy.
	CheckSource   bool
	AllowedSource netip.Prefix // zero = NotificationSourceRange
	MaxBody       int64        // bytes; 0 = 1 MB
	DedupWindow   int          // MessageIds remembered; 0 = 10,000
	// OnReject, when set, hears why a request was refused. The reason never
	// contains the token.
	OnReject func(status int, reason string)
	// OnRejectRequest, when set, hears it with the request refused (whose
	// client address a server may want to log). The reason never
	// contains the token.
	OnRejectRequest func(r *http.Request, status int, reason string)
}

const (
	defaultMaxBody     = 1 << 20
	defaultDedupWindow = 10000
)

// ErrUnacceptableEvent marks a handler's error about the notification
// itself (an amount that does not fit the work order's currency, which only
// the replica knows): the receiver answers 400, as it does for what it can
// judge alone, instead of 500, which would only ask for the same body again.
var ErrUnacceptableEvent = errors.New("notification refused")

// Receiver is the http.Handler notifications are delivered to. It verifies,
// de-duplicates by Header.MessageId and hands each event on exactly once
// when the handler succeeds; a handler error answers 500 so the service
// delivers it again later (400 for ErrUnacceptableEvent).
type Receiver struct {
	v      *Verifier
	handle func(context.Context, Event) error
	opts   ReceiverOptions

	mu       sync.Mutex
	done     map[string]struct{}
	order    []string // ring of remembered ids, oldest at next
	next     int
	inFlight map[string]struct{}
}

// NewReceiver returns the notification endpoint. v must not be nil: a
// receiver that accepts unsigned notifications is not offered.
func NewReceiver(v *Verifier, handle func(context.Context, Event) error, opts ReceiverOptions) *Receiver {
	if !opts.AllowedSource.IsValid() {
		opts.AllowedSource = NotificationSourceRange
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = defaultMaxBody
	}
	if opts.DedupWindow <= 0 {
		opts.DedupWindow = defaultDedupWindow
	}
	return &Receiver{
		v: v, handle: handle, opts: opts,
		done:     make(map[string]struct{}, opts.DedupWindow),
		order:    make([]string, 0, min(opts.DedupWindow, 1024)),
		inFlight: map[string]struct{}{},
	}
}

// reject answers status and closes the connection. A refusal often comes
// before the body is read (no token, a body too large); Go's server would
// then wait to drain the unread body, so a sender that stalls it after the
// headers would hold the connection for as long as it likes. Ending reads
// now and closing after the answer frees the connection at once.
func (rc *Receiver) reject(w http.ResponseWriter, r *http.Request, status int, reason string) {
	if rc.opts.OnReject != nil {
		rc.opts.OnReject(status, reason)
	}
	if rc.opts.OnRejectRequest != nil {
		rc.opts.OnRejectRequest(r, status, reason)
	}
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now()) // not supported by every ResponseWriter (tests): the close still applies
	http.Error(w, http.StatusText(status), status)
}

func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		rc.reject(w, r, http.StatusMethodNotAllowed, "method "+r.Method+" is not POST")
		return
	}
	if rc.opts.CheckSource {
		addr, ok := remoteAddr(r.RemoteAddr)
		if !ok || !rc.opts.AllowedSource.Contains(addr) {
			rc.reject(w, r, http.StatusForbidden, fmt.Sprintf("source %s is outside %s", r.RemoteAddr, rc.opts.AllowedSource))
			return
		}
	}
	if _, err := rc.v.Verify(r.Header.Get("Authorization")); err != nil {
		w.Header().Set("WWW-Authenticate", "Bearer")
		rc.reject(w, r, http.StatusUnauthorized, "token refused: "+err.Error())
		return
	}
	if r.ContentLength > rc.opts.MaxBody {
		rc.reject(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body of %d bytes exceeds %d", r.ContentLength, rc.opts.MaxBody))
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, rc.opts.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			rc.reject(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body exceeds %d bytes", rc.opts.MaxBody))
			return
		}
		rc.reject(w, r, http.StatusBadRequest, "reading the body: "+err.Error())
		return
	}
	ev, err := ParseEvent(raw)
	if err != nil {
		rc.reject(w, r, http.StatusBadRequest, "body is not a notification: "+err.Error())
		return
	}
	// A signed body is still not a notification without its envelope:
	// nothing could say what happened, and it would be stored as such.
	if strings.TrimSpace(ev.Header.Action) == "" {
		rc.reject(w, r, http.StatusBadRequest, "body is not a notification: it has no Header.Action")
		return
	}
	if err := ev.CheckAmounts(); err != nil {
		rc.reject(w, r, http.StatusBadRequest, "an amount does not fit its currency: "+err.Error())
		return
	}
	// Event-Type arrived with service version 4.1; older deliveries lack it,
	// so only a present header that disagrees is refused.
	if vals, present := r.Header["Event-Type"]; present {
		if len(vals) != 1 || vals[0] != ev.Header.Action {
			rc.reject(w, r, http.StatusBadRequest, fmt.Sprintf("Event-Type %q differs from Header.Action %q", strings.Join(vals, ","), ev.Header.Action))
			return
		}
	}
	id := ev.Header.MessageId
	switch rc.claim(id) {
	case claimDone:
		w.WriteHeader(http.StatusOK) // already applied: acknowledge so the sender stops
		return
	case claimBusy:
		// A concurrent delivery of the same notification is being handled;
		// a non-200 makes the service try again later, by which time it is done.
		rc.reject(w, r, http.StatusConflict, "notification "+id+" is already being handled")
		return
	}
	err = rc.handle(r.Context(), ev)
	rc.finish(id, err == nil)
	if errors.Is(err, ErrUnacceptableEvent) {
		rc.reject(w, r, http.StatusBadRequest, ev.Header.Action+" "+id+": "+err.Error())
		return
	}
	if err != nil {
		rc.reject(w, r, http.StatusInternalServerError, "handling "+ev.Header.Action+" "+id+": "+err.Error())
		return
	}
	w.WriteHeader(http.StatusOK)
}

func remoteAddr(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err == nil
}

type claimResult int

const (
	claimNew claimResult = iota
	claimDone
	claimBusy
)

// claim marks id as being handled unless it is done or already in flight.
// Notifications without a MessageId cannot be de-duplicated and always pass.
func (rc *Receiver) claim(id string) claimResult {
	if id == "" {
		return claimNew
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, ok := rc.done[id]; ok {
		return claimDone
	}
	if _, ok := rc.inFlight[id]; ok {
		return claimBusy
	}
	rc.inFlight[id] = struct{}{}
	return claimNew
}

// finish releases id and, when it was handled, remembers it, forgetting the
// oldest id once the window is full.
func (rc *Receiver) finish(id string, handled bool) {
	if id == "" {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	delete(rc.inFlight, id)
	if !handled {
		return
	}
	if len(rc.order) < rc.opts.DedupWindow {
		rc.order = append(rc.order, id)
	} else {
		delete(rc.done, rc.order[rc.next])
		rc.order[rc.next] = id
		rc.next = (rc.next + 1) % rc.opts.DedupWindow
	}
	rc.done[id] = struct{}{}
}
