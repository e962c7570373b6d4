package hub

import (
	"net/netip"
	"sync"
	"time"
)

// One client address cannot shut the office out: its connections are
// capped (connClasses), and its requests that prove no one (no valid
// token: sign-ins, refused calls, notifications whose token does not
// verify) are limited in number at once and per second (anonLimit). A
// desktop's calls with a valid token, and the service's notifications
// whose token verifies, are never counted here: the service backs off for
// an hour when refused.

// Unauthenticated requests per client address: this many at once (a
// sign-in form or a notification being read), and this many per second
// after a burst.
const (
	anonAtOnce  = 16
	anonBurst   = 100
	anonEvery   = 100 * time.Millisecond
	anonBlocked = 5 * time.Second // the Retry-After of a refusal
)

// anonLimit counts the unauthenticated requests of each client address.
type anonLimit struct {
	mu      sync.Mutex
	rate    *buckets
	running map[clientKey]int
}

func newAnonLimit() *anonLimit {
	return &anonLimit{rate: newBuckets(anonBurst, anonEvery), running: map[clientKey]int{}}
}

// start admits one unauthenticated request from a, or says it is over
// its limits; done ends it.
func (l *anonLimit) start(a netip.Addr, now time.Time) (done func(), ok bool) {
	k := keyOf(a)
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.rate.get(k, now)
	if b.tokens < 1 || l.running[k] >= anonAtOnce {
		return nil, false
	}
	b.tokens--
	l.running[k]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.running[k]--; l.running[k] <= 0 {
			delete(l.running, k)
		}
	}, true
}

// refused counts a request that turned out unauthenticated once it was
// checked (a bearer token not taken); false when a is over its rate.
func (l *anonLimit) refused(a netip.Addr, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.rate.get(keyOf(a), now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
