package hub

import (
	"container/list"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// A few addresses cannot fill the hub. Its connections are of two
// classes: signed in (one that has carried a valid staff token) and
// anonymous (every other: a connection is anonymous until its first
// request with a token is checked). Anonymous connections are capped per
// client address (Options.ConnsPerClient), per network (ConnsPerNetwork:
// an IPv4 /24 or IPv6 /56, NetworkBits4 and NetworkBits6) and in all (the
// hub's connections less SignedInShare, kept for signed-in ones). A new
// connection over a cap closes an anonymous connection in the way that
// has not completed a request (failing one, one idle between requests)
// whose holder, its address then network, is much heavier than the new
// one's, or heavier and stalled (victimLocked); else the new one is
// closed. So a stalled socket never keeps out a desktop: the desktop's new
// connection (its address holds none) takes the place of a stalled one,
// and its first request with a token moves it out of the anonymous class,
// where nothing anonymous can close it; a flood's own new connections are
// refused.
//
// Behind a trusted proxy the peer is the proxy, and the client is known
// only from each request's X-Forwarded-For: the proxy's connections count
// in the hub's anonymous share from the start, and in the forwarded
// client's address and network while they carry its request.

// Defaults of the caps when Options leave them 0.
const (
	DefaultNetworkBits4 = 24
	DefaultNetworkBits6 = 56
)

// DefaultConnsPerClient is how many anonymous connections one client
// address holds at once when Options says none: a sixteenth of the hub's,
// at least 16, so an office of desktops behind one address still signs in
// many at once.
func DefaultConnsPerClient(maxConns int) int { return max(16, maxConns/16) }

// DefaultConnsPerNetwork is the anonymous connections of one network
// (/24, /56) when Options says none: a quarter of the hub's, at least 32.
func DefaultConnsPerNetwork(maxConns int) int { return max(32, maxConns/4) }

// DefaultSignedInShare is how many of the hub's connections only signed-in
// connections may hold: a quarter.
func DefaultSignedInShare(maxConns int) int { return maxConns / 4 }

// connCaps are the caps of connClasses.
type connCaps struct {
	total, signedInShare  int
	perClient, perNetwork int
	bits4, bits6          int
}

// connClasses tracks the hub server's connections (an http.Server
// ConnState hook) and closes those that would take more than their share.
type connClasses struct {
	caps    connCaps
	proxies []netip.Prefix
	// service is where the office says the service's notifications come
	// from (--notify-from): its connections count in the hub's anonymous
	// share only, never in an address's or network's. The service sends
	// from few addresses, and a customer's bulk dispatch must all arrive.
	service []netip.Prefix
	// onTrip hears a connection closed or refused by a cap: the client
	// address it came from and which cap.
	onTrip func(trip)
	now    func() time.Time

	mu     sync.Mutex
	conns  map[net.Conn]*tracked
	anon   list.List // of *tracked, oldest first
	signed int
	// nets hold the anonymous connections of each network, by client
	// address: kept as connections come and go, so finding a cap's victim
	// looks at networks and addresses, never at every connection (a flood
	// refused would cost a walk through them all, each).
	nets map[netip.Prefix]*netCount
	// seq orders the connections of the addresses: older first.
	seq uint64
	// netsHold and clientsHold tally the networks and addresses by how
	// many anonymous connections each holds: the most any holds tells
	// at once that none is heavy enough to hold a victim.
	netsHold, clientsHold tally
}

// tally counts holders by what each holds, and keeps the most any holds.
type tally struct {
	of  map[int]int
	top int
}

// move counts a holder that held from as holding to (one more or less).
func (t *tally) move(from, to int) {
	if t.of == nil {
		t.of = map[int]int{}
	}
	if from > 0 {
		if t.of[from]--; t.of[from] == 0 {
			delete(t.of, from)
		}
	}
	if to > 0 {
		t.of[to]++
	}
	t.top = max(t.top, to)
	for t.top > 0 && t.of[t.top] == 0 {
		t.top--
	}
}

// netCount is a network's anonymous connections, by client address.
type netCount struct {
	n       int
	clients map[netip.Prefix]*holder
}

// holder is one client address's anonymous connections, in the order
// they became its, oldest first.
type holder struct {
	n     int
	conns list.List // of *tracked
}

// weightOf is what the holders of t weigh among the anonymous: its
// network's connections, then its address's.
func (c *connClasses) weightOf(t *tracked) [2]int {
	if nc := c.nets[t.netKey]; nc != nil {
		if h := nc.clients[t.clientKey]; h != nil {
			return [2]int{nc.n, h.n}
		}
		return [2]int{nc.n, 0}
	}
	return [2]int{}
}

// tracked is one open connection.
type tracked struct {
	conn net.Conn
	// client is who it is from (invalid: a proxy's connection between
	// requests); its keys are what the caps count it by.
	client            netip.Addr
	clientKey, netKey netip.Prefix
	proxied           bool
	signedIn          bool
	// completed: it has answered a request; active: a request is being
	// served (its headers read).
	completed, active bool
	// opened is when it was accepted.
	opened time.Time
	// elem is its place among the anonymous; nil once signed in.
	elem *list.Element
	// held is its place among its address's anonymous connections (nil:
	// not counted in one), seq when it took it.
	held *list.Element
	seq  uint64
	gone bool
}

func newConnClasses(caps connCaps, proxies, service []netip.Prefix, onTrip func(trip)) *connClasses {
	return &connClasses{caps: caps, proxies: proxies, service: service, onTrip: onTrip, now: time.Now, conns: map[net.Conn]*tracked{},
		nets: map[netip.Prefix]*netCount{}}
}

// networkOf is the network a's anonymous connections are counted in.
func (c *connClasses) networkOf(a netip.Addr) netip.Prefix {
	bits := c.caps.bits6
	if a.Is4() {
		bits = c.caps.bits4
	}
	p, _ := a.Prefix(bits)
	return p
}

// Listener is l with each new connection admitted (or refused) as it is
// accepted, before the HTTP server spends anything on it: a flood of
// connections refused costs an accept and a close each. (Without it the
// server's ConnState hook admits them, a little later.)
func (c *connClasses) Listener(l net.Listener) net.Listener { return admitting{l, c} }

type admitting struct {
	net.Listener
	c *connClasses
}

func (a admitting) Accept() (net.Conn, error) {
	for {
		conn, err := a.Listener.Accept()
		if err != nil || a.c.admit(conn) {
			return conn, err
		}
	}
}

// rawConn is the connection under conn's TLS, which is what is tracked.
func rawConn(conn net.Conn) net.Conn {
	if tc, ok := conn.(*tls.Conn); ok {
		return tc.NetConn()
	}
	return conn
}

// track is the http.Server ConnState hook. StateNew runs on the server's
// accept loop: nothing here may block.
func (c *connClasses) track(conn net.Conn, state http.ConnState) {
	conn = rawConn(conn)
	switch state {
	case http.StateNew:
		c.mu.Lock()
		admitted := c.conns[conn] != nil
		c.mu.Unlock()
		if !admitted {
			c.admit(conn)
		}
	case http.StateActive:
		c.mu.Lock()
		if t := c.conns[conn]; t != nil {
			t.active = true
		}
		c.mu.Unlock()
	case http.StateIdle:
		c.mu.Lock()
		if t := c.conns[conn]; t != nil {
			t.active, t.completed = false, true
			if t.proxied {
				// Between requests a proxy's connection is no client's.
				c.attributeLocked(t, netip.Addr{})
			}
		}
		c.mu.Unlock()
	case http.StateClosed, http.StateHijacked:
		c.mu.Lock()
		if t := c.conns[conn]; t != nil {
			c.forgetLocked(t)
		}
		c.mu.Unlock()
	}
}

// admit counts a new connection as anonymous, closing what it must to
// keep within the caps, or the new one (makeRoomLocked): false then.
func (c *connClasses) admit(conn net.Conn) bool {
	a, ok := peerAddr(conn.RemoteAddr().String())
	t := &tracked{conn: conn, opened: c.now()}
	switch {
	case ok && trusted(c.proxies, a):
		t.proxied = true
	case ok:
		c.keysLocked(t, a)
	}
	c.mu.Lock()
	victims, trips, refused := c.makeRoomLocked(t, c.scopesLocked(t), 1)
	if !refused {
		c.conns[conn] = t
		t.elem = c.anon.PushBack(t)
		c.holdLocked(t)
	}
	c.mu.Unlock()
	if refused {
		closeConn(conn) // a server's read fails at once and it reports StateClosed
	}
	c.closed(victims, trips)
	return !refused
}

// makeRoomLocked finds room for t in each of scopes that holds more than
// its cap less room: it closes a connection there of a holder heavier than
// t's own (victimLocked), or else refuses t (an address over its own cap
// always). Refusing a heavy holder's new connection rather than closing
// its old one is what keeps a flood from closing its own sockets in a
// loop: each one closed would come back at once and close another.
func (c *connClasses) makeRoomLocked(t *tracked, scopes []scope, room int) (victims []*tracked, trips []trip, refused bool) {
	now := c.now()
	for _, s := range scopes {
		if s.count()+room <= s.cap {
			continue
		}
		var v *tracked
		if s.weigh != nil {
			v = c.victimLocked(s, t, now)
		}
		if v == nil {
			trips = append(trips, trip{t.client, s.why() + ": a new one refused", s.label})
			return victims, trips, true
		}
		c.forgetLocked(v)
		victims = append(victims, v)
		trips = append(trips, trip{v.client, s.why() + ": one closed for a lighter client's", s.label})
	}
	return victims, trips, false
}

// closed closes the victims of a cap, and reports them, unlocked.
func (c *connClasses) closed(victims []*tracked, trips []trip) {
	for _, v := range victims {
		closeConn(v.conn)
	}
	for _, tr := range trips {
		c.onTrip(tr)
	}
}

type trip struct {
	addr  netip.Addr
	why   string
	label string
}

// What closed or refused a connection, as /metrics labels it.
const (
	capAddress   = "address"
	capNetwork   = "network"
	capAnonymous = "anonymous_share"
	capTotal     = "total"
)

// scope is one cap a new connection must fit in.
type scope struct {
	cap   int
	count func() int
	// weigh is what a connection's holder weighs in the scope (nil: one
	// holder, the address: no victim); network, when valid, is the
	// network the scope is, whose addresses are the holders (else the
	// holders are every address, weighed by their network first).
	weigh   func(*tracked) [2]int
	network netip.Prefix
	// why says what the cap is, for the log: made only when it trips.
	why   func() string
	label string // the metric's
}

// scopesLocked are the caps t counts in, narrowest first: closing one of
// its address's connections makes room in its network and the hub too.
func (c *connClasses) scopesLocked(t *tracked) []scope {
	var out []scope
	if t.clientKey.IsValid() {
		n := t.netKey
		out = append(out,
			scope{cap: c.caps.perClient, count: func() int { return c.weightOf(t)[1] },
				why: func() string {
					return fmt.Sprintf("anonymous connections of one address (more than %d)", c.caps.perClient)
				}, label: capAddress},
			scope{cap: c.caps.perNetwork, count: func() int { return c.weightOf(t)[0] },
				weigh: func(v *tracked) [2]int { return [2]int{c.weightOf(v)[1]} }, network: n,
				why: func() string {
					return fmt.Sprintf("anonymous connections of one network, %s (more than %d)", n, c.caps.perNetwork)
				}, label: capNetwork})
	}
	return append(out,
		scope{cap: c.caps.total - c.caps.signedInShare, count: func() int { return c.anon.Len() }, weigh: c.weightOf,
			why: func() string {
				return fmt.Sprintf("anonymous connections (more than the %d not kept for those signed in)", c.caps.total-c.caps.signedInShare)
			}, label: capAnonymous},
		scope{cap: c.caps.total, count: func() int { return c.anon.Len() + c.signed }, weigh: c.weightOf,
			why: func() string { return fmt.Sprintf("connections (more than %d)", c.caps.total) }, label: capTotal})
}

// stalledAfter is how long an anonymous connection may go without
// completing its first request before a lighter client's new one may take
// its place: a desktop's first request is read in milliseconds, so its
// new connection is never taken; each one taken was held this long, so a
// flood from many light addresses replaces its own sockets at most once
// per stalledAfter each, not in a loop.
const stalledAfter = 2 * time.Second

// victimLocked is the anonymous connection in s to close for t: the
// oldest of those that have not completed a request (failing any, of those
// idle between requests) whose holder (its address, then network) is far
// heavier than t's (more than twice, and more than one more), or, when t's
// address holds none, heavier and stalled (no request completed in
// stalledAfter). nil when there is none: t's own holder is about as heavy
// as any. Taking only from heavier
// holders keeps a desktop's new connection (its address holds none) from
// being closed by a flood's newer ones before its first request is read.
//
// It looks at the networks of s, and at the addresses of those that may
// hold a victim: in a flood of many addresses of about one weight, that
// is each network once, however many connections they hold.
func (c *connClasses) victimLocked(s scope, t *tracked, now time.Time) *tracked {
	wt := s.weigh(t)
	// Only a client that holds no anonymous connection yet (a desktop, a
	// flood's address whose every socket was closed) takes a stalled one's
	// place: a flood's addresses that hold some would take each other's
	// in turn.
	fresh := c.weightOf(t)[1] == 0
	var oldest, idle *tracked
	consider := func(h *holder, wv [2]int) {
		far := farHeavier(wv, wt)
		if !far && !(fresh && heavier(wv, wt)) {
			return
		}
		for e := h.conns.Front(); e != nil; e = e.Next() {
			v := e.Value.(*tracked)
			if oldest != nil && v.seq > oldest.seq {
				return // the list runs oldest first
			}
			if v == t || v.completed && v.active {
				continue
			}
			if !v.completed {
				if far || now.Sub(v.opened) > stalledAfter {
					oldest = v
					return
				}
				continue
			}
			if far && (idle == nil || v.seq < idle.seq) {
				idle = v
			}
		}
	}
	if s.network.IsValid() {
		if nc := c.nets[s.network]; nc != nil {
			for _, h := range nc.clients {
				consider(h, [2]int{h.n})
			}
		}
	} else {
		// No network holds more than twice t's, and no address more than
		// twice t's: none is far heavier, and t's address holds some.
		if !fresh && c.netsHold.top <= 2*wt[0]+1 && c.clientsHold.top <= 2*wt[1]+1 {
			return nil
		}
		for _, nc := range c.nets {
			// A network lighter than t's holds no victim; one heavier but
			// not far heavier, none unless t's address holds none.
			if nc.n < wt[0] || nc.n > wt[0] && !fresh && !farHeavier([2]int{nc.n}, [2]int{wt[0]}) {
				continue
			}
			for _, h := range nc.clients {
				consider(h, [2]int{nc.n, h.n})
			}
		}
	}
	if oldest != nil {
		return oldest
	}
	return idle
}

func heavier(a, b [2]int) bool { return a[0] > b[0] || a[0] == b[0] && a[1] > b[1] }

// farHeavier: a holds more than twice what b does, and more than one
// more. Holders of about the same weight (the addresses of one flood) do
// not close each other's connections: each closed would come back at
// once and close another, in a loop.
func farHeavier(a, b [2]int) bool {
	if a[0] != b[0] {
		return a[0] > 2*b[0]+1
	}
	return a[1] > 2*b[1]+1
}

// holdLocked counts t among its address's and network's anonymous
// connections (none when it has no address counted: a proxy's between
// requests, the service's).
func (c *connClasses) holdLocked(t *tracked) {
	if !t.clientKey.IsValid() || t.held != nil {
		return
	}
	nc := c.nets[t.netKey]
	if nc == nil {
		nc = &netCount{clients: map[netip.Prefix]*holder{}}
		c.nets[t.netKey] = nc
	}
	h := nc.clients[t.clientKey]
	if h == nil {
		h = &holder{}
		nc.clients[t.clientKey] = h
	}
	c.seq++
	c.netsHold.move(nc.n, nc.n+1)
	c.clientsHold.move(h.n, h.n+1)
	nc.n, h.n, t.seq = nc.n+1, h.n+1, c.seq
	t.held = h.conns.PushBack(t)
}

// releaseLocked stops counting t in its address and network.
func (c *connClasses) releaseLocked(t *tracked) {
	if t.held == nil {
		return
	}
	nc := c.nets[t.netKey]
	h := nc.clients[t.clientKey]
	h.conns.Remove(t.held)
	t.held = nil
	c.netsHold.move(nc.n, nc.n-1)
	c.clientsHold.move(h.n, h.n-1)
	if nc.n, h.n = nc.n-1, h.n-1; h.n == 0 {
		delete(nc.clients, t.clientKey)
	}
	if nc.n == 0 {
		delete(c.nets, t.netKey)
	}
}

// forgetLocked stops counting t (closed, or closed by a cap).
func (c *connClasses) forgetLocked(t *tracked) {
	if t.gone {
		return
	}
	t.gone = true
	delete(c.conns, t.conn)
	if t.elem != nil {
		c.releaseLocked(t)
		c.anon.Remove(t.elem)
		t.elem = nil
	} else if t.signedIn {
		c.signed--
	}
}

// attributeLocked counts a proxy's anonymous connection as a's while it
// carries a's request (invalid a: no one's).
func (c *connClasses) attributeLocked(t *tracked, a netip.Addr) {
	if t.elem == nil {
		if !t.signedIn || a.IsValid() {
			return
		}
		// A proxy's connection is signed in for one request only.
		t.signedIn = false
		c.signed--
		t.elem = c.anon.PushBack(t)
	}
	c.releaseLocked(t)
	c.keysLocked(t, a)
	c.holdLocked(t)
}

// keysLocked makes t a's, counted by a's address and network unless a is
// the service's (or no one).
func (c *connClasses) keysLocked(t *tracked, a netip.Addr) {
	t.client, t.clientKey, t.netKey = a, netip.Prefix{}, netip.Prefix{}
	if a.IsValid() && !trusted(c.service, a) {
		t.clientKey, t.netKey = keyOf(a), c.networkOf(a)
	}
}

// closeConn closes a connection without waiting on it: a TLS connection's
// close alert could wait on a client that does not read.
func closeConn(conn net.Conn) { rawConn(conn).Close() }

// A request reaches its connection's class through its context.
type connCtxKey struct{}

type connRef struct {
	c    *connClasses
	conn net.Conn
}

// connContext is the http.Server ConnContext hook.
func (c *connClasses) connContext(ctx context.Context, conn net.Conn) context.Context {
	return context.WithValue(ctx, connCtxKey{}, &connRef{c, rawConn(conn)})
}

// requestFrom tells the connection of ctx's request whom the request is
// from, for a proxy's connection: it counts as a's anonymous connection
// until the request ends.
func requestFrom(ctx context.Context, a netip.Addr) {
	ref, _ := ctx.Value(connCtxKey{}).(*connRef)
	if ref == nil {
		return
	}
	c := ref.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.conns[ref.conn]; t != nil && t.proxied && t.elem != nil {
		c.attributeLocked(t, a)
	}
}

// withinCaps keeps the anonymous request of ctx, on a proxy's connection,
// within the caps of the client it is for (as admit does for a
// connection of the client's own): false when the request is to be
// refused, its client holding the most in its address or network.
func withinCaps(ctx context.Context) bool {
	ref, _ := ctx.Value(connCtxKey{}).(*connRef)
	if ref == nil {
		return true
	}
	c := ref.c
	c.mu.Lock()
	t := c.conns[ref.conn]
	if t == nil || !t.proxied || t.elem == nil || !t.clientKey.IsValid() {
		c.mu.Unlock()
		return true
	}
	// t counts already: room for none more.
	victims, trips, refused := c.makeRoomLocked(t, c.scopesLocked(t)[:2], 0)
	c.mu.Unlock()
	c.closed(victims, trips)
	return !refused
}

// signedIn moves the connection of ctx's request to the signed-in class:
// it carried a valid staff token (a proxy's, for this request).
func signedIn(ctx context.Context) {
	ref, _ := ctx.Value(connCtxKey{}).(*connRef)
	if ref == nil {
		return
	}
	c := ref.c
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.conns[ref.conn]
	if t == nil || t.elem == nil {
		return
	}
	c.releaseLocked(t)
	c.anon.Remove(t.elem)
	t.elem, t.signedIn = nil, true
	c.signed++
}

// connCounts are the connections open by class (metrics, tests).
func (c *connClasses) counts() (anonymous, signedIn int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.anon.Len(), c.signed
}
