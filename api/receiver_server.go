package api

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// ServerLimits bound what one client can hold of a server that listens
// where anyone can connect: its headers, its body, its answer, its idle
// wait, and the number of connections at once. The zero value gives the
// defaults below (chosen for the notification receiver); NoTimeout leaves
// a timeout unset for a server whose handlers set per-request deadlines
// instead (the office hub, whose event streams stay open for hours).
type ServerLimits struct {
	// MaxConns caps open connections; one over the cap is closed as soon
	// as it is accepted, so open files stay bounded. 0 = 512, room for
	// hundreds of stalled connections beside the service's deliveries.
	MaxConns int
	// ReadHeaderTimeout ends a connection whose headers do not arrive in
	// time (0 = 10 s); ReadTimeout one whose whole request, body
	// included, does not (0 = 20 s). A stalled body is thus closed
	// within 20 s at most.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	// WriteTimeout bounds handling and answering one request (0 = 30 s:
	// applying an event may wait on the replica's writer for a while).
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection with no new request (0 = 30 s).
	IdleTimeout time.Duration
	// MaxHeaderBytes caps the request headers (0 = 16 KB; a notification's
	// headers, token included, take about 2 KB).
	MaxHeaderBytes int
}

// ReceiverLimits bound what one sender can hold of the notification
// receiver.
type ReceiverLimits = ServerLimits

// NoTimeout, as a ServerLimits timeout, sets none.
const NoTimeout time.Duration = -1

// Defaults of ServerLimits.
const (
	DefaultReceiverMaxConns       = 512
	DefaultReceiverHeaderTimeout  = 10 * time.Second
	DefaultReceiverReadTimeout    = 20 * time.Second
	DefaultReceiverWriteTimeout   = 30 * time.Second
	DefaultReceiverIdleTimeout    = 30 * time.Second
	DefaultReceiverMaxHeaderBytes = 16 << 10
)

func (l ServerLimits) withDefaults() ServerLimits {
	// NoTimeout stays negative: http.Server reads a zero ReadHeaderTimeout
	// or IdleTimeout as "use ReadTimeout", and only a negative one as none.
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultReceiverMaxConns
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = DefaultReceiverMaxHeaderBytes
	}
	def(&l.ReadHeaderTimeout, DefaultReceiverHeaderTimeout)
	def(&l.ReadTimeout, DefaultReceiverReadTimeout)
	def(&l.WriteTimeout, DefaultReceiverWriteTimeout)
	def(&l.IdleTimeout, DefaultReceiverIdleTimeout)
	return l
}

// NewReceiverServer is the http.Server notifications are served by (the
// handler is usually a mux around a Receiver), hardened by limits.
func NewReceiverServer(handler http.Handler, limits ReceiverLimits) *http.Server {
	return NewLimitedServer(handler, limits)
}

// NewLimitedServer is an http.Server hardened by limits. The cap on
// connections is kept by the server itself (its ConnState hook), so any
// listener passed to Serve is bounded.
func NewLimitedServer(handler http.Handler, limits ServerLimits) *http.Server {
	l := limits.withDefaults()
	cc := &connCap{max: l.MaxConns}
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ConnState:         cc.track,
	}
}

// connCap counts open connections and closes those over max. The server
// reports every connection's StateNew before serving it and exactly one of
// StateClosed or StateHijacked at its end, closed ones included.
type connCap struct {
	max  int
	mu   sync.Mutex
	open int
}

func (c *connCap) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch state {
	case http.StateNew:
		c.open++
		if c.open > c.max {
			conn.Close() // the server's read fails at once and it reports StateClosed
		}
	case http.StateClosed, http.StateHijacked:
		c.open--
	}
}
