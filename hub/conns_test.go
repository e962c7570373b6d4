package hub

import (
	"context"
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
