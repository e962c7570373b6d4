package hub

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// A server is attacked one client address at a time: limits, and the
// security log, are kept per client address. The address is the peer's,
// or, when the peer is a proxy the office names (--trusted-proxy), the one
// that proxy says it served (X-Forwarded-For), so that limits still work
// behind a load balancer. IPv6 addresses are counted per /64, the block one
// machine is usually given.

// clientKey is what limits count by: an IPv4 address, or an IPv6 /64.
type clientKey = netip.Prefix

// keyOf is the limits' key of a.
func keyOf(a netip.Addr) clientKey {
	a = a.Unmap()
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

// peerAddr is the address of the other end of a connection or request.
func peerAddr(s string) (netip.Addr, bool) {
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

// trusted reports whether a is one of the office's proxies.
func trusted(proxies []netip.Prefix, a netip.Addr) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientOf is whom r is from: the peer, or, when the peer is a trusted
// proxy, the rightmost address of X-Forwarded-For that is not itself one
// (what the outermost trusted proxy saw; anything left of it the client
// may have written). Without a usable entry, the proxy itself.
func clientOf(r *http.Request, proxies []netip.Prefix) netip.Addr {
	peer, ok := peerAddr(r.RemoteAddr)
	if !ok {
		return netip.IPv4Unspecified()
	}
	if !trusted(proxies, peer) {
		return peer
	}
	vals := r.Header.Values("X-Forwarded-For")
	for i := len(vals) - 1; i >= 0; i-- {
		hops := strings.Split(vals[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			a, err := netip.ParseAddr(strings.TrimSpace(hops[j]))
			if err != nil {
				return peer
			}
			a = a.Unmap()
			if !trusted(proxies, a) {
				return a
			}
		}
	}
	return peer
}

type clientKeyCtx struct{}

// withClient keeps the request's client address in its context (Handler
// finds it once).
func withClient(ctx context.Context, a netip.Addr) context.Context {
	return context.WithValue(ctx, clientKeyCtx{}, a)
}

// clientFrom is the client address Handler found for a request.
func clientFrom(ctx context.Context) netip.Addr {
	a, _ := ctx.Value(clientKeyCtx{}).(netip.Addr)
	return a
}
