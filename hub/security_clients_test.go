package hub

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// Who a request is from: the peer, or behind a proxy the office trusts,
// the rightmost address of X-Forwarded-For that is not one of its proxies;
// and what limits count it as: an IPv4 address, or an IPv6 /64.
func TestSecurityClientAddressOf(t *testing.T) {
	t.Parallel()
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/64")}
	for _, c := range []struct {
		peer, xff, want string
	}{
		{"192.0.2.7:5000", "", "192.0.2.7"},
		{"192.0.2.7:5000", "198.51.100.1", "192.0.2.7"}, // not a proxy: its header is not read
		{"10.0.0.5:5000", "198.51.100.1", "198.51.100.1"},
		{"10.0.0.5:5000", "203.0.113.9, 198.51.100.1", "198.51.100.1"},
		{"10.0.0.5:5000", "198.51.100.1, 10.1.2.3", "198.51.100.1"}, // through two proxies
		{"10.0.0.5:5000", "", "10.0.0.5"},
		{"10.0.0.5:5000", "garbage", "10.0.0.5"},
		{"[fd00::1]:5000", "2001:db8::1", "2001:db8::1"},
		{"[::ffff:192.0.2.7]:5000", "", "192.0.2.7"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = c.peer
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := clientOf(r, proxies); got.String() != c.want {
			t.Errorf("from %s, X-Forwarded-For %q: %s, want %s", c.peer, c.xff, got, c.want)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"2001:db8:1:2::1", "2001:db8:1:2:ffff::9"},
		{"192.0.2.7", "::ffff:192.0.2.7"},
	} {
		if keyOf(netip.MustParseAddr(c.a)) != keyOf(netip.MustParseAddr(c.b)) {
			t.Errorf("%s and %s are counted apart, want together", c.a, c.b)
		}
	}
	if keyOf(netip.MustParseAddr("2001:db8:1:2::1")) == keyOf(netip.MustParseAddr("2001:db8:1:3::1")) {
		t.Error("two /64s are counted together")
	}
}

// Someone at 127.0.0.2 guesses Ana's secret a hundred times and floods
// made-up client ids: they are refused (401, then 429), while Ana signs in
// from 127.0.0.1 at once, and Ben too, five times in a row.
func TestSecuritySignInGuessingFromOneAddressNeverLocksOutAnother(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ctx := context.Background()
	ana, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	ben, err := o.db.AddPerson(ctx, "Ben Okafor")
	if err != nil {
		t.Fatal(err)
	}
	guesser, desk := httpFrom("127.0.0.2"), httpFrom("127.0.0.1")
	limited := 0
	for i := range 400 {
		id := ana.ClientId
		if i >= 100 {
			id = fmt.Sprintf("hub-made-up-%d", i)
		}
		switch status := signInFrom(t, guesser, a.srv.URL, id, "guess"); status {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests:
			limited++
		default:
			t.Fatalf("guess %d: HTTP %d", i, status)
		}
	}
	if limited == 0 {
		t.Fatal("400 guesses from one address were all checked")
	}
	if status := signInFrom(t, desk, a.srv.URL, ana.ClientId, ana.ClientSecret); status != http.StatusOK {
		t.Fatalf("Ana from her own desk beside the guessing: HTTP %d", status)
	}
	for i := range 5 {
		if status := signInFrom(t, desk, a.srv.URL, ben.ClientId, ben.ClientSecret); status != http.StatusOK {
			t.Fatalf("Ben's sign-in %d beside the guessing: HTTP %d", i+1, status)
		}
	}
	t.Logf("%d of 400 guesses from 127.0.0.2 refused with 429", limited)
}

// One person's token opens ten event streams on one instance and one on
// another: the oldest are closed, on whichever instance, and the newest
// eight stay open.
func TestSecurityAPersonHoldsAtMostEightStreams(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tokA, tokB := token(t, a, creds), token(t, b, creds)
	var streams []<-chan sseEvent
	for range 10 {
		streams = append(streams, openStreamAt(t, a.srv.URL, tokA, ""))
	}
	streams = append(streams, openStreamAt(t, b.srv.URL, tokB, ""))
	ended := func(ch <-chan sseEvent, within time.Duration) bool {
		deadline := time.After(within)
		for {
			select {
			case _, open := <-ch:
				if !open {
					return true
				}
			case <-deadline:
				return false
			}
		}
	}
	for i, ch := range streams[:3] {
		if !ended(ch, 10*time.Second) {
			t.Errorf("stream %d of 11 (among the oldest) is still open", i+1)
		}
	}
	postNotification(t, o, a, newWorkOrder(t, o))
	for i, ch := range streams[3:] {
		select {
		case _, open := <-ch:
			if !open {
				t.Errorf("stream %d of 11 (among the newest eight) was closed", i+4)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("stream %d of 11 heard nothing of a notification", i+4)
		}
	}
}

// The security log names, per client address and in sums per minute,
// refused sign-ins, refused notifications with why, the limits tripped and
// the calls of a disabled person; and nothing in it is a secret or a
// token.
func TestSecurityLogSumsRefusalsWithoutSecrets(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	logs := &logBuffer{}
	a := o.start(func(opts *Options) {
		opts.Logger = logs.logger()
		opts.ConnsPerClient = 4
	})
	ctx := context.Background()
	ana, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	_, bo := o.person(a, "Bo Chen")
	boToken := token(t, a, bo)
	guesser := httpFrom("127.0.0.2")
	const guess = "not-anas-secret-1234"
	for range 8 {
		signInFrom(t, guesser, a.srv.URL, ana.ClientId, guess)
	}
	for range 12 {
		signInFrom(t, guesser, a.srv.URL, ana.ClientId, guess)
	}
	forgedTok := "eyJub3QiOiJzaWduZWQifQ<---->AAAA"
	if status := notifyWith(t, httpFrom("127.0.0.3"), a.srv.URL, forgedTok, []byte(`{"Header":{"Action":"NteChanged"}}`), ""); status != http.StatusUnauthorized {
		t.Fatalf("a notification under a made-up token: HTTP %d", status)
	}
	var conns []net.Conn
	for range 6 {
		c, err := dialerFrom("127.0.0.4").Dial("tcp", a.srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	if _, err := o.db.DisablePerson(ctx, "Bo Chen"); err != nil {
		t.Fatal(err)
	}
	if got := searchStatus(t, a, boToken); got != http.StatusUnauthorized {
		t.Fatalf("a disabled person's search: HTTP %d", got)
	}
	waitFor(t, 10*time.Second, "the connections over the share to be closed", func() bool {
		return len(logs.security(t, secRateLimited)) > 0 && strings.Contains(logs.String(), `anonymous connections of one address`)
	})
	a.hub.sec.flush()

	if n := counted(linesFrom(logs.security(t, secSignInRefused), "127.0.0.2")); n < 8 {
		t.Errorf("refused sign-ins from 127.0.0.2 in the log: %d, want at least 8", n)
	}
	var tripped []string
	for _, l := range logs.security(t, secRateLimited) {
		tripped = append(tripped, fmt.Sprint(l["client"], ": ", l["reason"]))
	}
	if got := strings.Join(tripped, "; "); !strings.Contains(got, "127.0.0.2: sign-ins") || !strings.Contains(got, "127.0.0.4: anonymous connections of one address") {
		t.Errorf("limits tripped, as logged: %s", got)
	}
	refused := linesFrom(logs.security(t, secNotificationRefused), "127.0.0.3")
	if len(refused) == 0 || !strings.Contains(fmt.Sprint(refused[0]["reason"]), "token") {
		t.Errorf("the refused notification, as logged: %v", refused)
	}
	if calls := logs.security(t, secDisabledCall); len(calls) == 0 || !strings.Contains(fmt.Sprint(calls[0]["reason"]), "Bo Chen") {
		t.Errorf("the disabled person's call, as logged: %v", calls)
	}
	all := logs.String()
	for _, secret := range []string{ana.ClientSecret, bo.ClientSecret, guess, boToken, forgedTok, "eyJub3Qi"} {
		if strings.Contains(all, secret) {
			t.Errorf("the log holds a secret or a token: %q", secret)
		}
	}
}

func linesFrom(lines []map[string]any, addr string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["client"] == addr {
			out = append(out, l)
		}
	}
	return out
}

// Behind the office's load balancer (a trusted proxy), the limits are the
// clients' it names: guessing from one client behind it is refused,
// while another client behind the same proxy signs in at once.
func TestSecuritySignInLimitsBehindATrustedProxyAreEachClients(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(func(opts *Options) {
		opts.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	ana, err := o.db.AddPerson(context.Background(), "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	signIn := func(client, secret string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/oauth/token",
			strings.NewReader("grant_type=client_credentials&client_id="+ana.ClientId+"&client_secret="+secret))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	limited := false
	for range 50 {
		if signIn("203.0.113.5", "guess") == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("50 guesses from one client behind the proxy were all checked")
	}
	if status := signIn("203.0.113.6", ana.ClientSecret); status != http.StatusOK {
		t.Fatalf("Ana from another client behind the same proxy: HTTP %d", status)
	}
}
