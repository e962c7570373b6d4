package hub

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

// fakeConn is a connection from an address, that knows whether it was
// closed.
type fakeConn struct {
	net.Conn
	from   netip.AddrPort
	closed atomic.Bool
}

func (f *fakeConn) RemoteAddr() net.Addr { return net.TCPAddrFromAddrPort(f.from) }
func (f *fakeConn) Close() error         { f.closed.Store(true); return nil }

// Signed-in connections keep their share: of 10 connections 3 are kept
// for them, so anonymous ones never hold more than 7, and none signed in
// is ever closed to make room for an anonymous one; a light client's new
// connection takes the place of one of a heavy holder's, whose own new
// ones are refused.
func TestConnClassesKeepTheSignedInShare(t *testing.T) {
	t.Parallel()
	c := newConnClasses(connCaps{total: 10, signedInShare: 3, perClient: 100, perNetwork: 100, bits4: 24, bits6: 56}, nil, nil, func(trip) {})
	port := uint16(1000)
	conn := func(ip string) *fakeConn {
		port++
		f := &fakeConn{from: netip.AddrPortFrom(netip.MustParseAddr(ip), port)}
		c.track(f, http.StateNew)
		return f
	}
	signIn := func(f *fakeConn) {
		c.track(f, http.StateActive)
		signedIn(c.connContext(context.Background(), f))
	}
	closed := func(fs []*fakeConn) (n int) {
		for _, f := range fs {
			if f.closed.Load() {
				n++
			}
		}
		return n
	}
	var flood []*fakeConn
	for range 20 {
		flood = append(flood, conn("10.0.0.1"))
	}
	if anon, _ := c.counts(); anon != 7 || closed(flood) != 13 {
		t.Fatalf("20 from one address: %d anonymous, %d closed; want the 7 not kept for those signed in, 13 refused", anon, closed(flood))
	}
	var desks []*fakeConn
	for i := range 6 {
		d := conn(netip.AddrFrom4([4]byte{10, 1, byte(i), 1}).String())
		if d.closed.Load() {
			t.Fatalf("desk %d's new connection was refused beside the flood", i)
		}
		signIn(d)
		desks = append(desks, d)
	}
	// Four of the desks' took a flood connection's place (the first at
	// the anonymous share, three at the cap of 10); the flood's next takes
	// the one place left, the one after that is refused.
	flood = append(flood, conn("10.0.0.1"), conn("10.0.0.1"))
	if anon, signed := c.counts(); anon != 4 || signed != 6 || closed(flood) != 18 {
		t.Fatalf("%d anonymous, %d signed in, %d of the flood's 22 closed; want 4, 6 and 18", anon, signed, closed(flood))
	}
	// At the cap of 10, a light client's new one takes the place of one of
	// the flood's, never of one signed in.
	late := conn("10.3.0.1")
	if late.closed.Load() || closed(flood) != 19 {
		t.Errorf("a light client's connection at the cap: closed %v; the flood's closed %d of 22, want 19", late.closed.Load(), closed(flood))
	}
	if n := closed(desks); n > 0 {
		t.Errorf("%d signed-in connections were closed for anonymous ones", n)
	}
	if anon, signed := c.counts(); anon+signed > 10 || anon > 7 {
		t.Errorf("%d anonymous and %d signed in: over the caps", anon, signed)
	}
}

// A flood of one connection from each of many addresses of the office's
// own IPv6 /56 (one /64 each) fills the network's share: a desktop of that
// /56 still gets in, in place of a connection stalled for longer than
// stalledAfter; the flood's fresh addresses replace its stalled sockets
// only once each is that old, and its addresses that hold one already are
// refused.
func TestConnClassesLetADesktopPastManyLightStalledOnes(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	c := newConnClasses(connCaps{total: 100, signedInShare: 25, perClient: 4, perNetwork: 4, bits4: 24, bits6: 56}, nil, nil, func(trip) {})
	c.now = func() time.Time { return now }
	port := uint16(1000)
	conn := func(ip string) *fakeConn {
		port++
		f := &fakeConn{from: netip.AddrPortFrom(netip.MustParseAddr(ip), port)}
		c.track(f, http.StateNew)
		return f
	}
	var flood []*fakeConn
	for _, sub := range []string{"11a", "11b", "11c", "11d"} {
		flood = append(flood, conn("2001:db8:0:"+sub+"::1"))
	}
	if fresh := conn("2001:db8:0:11e::1"); !fresh.closed.Load() {
		t.Error("a fresh address's connection took the place of one opened a moment ago")
	}
	now = now.Add(stalledAfter + time.Second)
	desk := conn("2001:db8:0:1ff::9")
	if desk.closed.Load() || !flood[0].closed.Load() {
		t.Errorf("a desktop of the crowded /56: refused %v; the oldest stalled one closed %v; want in, and it closed", desk.closed.Load(), flood[0].closed.Load())
	}
	if again := conn("2001:db8:0:11c::1"); !again.closed.Load() {
		t.Error("an address that holds a connection already took another's place")
	}
	if fresh := conn("2001:db8:0:11f::1"); fresh.closed.Load() || !flood[1].closed.Load() || desk.closed.Load() {
		t.Errorf("a fresh address after the stall age: refused %v, the oldest stalled one closed %v, the desktop's closed %v; want in, closed, open",
			fresh.closed.Load(), flood[1].closed.Load(), desk.closed.Load())
	}
}

// The victim a cap closes is the one a walk through every anonymous
// connection, oldest first, would pick (the rule victimLocked states),
// whatever the connections of many addresses of a few networks have
// done: opened, served a request, gone idle, signed in, closed; some
// stalled long, some not.
func TestConnClassesPickTheVictimTheRuleNames(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	c := newConnClasses(connCaps{total: 1 << 20, perClient: 1 << 20, perNetwork: 1 << 20, bits4: 24, bits6: 56}, nil, nil, func(trip) {})
	c.now = func() time.Time { return now }
	rnd := rand.New(rand.NewPCG(35, 1))
	addr := func() netip.Addr {
		// Three networks of few addresses, one network of many light ones.
		if rnd.IntN(4) == 0 {
			return netip.AddrFrom4([4]byte{10, 9, byte(rnd.IntN(200)), 1})
		}
		return netip.AddrFrom4([4]byte{10, byte(rnd.IntN(3)), 0, byte(1 + rnd.IntN(4))})
	}
	var open []*fakeConn
	port := uint16(0)
	// walk is the rule, by a look at every anonymous connection.
	walk := func(s scope, nt *tracked) *tracked {
		wt := s.weigh(nt)
		fresh := c.weightOf(nt)[1] == 0
		var idle *tracked
		for e := c.anon.Front(); e != nil; e = e.Next() {
			v := e.Value.(*tracked)
			if !v.clientKey.IsValid() || s.network.IsValid() && v.netKey != s.network || v.completed && v.active {
				continue
			}
			wv := s.weigh(v)
			stalled := fresh && !v.completed && now.Sub(v.opened) > stalledAfter
			if !farHeavier(wv, wt) && !(heavier(wv, wt) && stalled) {
				continue
			}
			if !v.completed {
				return v
			}
			if idle == nil {
				idle = v
			}
		}
		return idle
	}
	picked := 0
	for step := range 4000 {
		// Mostly moments apart, now and then past stalledAfter: some
		// stalled, some not.
		now = now.Add(time.Duration(rnd.IntN(20)) * time.Millisecond)
		if rnd.IntN(200) == 0 {
			now = now.Add(stalledAfter)
		}
		switch op := rnd.IntN(10); {
		case op < 5 || len(open) == 0:
			port++
			f := &fakeConn{from: netip.AddrPortFrom(addr(), port)}
			c.track(f, http.StateNew)
			open = append(open, f)
		case op < 9:
			f := open[rnd.IntN(len(open))]
			switch rnd.IntN(4) {
			case 0:
				c.track(f, http.StateActive)
			case 1:
				c.track(f, http.StateIdle)
			case 2:
				c.track(f, http.StateActive)
				signedIn(c.connContext(context.Background(), f))
			case 3:
				c.track(f, http.StateClosed)
			}
		default:
			// A new connection, weighed but not admitted: does every cap
			// it counts in pick the victim the rule names?
			port++
			nt := &tracked{conn: &fakeConn{from: netip.AddrPortFrom(addr(), port)}, opened: now}
			c.keysLocked(nt, nt.conn.RemoteAddr().(*net.TCPAddr).AddrPort().Addr())
			c.mu.Lock()
			for _, s := range c.scopesLocked(nt) {
				if s.weigh == nil {
					continue
				}
				want, got := walk(s, nt), c.victimLocked(s, nt, now)
				if got != want {
					t.Fatalf("step %d, %s cap, a new connection from %v: victim %p, the rule names %p", step, s.label, nt.client, got, want)
				}
				if got != nil {
					picked++
				}
			}
			c.mu.Unlock()
		}
	}
	t.Logf("%d victims picked as the rule names", picked)
	if picked == 0 {
		t.Fatal("no cap ever had a victim: the check proved nothing")
	}
}
