package hub

import (
	"bufio"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// The hub as `hub serve` runs it (a process of its own, the default caps:
// 1,024 connections, 64 anonymous per address, 256 per /24, 256 kept for
// those signed in) beside sockets that send half a request and go quiet,
// opened again a second after the hub closes them (or sooner: again),
// from a process of their own: of 60 calls a desktop at 127.0.0.1 makes,
// each on a connection of its own, how many are answered, and in what
// time. Targets: at least 57 of 60, p99 under 1 s.
//
//	go test -tags migrated_fynedo -run X -bench StalledSockets -benchtime 1x ./hub/
func BenchmarkStalledSockets(b *testing.B) {
	for _, c := range []struct {
		name  string
		ips   []string
		n     int
		again time.Duration
	}{
		{"1300-from-5-addresses", stallAddresses("127.0.0.%d", 2, 5), 1300, time.Second},
		{"5000-from-50-addresses-of-one-16", stallAddresses("127.9.%d.1", 0, 50), 5000, time.Second},
		{"1300-from-5-addresses-again-at-once", stallAddresses("127.0.0.%d", 2, 5), 1300, 10 * time.Millisecond},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				o := newOffice(b, sandbox.Options{})
				id := newWorkOrder(b, o)
				hub := o.startHub(b, childConfig{CertPEM: o.info.CertPEM}, time.Minute)
				at := stallProcess(b, strings.TrimPrefix(hub.url, "http://"), c.ips, c.n, c.again)
				answered, lat := stalledSocketsBeside(b, o, hub.url, id, at, 60)
				b.ReportMetric(float64(answered), "answered-of-60")
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
				fmt.Fprintf(b.Output(), "%s: the hub's connections: %s\n", c.name, hubConnections(b, hub))
			}
		})
	}
}

// stallProcess runs stall in a process of its own (this test binary, as
// TestStallHelper), so the sockets do not take the desktop's turns.
func stallProcess(b testing.TB, addr string, ips []string, n int, again time.Duration) attack {
	cmd := exec.Command(os.Args[0], "-test.run=^TestStallHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "WORKDESK_STALL_ADDR="+addr, "WORKDESK_STALL_IPS="+strings.Join(ips, ","),
		"WORKDESK_STALL_N="+strconv.Itoa(n), "WORKDESK_STALL_AGAIN="+again.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	dead := make(chan struct{})
	if err := startDyingWithUs(cmd, func(error) { close(dead) }); err != nil {
		b.Fatal(err)
	}
	p := &stallChild{n: n, kill: func() { cmd.Process.Kill(); <-dead }}
	b.Cleanup(p.kill)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "opened "); ok {
				k, _ := strconv.ParseInt(v, 10, 64)
				p.dialed.Store(k)
			}
		}
	}()
	return p
}

type stallChild struct {
	n      int
	dialed atomic.Int64
	kill   func()
}

func (p *stallChild) opened() int64 { return p.dialed.Load() }
func (p *stallChild) wanted() int   { return p.n }
func (p *stallChild) end()          { p.kill() }

// TestStallHelper is BenchmarkStalledSockets's attacker, in a process of
// its own; it says how many sockets it has opened every 100 ms until it
// is killed.
func TestStallHelper(t *testing.T) {
	addr := os.Getenv("WORKDESK_STALL_ADDR")
	if addr == "" {
		t.Skip("the attacker of BenchmarkStalledSockets, run by it")
	}
	n, err := strconv.Atoi(os.Getenv("WORKDESK_STALL_N"))
	if err != nil || n <= 0 {
		t.Fatalf("WORKDESK_STALL_N=%q: the benchmark names how many sockets to stall", os.Getenv("WORKDESK_STALL_N"))
	}
	again, _ := time.ParseDuration(os.Getenv("WORKDESK_STALL_AGAIN"))
	s := stall(t, addr, strings.Split(os.Getenv("WORKDESK_STALL_IPS"), ","), n, again)
	for {
		fmt.Printf("opened %d\n", s.dialed.Load())
		time.Sleep(100 * time.Millisecond)
	}
}

// hubConnections is what the hub's /metrics says of its connections.
func hubConnections(b testing.TB, c *child) string {
	m := get(nil, c.metrics)
	var out string
	for _, series := range []string{"workdesk_hub_connections_anonymous", "workdesk_hub_connections_signed_in",
		`workdesk_hub_connections_capped_total{cap="address"}`, `workdesk_hub_connections_capped_total{cap="network"}`,
		`workdesk_hub_connections_capped_total{cap="anonymous_share"}`, `workdesk_hub_connections_capped_total{cap="total"}`} {
		v, _ := metricValue(m, series)
		out += fmt.Sprintf("%s %v; ", series, v)
	}
	return out
}

// What the hub spends on each connection of a flood it refuses, with
// the anonymous share (768 of the default 1,024) held by 50 addresses of
// one /16, each of a /24 of its own: the cost BenchmarkStalledSockets's
// 5,000 sockets pay per connection opened again, without its processes.
// Each refusal is made under the lock every new connection waits on.
//
//	go test -tags migrated_fynedo -run X -bench ConnClassesRefuse ./hub/
func BenchmarkConnClassesRefuseAFlood(b *testing.B) {
	c := newConnClasses(connCaps{total: 1024, signedInShare: DefaultSignedInShare(1024), perClient: DefaultConnsPerClient(1024),
		perNetwork: DefaultConnsPerNetwork(1024), bits4: DefaultNetworkBits4, bits6: DefaultNetworkBits6}, nil, nil, func(trip) {})
	port := uint16(1000)
	conn := func(i int) *fakeConn {
		port++
		f := &fakeConn{from: netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 9, byte(i % 50), 1}), port)}
		c.track(f, http.StateNew)
		return f
	}
	for i := range 5000 {
		conn(i)
	}
	if anon, _ := c.counts(); anon != 768 {
		b.Fatalf("%d anonymous connections held, want the share of 768", anon)
	}
	for i := 0; b.Loop(); i++ {
		if f := conn(i); !f.closed.Load() {
			b.Fatal("the flood's new connection was let in")
		}
	}
}
