package serve

import (
	"net/url"
	"strings"
	"testing"
)

// routeCases: what a client may send as a path, and the route the service
// takes it for ("" = refused, never resolved). The odd ones are those a
// server behind IIS, or a proxy in front of it, may read as another path.
var routeCases = []struct{ path, want string }{
	{"/api/workOrder", "/api/workorder"},
	{"/API/WORKORDER/", "/api/workorder"},
	{"/api/workOrder/checkIn", "/api/workorder/checkin"},
	{"/Direct/api/workorder", "/api/workorder"},
	{"/direct/API/invoice/submit/", "/api/invoice/submit"},
	{"/oauth/token", "/oauth/token"},
	{"/_sandbox/state", "/_sandbox/state"},
	{"/files/8c1f0c2e-5d0a-4f47-9f7e-0b8f1a2b3c4d", "/files/8c1f0c2e-5d0a-4f47-9f7e-0b8f1a2b3c4d"},
	{"/files/report.v2.pdf", "/files/report.v2.pdf"},
	{"/", "/"},
	{"/direct", "/direct"},
	{"/direct/direct/api/x", "/direct/api/x"}, // the real host's prefix once, as a base URL carries it
	{"", ""},
	{"api/workOrder", ""},
	{"*", ""},
	{"//", ""},
	{"/api//workOrder", ""},
	{"/api/workOrder//", ""},
	{"//api/workOrder", ""},
	// Dot segments, plain and encoded.
	{"/api/../private/keys", ""},
	{"/api/./messages", ""},
	{"/api/workOrder/..", ""},
	{"/api/workOrder/.", ""},
	{"/api/workOrder/../", ""},
	{"/api/%2e%2e/private/keys", ""},
	{"/api/%2E%2E/x", ""},
	{"/api/.%2e/x", ""},
	{"/api/%252e%252e/x", ""},   // double encoding
	{"/api/%c0%ae%c0%ae/x", ""}, // overlong UTF-8 for "."
	{"/api/%e0%80%ae/x", ""},
	{"/api/...", ""},
	{"/api/workOrder.", ""}, // Windows trims a trailing dot
	// Slashes and backslashes, plain and encoded.
	{"/api/..%5c_sandbox/state", ""},
	{"/api/..%5C_sandbox/state", ""},
	{`/api/..\x`, ""},
	{`/api\..\_sandbox\state`, ""},
	{"/api%2fworkOrder", ""},
	{"/api/workOrder%2F..%2F..%2Fx", ""},
	{"/api/%255c", ""},
	// Separators other servers honour, and other bytes no route has.
	{"/API/..;/x", ""},
	{"/api/workOrder;jsessionid=1", ""},
	{"/api/workOrder%3b", ""},
	{"/api/workOrder%00", ""},
	{"/api/workOrder\x00", ""},
	{"/api/work Order", ""},
	{"/api/workOrder?ids=1", ""},
	{"/api/workOrder#x", ""},
	{"/api/WORKOR~1", ""},
	{"/api/wor\u212aorder", ""}, // the Kelvin sign, which Go lower-cases to "k"
	{"/api/workorder\u017f", ""},
	{"/api/workorder\xff", ""},
	{"/api/@x", ""},
	{"/api/x:y", ""},
}

func TestRoute(t *testing.T) {
	for _, c := range routeCases {
		if got := Route(c.path); got != c.want {
			t.Errorf("Route(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}

// What a Go server hands a handler as EscapedPath for a path sent as is: an
// encoded byte stays encoded, so Route sees what the client sent.
func TestRouteOfARequestURI(t *testing.T) {
	for _, c := range []struct{ uri, want string }{
		{"/API/workOrder/?ids=1", "/api/workorder"},
		{"/api/%2e%2e/x", ""},
		{"/api/..%5c_sandbox/state", ""},
		{"/api%2Fworkorder", ""},
		{"/api/%252e%252e/x", ""},
		{"/api/%c0%ae%c0%ae/x", ""},
	} {
		u, err := url.ParseRequestURI(c.uri)
		if err != nil {
			t.Fatalf("%s: %v", c.uri, err)
		}
		if got := Route(u.EscapedPath()); got != c.want {
			t.Errorf("%s: Route(%q) = %q, want %q", c.uri, u.EscapedPath(), got, c.want)
		}
	}
}

// FuzzRoute: whatever the path, a route Route gives is one the service
// could have and nothing can resolve to another: "/" and lower-case
// letters, digits, "-", "_", "." only, no empty or dot-ended segment; the
// same path in another case or with one trailing slash is the same route.
// Seeds: TestRoute's cases.
func FuzzRoute(f *testing.F) {
	for _, c := range routeCases {
		f.Add(c.path)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got := Route(p)
		if got == "" {
			if Route(strings.ToUpper(p)) != "" && !strings.ContainsFunc(p, func(r rune) bool { return r > 0x7f }) {
				t.Fatalf("Route(%q) refused, but takes it in upper case", p)
			}
			return
		}
		if got[0] != '/' {
			t.Fatalf("Route(%q) = %q, not absolute", p, got)
		}
		if got == "/" {
			return
		}
		for _, seg := range strings.Split(got[1:], "/") {
			if seg == "" || strings.HasSuffix(seg, ".") {
				t.Fatalf("Route(%q) = %q: segment %q", p, got, seg)
			}
			for _, c := range []byte(seg) {
				if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
					t.Fatalf("Route(%q) = %q: byte %q", p, got, c)
				}
			}
		}
		if up := Route(strings.ToUpper(p)); up != got {
			t.Fatalf("Route(%q) = %q, but %q in upper case", p, got, up)
		}
		if !strings.HasSuffix(p, "/") {
			if slash := Route(p + "/"); slash != got {
				t.Fatalf("Route(%q) = %q, but %q with a trailing slash", p, got, slash)
			}
		}
	})
}
