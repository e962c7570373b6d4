package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// stalling is an attack under way: sockets that send half a request and
// go quiet, opened again shortly after the hub closes them.
type stalling struct {
	n int
	// again is how soon a socket the hub closed at once is opened again.
	again  time.Duration
	stop   context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	open   map[net.Conn]bool
	dialed atomic.Int64
	held   atomic.Int64
}

// stall opens n such sockets to addr, spread over the addresses ips; one
// the hub closes within a second is opened again after again.
func stall(t testing.TB, addr string, ips []string, n int, again time.Duration) *stalling {
	ctx, stop := context.WithCancel(context.Background())
	s := &stalling{n: n, again: again, stop: stop, open: map[net.Conn]bool{}}
	for i := range n {
		from := dialerFrom(ips[i%len(ips)])
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for ctx.Err() == nil {
				c, err := from.DialContext(ctx, "tcp", addr)
				if err != nil {
					select {
					case <-ctx.Done():
					case <-time.After(100 * time.Millisecond):
					}
					continue
				}
				s.dialed.Add(1)
				s.mu.Lock()
				s.open[c] = true
				s.mu.Unlock()
				if ctx.Err() != nil {
					c.Close()
				}
				opened := time.Now()
				io.WriteString(c, "GET /api/workOrder?ids=1 HTTP/1.1\r\nHost: hub\r\n")
				s.held.Add(1)
				io.Copy(io.Discard, c) // until the hub closes it
				s.held.Add(-1)
				c.Close()
				s.mu.Lock()
				delete(s.open, c)
				s.mu.Unlock()
				if time.Since(opened) < time.Second {
					// Closed at once: again shortly.
					select {
					case <-ctx.Done():
					case <-time.After(s.again):
					}
				}
			}
		}()
	}
	t.Cleanup(s.end)
	return s
}

func (s *stalling) end() {
	s.stop()
	s.mu.Lock()
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// freshConnections is an HTTP client from ip that opens a connection of
// its own for every call: each must find its place among the stalled.
func freshConnections(ip string) *http.Client {
	d := dialerFrom(ip)
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// A few addresses cannot starve the office: sockets stalled from one
// address, five, or fifty of one /16 (opened again a second after the hub
// closes them) leave a desktop at 127.0.0.1 (in the same /24 as the first
// two attacks) answered at least 57 times of 60, each call on a
// connection of its own, and its event stream (a signed-in connection)
// open and hearing. A small version, a quarter of the hub's connections
// and of the sockets: the full figures (1,300 sockets from five
// addresses, 5,000 from fifty) are BenchmarkStalledSockets's.
func TestSecurityStalledSocketsLeaveADesktopAnswered(t *testing.T) {
	// Not parallel: the sockets would slow the tests beside it.
	for _, c := range []struct {
		name string
		ips  []string
		n    int
	}{
		{"300 from one address", []string{"127.0.0.2"}, 300},
		{"350 from five addresses", stallAddresses("127.0.0.%d", 2, 5), 350},
		{"300 from fifty addresses of one /16", stallAddresses("127.9.%d.1", 0, 50), 300},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOffice(t, sandbox.Options{})
			a := o.start(func(opts *Options) { opts.Limits.MaxConns = DefaultMaxConns / 4 })
			id := newWorkOrder(t, o)
			if err := a.hub.SyncNow(context.Background()); err != nil {
				t.Fatal(err)
			}
			s := stall(t, a.srv.Listener.Addr().String(), c.ips, c.n, time.Second)
			answered, lat := stalledSocketsBeside(t, o, a.srv.URL, id, s, 60)
			if answered < 57 {
				t.Fatalf("%d of 60 calls answered, want at least 57", answered)
			}
			t.Logf("%d of 60 answered; p50 %v, p99 %v", answered, lat[len(lat)/2], lat[len(lat)*99/100])
		})
	}
}

// stallAddresses are n loopback addresses of format, the first at from.
func stallAddresses(format string, from, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(format, from+i))
	}
	return out
}

// attack is a flood under way: how many sockets it has opened so far, and
// how it ends.
type attack interface {
	opened() int64
	wanted() int
	end()
}

func (s *stalling) opened() int64 { return s.dialed.Load() }
func (s *stalling) wanted() int   { return s.n }

// stalledSocketsBeside waits for the attack's sockets to be opened, then
// makes calls calls of a desktop at 127.0.0.1 to the hub at url (reading
// work order id, which the hub holds, and searching), each on a
// connection of its own, 50 ms apart; it returns how many were answered
// and their times, sorted. The desktop's event stream, opened first, must
// outlive the attack.
func stalledSocketsBeside(t testing.TB, o *office, url string, id int64, at attack, calls int) (int, []time.Duration) {
	ctx := context.Background()
	creds, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	stream := openStreamAt(t, url, tokenAt(t, url, creds), "")
	waitFor(t, 60*time.Second, "every stalled socket to be opened", func() bool { return at.opened() >= int64(at.wanted()) })

	hc := freshConnections("127.0.0.1")
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: url + "/oauth/token", ClientID: creds.ClientId, ClientSecret: creds.ClientSecret, HTTPClient: hc})
	desk, err := api.NewClient(url+"/", hc, tokens)
	if err != nil {
		t.Fatal(err)
	}
	answered := 0
	var lat []time.Duration
	for i := range calls {
		start := time.Now()
		var err error
		if i%2 == 0 {
			_, err = desk.GetWorkOrder(ctx, id)
		} else {
			_, err = desk.SearchWorkOrders(ctx, api.SearchParameters{WorkOrderNumber: "none such"})
		}
		lat = append(lat, time.Since(start))
		if err != nil {
			t.Logf("call %d: %v", i, err)
		} else {
			answered++
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("beside %d stalled sockets (%d opened in all)", at.wanted(), at.opened())
	at.end()
	postNotificationAt(t, o, url, id)
	select {
	case _, open := <-stream:
		if !open {
			t.Error("the desktop's event stream was closed")
		}
	case <-time.After(10 * time.Second):
		t.Error("the desktop's event stream heard nothing of a notification")
	}
	slices.Sort(lat)
	return answered, lat
}

// Behind the office's proxy, the caps are the forwarded clients': of
// stalled sign-ins forwarded for twelve addresses of one IPv6 /56 (each of
// its own /64), the network's share (4) is kept and the rest refused; one
// forwarded for another /56 is left alone; and a desktop forwarded for an
// address of the crowded /56 is answered.
func TestSecurityAnonymousCapsBehindATrustedProxyAreTheClientsNetworks(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(func(opts *Options) {
		opts.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
		opts.ConnsPerClient, opts.ConnsPerNetwork = 2, 4
	})
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	addr := a.srv.Listener.Addr().String()
	// A sign-in whose body never comes, as the proxy passes it on.
	stalled := func(client string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "POST /oauth/token HTTP/1.1\r\nHost: hub\r\nX-Forwarded-For: %s\r\n"+
			"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=", client)
		return c
	}
	// closed reads what the hub answered (a refusal, 429) until the
	// connection ends, or it goes quiet.
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		_, err := io.Copy(io.Discard, c)
		return !isTimeout(err)
	}
	var crowd []net.Conn
	for i := range 12 {
		crowd = append(crowd, stalled(fmt.Sprintf("2001:db8:0:1%02x::%d", i, i+1)))
		// One at a time, so the hub sees them in this order.
		waitFor(t, 10*time.Second, "the hub to serve the stalled sign-in", func() bool {
			return a.served.count("/oauth/token") >= i+2 // the desktop's own sign-in, then these
		})
	}
	other := stalled("2001:db8:0:200::1")
	waitFor(t, 10*time.Second, "the crowded /56 to be cut to its share", func() bool {
		n := 0
		for _, c := range crowd {
			if closed(c) {
				n++
			}
		}
		return n >= 8
	})
	for i, c := range crowd {
		if got, want := closed(c), i >= 4; got != want {
			t.Errorf("stalled sign-in %d of 12 from the crowded /56: closed %v, want %v", i+1, got, want)
		}
	}
	if closed(other) {
		t.Error("the stalled sign-in from another /56 was closed")
	}
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/api/hub/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Forwarded-For", "2001:db8:0:1ff::9")
	resp, err := freshConnections("127.0.0.1").Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a desktop of the crowded /56 behind the proxy: HTTP %d", resp.StatusCode)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Where the office says the service's notifications come from
// (--notify-from), connections are not capped as a client's: the service
// sends from few addresses and a bulk dispatch must all arrive. Anyone
// else's are.
func TestSecurityTheServicesAddressesAreNotCappedAsAClients(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(func(opts *Options) {
		opts.NotifyFrom = []netip.Prefix{netip.MustParsePrefix("127.0.0.7/32")}
		opts.ConnsPerClient, opts.ConnsPerNetwork = 2, 4
	})
	addr := a.srv.Listener.Addr().String()
	open := func(ip string) []net.Conn {
		var out []net.Conn
		for range 6 {
			c, err := dialerFrom(ip).Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			io.WriteString(c, "POST /notify HTTP/1.1\r\nHost: hub\r\n")
			out = append(out, c)
		}
		return out
	}
	shut := func(conns []net.Conn) (n int) {
		for _, c := range conns {
			c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			if _, err := io.Copy(io.Discard, c); !isTimeout(err) {
				n++
			}
		}
		return n
	}
	service, other := open("127.0.0.7"), open("127.0.0.8")
	waitFor(t, 10*time.Second, "the other address's connections over its cap to be refused", func() bool { return shut(other) == 4 })
	if n := shut(service); n != 0 {
		t.Errorf("%d of 6 connections from the service's address were closed, want none", n)
	}
}
