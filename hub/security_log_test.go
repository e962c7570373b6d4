package hub

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// The security log stays readable under attack: a disabled person's old
// token on 300 distinct paths (refused 401, then 429), and a captured
// notification token under 300 distinct Event-Type headers, each make a
// line or two, summed per address and reason; no line names a path or a
// header's value, and none holds a token.
func TestSecurityLogStaysReadableUnderAFlood(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	logs := &logBuffer{}
	// The rate limits' clock stands still: the 429s come after the
	// 100th call however slow the machine.
	frozen := time.Now()
	a := o.start(func(opts *Options) {
		opts.Logger = logs.logger()
		opts.Now = func() time.Time { return frozen }
	})
	_, bo := o.person(a, "Bo Chen")
	boToken := token(t, a, bo)
	if _, err := o.db.DisablePerson(context.Background(), "Bo Chen"); err != nil {
		t.Fatal(err)
	}
	id := newWorkOrder(t, o)
	began := time.Now()
	from := httpFrom("127.0.0.2")
	statuses := map[int]int{}
	for i := range 300 {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/flood-%03d/x?workOrderId=%d", a.srv.URL, i, i), nil)
		req.Header.Set("Authorization", "Bearer "+boToken)
		resp, err := from.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		statuses[resp.StatusCode]++
	}
	if statuses[http.StatusUnauthorized] == 0 || statuses[http.StatusTooManyRequests] == 0 {
		t.Fatalf("the disabled token's 300 calls were answered %v, want 401s and then 429s", statuses)
	}
	captured := notificationToken(t, o)
	sender := httpFrom("127.0.0.3")
	for i := range 300 {
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/notify", strings.NewReader(string(notice(t, id, api.ActionNteChanged, nil))))
		req.Header.Set("Authorization", "Bearer "+captured)
		req.Header.Set("Event-Type", fmt.Sprintf("Forged-%03d", i))
		resp, err := sender.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("a notification whose Event-Type is not its action: HTTP %d, want 400", resp.StatusCode)
		}
	}
	a.hub.sec.flush()
	took := time.Since(began)
	var security []string
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"security":true`) {
			security = append(security, sc.Text())
		}
	}
	// Three sums (the disabled person's calls, the rate limit they met,
	// the notifications refused), each a line at its first and a line at
	// the end of each minute the flood spans (on a slow machine, several).
	if most := 3 * 2 * (2 + int(took/time.Minute)); len(security) > most {
		t.Errorf("600 refused requests in %v made %d security lines, want at most %d sums:\n%s", took.Round(time.Second), len(security), most, strings.Join(security, "\n"))
	}
	if n := counted(linesFrom(logs.security(t, secDisabledCall), "127.0.0.2")); n < 100 {
		t.Errorf("the disabled person's calls summed in the log: %d, want those before the rate limit (100)", n)
	}
	if n := counted(linesFrom(logs.security(t, secNotificationRefused), "127.0.0.3")); n != 300 {
		t.Errorf("refused notifications summed in the log: %d, want 300", n)
	}
	all := logs.String()
	for _, leak := range []string{"flood-", "Forged-", boToken, captured, bo.ClientSecret} {
		if strings.Contains(all, leak) {
			t.Errorf("the log holds %.20q (a path, a header's value, a token or a secret)", leak)
		}
	}
}

// The HTTP server's own complaints, one per connection (a TLS handshake
// that failed), are summed as refusals are.
func TestSecurityLogSumsTheServersComplaints(t *testing.T) {
	t.Parallel()
	logs := &logBuffer{}
	sec := newSecLog(logs.logger())
	l := sec.serverLog()
	for i := range 300 {
		l.Printf("http: TLS handshake error from 192.0.2.7:%d: tls: first record does not look like a TLS handshake", 40000+i)
		l.Printf("http: TLS handshake error from 192.0.2.8:%d: EOF", 40000+i)
	}
	sec.flush()
	lines := logs.security(t, secConnectionFailed)
	if len(lines) != 4 || counted(lines) != 600 {
		t.Errorf("600 failed handshakes from two addresses: %d lines summing %d, want 4 summing 600: %v", len(lines), counted(lines), lines)
	}
	if strings.Contains(logs.String(), ":40001") {
		t.Error("a line names a connection's port")
	}
}

// One host holds a /64 of IPv6 addresses: 300 refusals from 300 of them
// are summed as one client's, its /64, in two lines (the first at once,
// the rest at the minute's end), not 300.
func TestSecurityLogSumsAnIPv6HostsAddressesAsOne(t *testing.T) {
	logs := &logBuffer{}
	s := newSecLog(logs.logger())
	for i := range 300 {
		s.note(secSignInRefused, netip.MustParseAddr(fmt.Sprintf("2001:db8:0:1:%x::%x", i, i+1)), "unknown client or wrong secret")
	}
	s.note(secSignInRefused, netip.MustParseAddr("192.0.2.7"), "unknown client or wrong secret")
	s.flush()
	lines := logs.security(t, secSignInRefused)
	if got := linesFrom(lines, "2001:db8:0:1::/64"); len(got) != 2 || counted(got) != 300 {
		t.Errorf("300 refusals from one /64 made %d lines summing %d, want 2 lines summing 300: %v", len(got), counted(got), lines)
	}
	if got := linesFrom(lines, "192.0.2.7"); len(got) != 1 {
		t.Errorf("an IPv4 client's refusal: %v, want one line naming its address", lines)
	}
}
