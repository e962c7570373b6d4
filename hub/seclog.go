package hub

import (
	"log/slog"
	"net/netip"
	"sync"
	"time"
)

// The security log: what an IT admin feeds to their log system to see the
// hub attacked. Each line is a structured slog record with security=true,
// an event name, the client address and a reason in plain words; never a
// secret, a token, a client secret or a link. Refusals are summed per
// event, address and reason per minute: the first of a minute is logged at
// once (count 1), the rest at the minute's end, so a flood of thousands
// makes a few lines, not thousands.
const (
	secSignInRefused       = "sign-in refused"
	secNotificationRefused = "notification refused"
	secRateLimited         = "rate limit"
	secDisabledCall        = "call by a disabled person"
)

// secKeysKept bounds the keys summed in one minute; past it, further new
// keys are summed under one line per event with no address.
const secKeysKept = 10000

type secKey struct {
	event  string
	addr   netip.Addr
	reason string
}

type secLog struct {
	log *slog.Logger
	mu  sync.Mutex
	// summed counts, per key, what came after the first of this minute.
	summed map[secKey]int
	seen   map[secKey]bool
}

func newSecLog(l *slog.Logger) *secLog {
	return &secLog{log: l.With("security", true), summed: map[secKey]int{}, seen: map[secKey]bool{}}
}

// note records one security event.
func (s *secLog) note(event string, addr netip.Addr, reason string) {
	k := secKey{event, addr, reason}
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
	if k.addr.IsValid() {
		attrs = append(attrs, "client", k.addr.String())
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
