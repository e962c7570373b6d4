package hub

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// One client address cannot shut the office out: it holds at most a fair
// share of the hub's connections (connsPerClient), and its requests that
// prove no one (no valid token: sign-ins, refused calls, notifications
// whose token does not verify) are limited in number at once and per
// second (anonLimit). A desktop's calls with a valid token, and the
// service's notifications whose token verifies, are never counted: the
// service backs off for an hour when refused.

// DefaultConnsPerClient is a client address's share of the connections
// when Limits says none: a quarter of them, so at least four addresses
// (an office's proxies, its network's NAT) always find room.
func DefaultConnsPerClient(maxConns int) int { return max(32, maxConns/4) }

// connsPerClient closes, as soon as it is accepted, a connection from an
// address that holds its share already. Connections from a trusted proxy
// are not counted here (they carry many clients); their requests are
// counted per client by anonLimit.
type connsPerClient struct {
	max     int
	proxies []netip.Prefix
	onTrip  func(netip.Addr)
	mu      sync.Mutex
	open    map[clientKey]int
	counted map[net.Conn]clientKey
}

func newConnsPerClient(max int, proxies []netip.Prefix, onTrip func(netip.Addr)) *connsPerClient {
	return &connsPerClient{max: max, proxies: proxies, onTrip: onTrip, open: map[clientKey]int{}, counted: map[net.Conn]clientKey{}}
}

// track is an http.Server ConnState hook.
func (c *connsPerClient) track(conn net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		a, ok := peerAddr(conn.RemoteAddr().String())
		if !ok || trusted(c.proxies, a) {
			return
		}
		k := keyOf(a)
		c.mu.Lock()
		over := c.open[k] >= c.max
		if !over {
			c.open[k]++
			c.counted[conn] = k
		}
		c.mu.Unlock()
		if over {
			conn.Close() // the server's read fails at once and it reports StateClosed
			c.onTrip(a)
		}
	case http.StateClosed, http.StateHijacked:
		c.mu.Lock()
		if k, ok := c.counted[conn]; ok {
			delete(c.counted, conn)
			if c.open[k]--; c.open[k] <= 0 {
				delete(c.open, k)
			}
		}
		c.mu.Unlock()
	}
}

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
