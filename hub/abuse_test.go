package hub

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/serve"
)

// stalledRequests are the starts of requests a client sends and then goes
// quiet on, 50 of each: whatever it holds must be let go.
func stalledRequests(t *testing.T, o *office, tok string, uploadTo []int64) []string {
	notifyTok, err := api.MintToken(o.sb.Key(), api.SHA1, api.NewClaims(o.info.ClientID, time.Now(), 10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := range 50 {
		upload := fmt.Sprintf("--b\r\nContent-Disposition: form-data; name=\"WorkOrderId\"\r\n\r\n%d\r\n"+
			"--b\r\nContent-Disposition: form-data; name=\"File\"; filename=\"roof.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n%s",
			uploadTo[i%len(uploadTo)], strings.Repeat("x", 1000))
		out = append(out,
			// Half a head.
			"GET /api/workOrder?ids=1 HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer "+tok+"\r\n",
			// A sign-in form that never ends.
			"POST /oauth/token HTTP/1.1\r\nHost: hub\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\ngrant_type=client_",
			// A signed notification whose body never ends.
			"POST /notify HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer "+notifyTok+"\r\nEvent-Type: NteChanged\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"Header\":",
			// A write behind a valid token, body stalled.
			"PUT /api/workOrder/accept HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer "+tok+"\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"WorkOrderId\":",
			// A write without a token: refused at once, its body never drained.
			"PUT /api/workOrder/accept HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"WorkOrderId\":",
			// An upload behind a valid token that stalls inside its file,
			// ten to each of five work orders: they queue for their turn.
			fmt.Sprintf("POST /api/attachments HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n%s", tok, upload),
		)
	}
	return out
}

// serverConns counts the connections the hub's side holds open on port
// (established, or closed by the client and not yet by the hub), from the
// kernel's table: what a stalled client costs the hub in open files.
func serverConns(t *testing.T, port int) int {
	n, _, _ := serverSockets(t, port, nil)
	return n
}

// serverSockets also counts, of those, the ones holding bytes the hub has
// not read yet, and the ones the hub has closed while their client has not
// (FIN_WAIT1/2); of clients whose address from accepts (nil: all).
func serverSockets(t *testing.T, port int, from func(netip.Addr) bool) (open, unread, closedByHub int) {
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Skip("no /proc/net/tcp here")
	}
	local := fmt.Sprintf(":%04X", port)
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) <= 4 || !strings.HasSuffix(f[1], local) || from != nil && !from(procAddr(f[2])) {
			continue
		}
		switch f[3] {
		case "01", "08":
			open++
			if _, rx, _ := strings.Cut(f[4], ":"); strings.Trim(rx, "0") != "" {
				unread++
			}
		case "04", "05":
			closedByHub++
		}
	}
	return open, unread, closedByHub
}

// procAddr is the IPv4 address of /proc/net/tcp's "0102007F:1F90"
// (127.0.2.1, in the kernel's byte order).
func procAddr(field string) netip.Addr {
	h, _, _ := strings.Cut(field, ":")
	n, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return netip.Addr{}
	}
	return netip.AddrFrom4([4]byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)})
}

// With 300 connections stalled in every way a client can stall (headers,
// sign-in form, notification, write and upload bodies, with and without a
// valid token), a valid notification and a desktop's sign-in and search are
// answered within 1 s, and every stalled connection is closed soon after
// its stall limit: within 30 s with the production limits (see
// TestSecurityProductionStallLimits), here within stall+4 s, which is less than
// twice stall, so a stalled request that waited for another to time out
// first would not be let go in time.
func TestSecurityStallAbuse(t *testing.T) {
	// Not parallel: it times answers, which other tests running beside it
	// would slow (the package runs many at once).
	o := newOffice(t, sandbox.Options{})
	const stall = 5 * time.Second
	a := o.start(func(opts *Options) {
		opts.BodyTimeout = stall
		opts.Limits.ReadHeaderTimeout = stall
	})
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	var uploadTo []int64
	for range 5 {
		uploadTo = append(uploadTo, newWorkOrder(t, o))
	}
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	addr := a.srv.Listener.Addr().String()
	port := a.srv.Listener.Addr().(*net.TCPAddr).Port
	before := serverConns(t, port)
	heads := stalledRequests(t, o, tok, uploadTo)
	conns := make([]net.Conn, len(heads))
	opened := time.Now()
	// From ten addresses of their own, each of a /24 of its own: one
	// client address (and network) holds only its share of the anonymous
	// connections and of the requests without a valid sign-in
	// (security_conns_test.go), and the desktop is at another.
	for i, head := range heads {
		c, err := dialerFrom(fmt.Sprintf("127.0.%d.1", 2+i%10)).Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		if _, err := io.WriteString(c, head); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	// The hub has taken in every stalled connection once it has read what
	// each sent or closed it (the writes without a token are answered 401
	// and closed at once; on a slow machine, the first stalls may time out
	// before the last is read). Each stall limit began before then.
	stalled := func(a netip.Addr) bool { return a != netip.MustParseAddr("127.0.0.1") && a.Is4() && a.IsLoopback() }
	waitFor(t, 60*time.Second, "the hub reading all the stalled connections have sent", func() bool {
		open, unread, closed := serverSockets(t, port, stalled)
		return open+closed >= len(conns) && unread == 0
	})
	takenIn := time.Now()

	start := time.Now()
	postNotification(t, o, a, uploadTo[0])
	notified := time.Since(start)
	start = time.Now()
	found, err := desktop(t, a, creds).SearchWorkOrders(ctx, api.SearchParameters{})
	desk := time.Since(start)
	if err != nil || len(found) == 0 {
		t.Fatalf("desktop search beside the stalled connections: %d, %v", len(found), err)
	}
	t.Logf("beside %d stalled connections (the hub holds %d): notification answered in %v, sign-in and search in %v",
		len(conns), serverConns(t, port), notified, desk)
	if notified > time.Second || desk > time.Second {
		t.Fatalf("answers took %v (notification) and %v (sign-in and search), want each within 1 s", notified, desk)
	}

	var mu sync.Mutex
	var last time.Duration
	open := 0
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(takenIn.Add(stall + 4*time.Second))
			_, err := io.Copy(io.Discard, c)
			mu.Lock()
			defer mu.Unlock()
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				open++
				return
			}
			last = max(last, time.Since(takenIn))
		}()
	}
	wg.Wait()
	t.Logf("the last stalled connection was closed %v after the hub had taken them all in (%v after they were opened)",
		last.Round(100*time.Millisecond), takenIn.Sub(opened).Round(100*time.Millisecond))
	if open > 0 {
		t.Fatalf("%d of %d stalled connections were still open %v after the hub had taken them in", open, len(conns), stall+4*time.Second)
	}
	for _, c := range conns {
		c.Close()
	}
	// The desktop's own kept-alive connections may remain.
	if after := serverConns(t, port); after > before+3 {
		t.Errorf("the hub holds %d connections, %d before the stalled ones", after, before)
	}
	// The uploads that stalled reached the service and were cut: none
	// left a file behind, and writes to those work orders go through.
	ana := desktop(t, a, creds)
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: uploadTo[0]}); err != nil {
		t.Fatalf("a write after the abuse: %v", err)
	}
	if list, err := ana.ListAttachments(ctx, uploadTo[0]); err != nil || len(list) != 0 {
		t.Fatalf("attachments after stalled uploads: %+v, %v", list, err)
	}
}

// The production limits let a stalled connection go within 30 s: its
// headers within the server's header timeout, its body (an upload's
// stall, a queued upload's wait) within BodyTimeout.
func TestSecurityProductionStallLimits(t *testing.T) {
	t.Parallel()
	a := newOffice(t, sandbox.Options{}).start(nil)
	for what, d := range map[string]time.Duration{"header": a.srv.Config.ReadHeaderTimeout, "body": a.hub.opts.BodyTimeout} {
		if d <= 0 || d > 20*time.Second {
			t.Errorf("the %s timeout of a hub with production limits is %v, want at most 20 s", what, d)
		}
	}
}

// A body over the 4 MB limit whose sender then goes quiet is refused at
// once, and the connection closed: the hub does not first wait for the
// rest of it.
func TestSecurityAnOversizedBodyIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	c, err := net.Dial("tcp", a.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Short of the rest by less than what Go's server drains after an
	// answer (256 KB): it would wait for it.
	sent := serve.MaxJSONBody + 1000
	fmt.Fprintf(c, "PUT /api/workOrder/accept HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", tok, sent+100000)
	if _, err := c.Write(append([]byte(`{"WorkOrderId":1,"Comment":"`), bytes.Repeat([]byte("x"), sent-28)...)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c.SetReadDeadline(start.Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if took := time.Since(start); resp.StatusCode != http.StatusBadRequest || !resp.Close || took > 10*time.Second {
		t.Fatalf("an oversized body, then silence: HTTP %d (closing %v) after %v, want 400 at once, not after the body timeout (%v)", resp.StatusCode, resp.Close, took, DefaultBodyTimeout)
	}
}
