package hub

import (
	"io"
	"net"
	"net/http"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The hub's HTTP server has no whole-request timeouts, since event streams
// stay open for hours; every other request gets deadlines of its own here,
// so that nothing a client stalls is held for ever.
const (
	// DefaultMaxConns caps the hub's open connections: an office of a
	// hundred desktops (a stream and a few kept-alive calls each) and the
	// service's deliveries, with room for hundreds of stalled connections.
	DefaultMaxConns = 1024
	// DefaultBodyTimeout is how long a request's body may take to arrive
	// (an upload's: how long it may stall between two reads).
	DefaultBodyTimeout = 20 * time.Second
	// answerStall is how long writing an answer may block on a client
	// that does not read it.
	answerStall = 30 * time.Second
)

// NewServer is the hub's HTTP server: Handler behind Options.Limits (a cap
// on connections, header size and time, idle time) and the caps of
// connClasses on anonymous connections, without whole-request read or
// write timeouts. Serve it on Listener's wrap of its listener.
func (h *Hub) NewServer() *http.Server {
	l := h.opts.Limits
	l.ReadTimeout, l.WriteTimeout = api.NoTimeout, api.NoTimeout
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	srv := api.NewLimitedServer(h.Handler(), l)
	caps := connCaps{total: l.MaxConns, signedInShare: h.opts.SignedInShare, perClient: h.opts.ConnsPerClient,
		perNetwork: h.opts.ConnsPerNetwork, bits4: h.opts.NetworkBits4, bits6: h.opts.NetworkBits6}
	if caps.perClient <= 0 {
		caps.perClient = DefaultConnsPerClient(l.MaxConns)
	}
	if caps.perNetwork <= 0 {
		caps.perNetwork = DefaultConnsPerNetwork(l.MaxConns)
	}
	if caps.signedInShare <= 0 {
		caps.signedInShare = DefaultSignedInShare(l.MaxConns)
	}
	// At least one anonymous connection, or nobody could sign in.
	caps.signedInShare = min(caps.signedInShare, l.MaxConns-1)
	if caps.bits4 <= 0 || caps.bits4 > 32 {
		caps.bits4 = DefaultNetworkBits4
	}
	if caps.bits6 <= 0 || caps.bits6 > 128 {
		caps.bits6 = DefaultNetworkBits6
	}
	classes := newConnClasses(caps, h.opts.TrustedProxies, h.opts.NotifyFrom, func(tr trip) {
		h.sec.note(secRateLimited, tr.addr, tr.why)
		h.metrics.connClosed(tr.label)
	})
	h.conns = classes
	h.metrics.watchConns(classes)
	// The classes keep the cap on all connections too: api's own cap would
	// close a signed-in desktop's new connection rather than a stalled one.
	srv.ConnState = classes.track
	srv.ConnContext = classes.connContext
	srv.ErrorLog = h.sec.serverLog()
	return srv
}

// limitBody gives r's body h's body timeout to arrive whole. The read
// deadline is lifted once the body has been read to its end, so the work
// that follows (a call to the service) is not cut short by it: Go's server
// cancels a request's context when a read deadline passes while it waits
// for the client's next bytes. A request without a body needs none. A body
// left unread (a request refused before reading it) keeps the deadline, so
// the server's drain of it ends too.
func (h *Hub) limitBody(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout)) != nil {
		return // not a connection of ours (a test's recorder)
	}
	r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, timeout: h.opts.BodyTimeout, last: time.Now()}
}

// deadlineBody lifts the read deadline at the end of the body; once
// streaming (an upload passed on to the service as it arrives), it moves
// the deadline as bytes arrive instead, so a large file on a slow line goes
// through and only a stall ends it.
type deadlineBody struct {
	io.ReadCloser
	rc        *http.ResponseController
	timeout   time.Duration
	streaming bool
	done      bool
	// last is when the body last gave bytes (or the request began).
	last time.Time
}

// Read moves the deadline only when bytes arrive: time spent waiting for
// the service to take more (or for the write's turn) counts as a stall,
// so a client gone quiet is let go even while nobody reads it.
func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.streaming && !b.done {
		b.last = time.Now()
		b.rc.SetReadDeadline(b.last.Add(b.timeout))
	}
	if err == io.EOF && !b.done {
		b.done = true
		b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// stallsAt is when the body's read deadline passes unless bytes arrive.
func (b *deadlineBody) stallsAt() time.Time { return b.last.Add(b.timeout) }

// streamBody makes r's body deadline a stall timeout (see deadlineBody).
func streamBody(r *http.Request) {
	if b, ok := r.Body.(*deadlineBody); ok {
		b.streaming = true
	}
}

// answerWriter moves the write deadline ahead of each write, so an answer
// to a client that stops reading it ends within answerStall, however long
// the answer (a search of the whole replica) or the work before it.
type answerWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	moved time.Time
}

func newAnswerWriter(w http.ResponseWriter) *answerWriter {
	return &answerWriter{ResponseWriter: w, rc: http.NewResponseController(w)}
}

func (a *answerWriter) extend() {
	// A deadline a second stale is still 29 s away: skip the call.
	if now := time.Now(); now.Sub(a.moved) > time.Second {
		a.moved = now
		a.rc.SetWriteDeadline(now.Add(answerStall))
	}
}

func (a *answerWriter) WriteHeader(status int) {
	a.extend()
	a.ResponseWriter.WriteHeader(status)
}

func (a *answerWriter) Write(b []byte) (int, error) {
	a.extend()
	return a.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (a *answerWriter) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// Listener wraps the listener the server NewServer made serves, so that
// connections over the caps are refused as they are accepted (see
// connClasses.Listener).
func (h *Hub) Listener(l net.Listener) net.Listener {
	if h.conns == nil {
		return l
	}
	return h.conns.Listener(l)
}
