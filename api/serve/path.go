// Package serve is what every server of the service's API does the same
// way: the sandbox (api/sandbox, the simulated service) and the hub (hub/,
// the office's server that speaks the service's API to desktops). Paths are
// matched, query keys, ids and MessageIds read, token requests parsed and
// error bodies written here once, so that neither server is laxer than the
// other and a desktop meets one service whichever it talks to.
package serve

import "strings"

// Route is the route a request path names, as the service matches it:
// ASCII lower-case (the service is ASP.NET and matches paths regardless of
// case), without one trailing slash or the real host's /Direct prefix.
//
// escaped is the path as the client sent it (url.URL.EscapedPath): its
// decoded form would hide an encoded slash. Route is "" for a path that no
// route of the service has and that a server behind IIS could resolve to
// another: anything but ASCII letters, digits, "-", "_", "." and "/" (so
// every percent-encoding, which covers encoded dots, slashes and
// backslashes, double encoding and overlong UTF-8; a backslash; ";" and
// other separators some servers honour; "~", which IIS reads as a short
// file name), an empty segment, or a segment ending in a dot (".", "..",
// and one Windows would trim). Such a path is refused, never resolved:
// resolving it is how "/api/../x" would reach another path of the
// service's host.
func Route(escaped string) string {
	if escaped == "/" {
		return escaped
	}
	p, _ := strings.CutSuffix(escaped, "/")
	if p == "" || p[0] != '/' {
		return ""
	}
	key := make([]byte, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		end := i+1 == len(p) || p[i+1] == '/'
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '.' && !end:
		case c == '/' && !end:
		default:
			return ""
		}
		key[i] = c
	}
	if k := string(key); !strings.HasPrefix(k, "/direct/") {
		return k
	}
	return string(key[len("/direct"):])
}
