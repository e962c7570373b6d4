package hub

import (
	"bytes"
	"log"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// The security log: what an IT admin feeds to their log system to see the
// hub attacked. Each line is a structured slog record with security=true,
// an event name, the client address and a reason in plain words; never a
// secret, a token, a client secret or a link. Refusals are summed per
// event, address (an IPv6 client's /64) and reason per minute: the first
// of a minute is logged at once (count 1), the rest at the minute's end,
// so a flood of thousands makes a few lines, not thousands.
const (
	secSignInRefused       = "sign-in refused"
	secNotificationRefused = "notification refused"
	secRateLimited         = "rate limit"
	secDisabledCall        = "call by a disabled person"
	secConnectionFailed    = "connection failed"
)

// secKeysKept bounds the keys summed in one minute; past it, further new
// keys are summed under one line per event with no address.
const secKeysKept = 10000

type secKey struct {
	event string
	// client is an IPv4 address, or an IPv6 client's /64 (keyOf): a host
	// holds a /64, and each of its addresses would be a line of its own.
	client clientKey
	reason string
}

type secLog struct {
	log *slog.Logger
	// plain is the hub's log, for what is not about security.
	plain *slog.Logger
	mu    sync.Mutex
	// summed counts, per key, what came after the first of this minute.
	summed map[secKey]int
	seen   map[secKey]bool
}

func newSecLog(l *slog.Logger) *secLog {
	return &secLog{log: l.With("security", true), plain: l, summed: map[secKey]int{}, seen: map[secKey]bool{}}
}

// note records one security event.
func (s *secLog) note(event string, addr netip.Addr, reason string) {
	var client clientKey
	if addr.IsValid() {
		client = keyOf(addr)
	}
	k := secKey{event, client, reason}
	s.mu.Lock()
	if !s.seen[k] && len(s.seen) >= secKeysKept {
		k = secKey{event: event, reason: "(more addresses and reasons than are kept apart)"}
	}
	first := !s.seen[k]
	if first {
		s.seen[k] = true
	} else {
		s.summed[k]++
	}
	s.mu.Unlock()
	if first {
		s.write(k, 1)
	}
}

func (s *secLog) write(k secKey, n int) {
	attrs := []any{"event", k.event, "count", n}
	switch {
	case k.client.IsSingleIP():
		attrs = append(attrs, "client", k.client.Addr().String())
	case k.client.IsValid():
		attrs = append(attrs, "client", k.client.String())
	}
	if k.reason != "" {
		attrs = append(attrs, "reason", k.reason)
	}
	s.log.Warn("security: "+k.event, attrs...)
}

// flush writes the sums of the minute and starts the next.
func (s *secLog) flush() {
	s.mu.Lock()
	summed := s.summed
	s.summed, s.seen = map[secKey]int{}, map[secKey]bool{}
	s.mu.Unlock()
	for k, n := range summed {
		s.write(k, n)
	}
}

// run flushes every minute until stop closes.
func (s *secLog) run(stop <-chan struct{}) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			s.flush()
			return
		case <-t.C:
			s.flush()
		}
	}
}

// serverLog is the http.Server's error log: a TLS handshake that failed
// and an accept that failed are summed as refusals are (the server would
// write a line per connection); anything else (a handler's panic) is
// logged as it is.
func (s *secLog) serverLog() *log.Logger {
	return log.New(serverLogWriter{s}, "", 0)
}

type serverLogWriter struct{ s *secLog }

func (w serverLogWriter) Write(p []byte) (int, error) {
	line := string(bytes.TrimSpace(p))
	switch {
	case strings.HasPrefix(line, "http: TLS handshake error from "):
		rest := strings.TrimPrefix(line, "http: TLS handshake error from ")
		from, why, _ := strings.Cut(rest, ": ")
		a, _ := peerAddr(from)
		w.s.note(secConnectionFailed, a, "TLS handshake failed: "+handshakeReason(why))
	case strings.HasPrefix(line, "http: Accept error: "):
		w.s.note(secConnectionFailed, netip.Addr{}, "accepting a connection failed (out of open files?)")
	default:
		w.s.plain.Error("the HTTP server: " + line)
	}
	return len(p), nil
}

// handshakeReason is a few words for why a handshake failed, from a
// small set: the error's text may carry what the client sent.
func handshakeReason(err string) string {
	switch {
	case strings.Contains(err, "HTTP request to an HTTPS server"):
		return "plain HTTP"
	case strings.Contains(err, "EOF"), strings.Contains(err, "reset by peer"), strings.Contains(err, "use of closed"):
		return "closed before it ended"
	case strings.Contains(err, "timeout"):
		return "too slow"
	case strings.Contains(err, "certificate"):
		return "certificate refused"
	case strings.Contains(err, "version"), strings.Contains(err, "cipher"), strings.Contains(err, "protocol"):
		return "no TLS version or cipher in common"
	}
	return "other"
}

// notifyRefusal is why the receiver refused a notification, in words from
// a small set: its own reasons quote the Event-Type, the action, the
// MessageId or the token's error, all the sender's to choose, and the
// log would hold a line per value.
func notifyRefusal(status int, reason string) string {
	switch {
	case status == 405:
		return "not a POST"
	case status == 403:
		return "outside the source range"
	case status == 401 && strings.Contains(reason, "no bearer token"):
		return "no token"
	case status == 401 && strings.Contains(reason, "expired"):
		return "token expired"
	case status == 401:
		return "token does not verify"
	case status == 413:
		return "body too large"
	case status == 409:
		return "delivered again while being handled"
	case status >= 500:
		return "could not be stored (the service sends it again)"
	case strings.Contains(reason, "only the hub names"):
		return "an action only the hub names (…ByContractor)"
	case strings.HasPrefix(reason, "Event-Type"):
		return "Event-Type differs from the action"
	case strings.HasPrefix(reason, "an amount"):
		return "an amount that does not fit its currency"
	case strings.HasPrefix(reason, "reading the body"):
		return "body not sent whole"
	case strings.HasPrefix(reason, "body is not a notification"):
		return "not a notification"
	}
	return "refused"
}
