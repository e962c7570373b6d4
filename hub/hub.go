package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"golang.org/x/sync/singleflight"
)

// Options configure one hub instance.
type Options struct {
	DB *DB
	// Service is the company's connection: the only copy of its credentials.
	Service api.Connection
	// ClientSecret, when set, gives the service's client secret before
	// each token request instead of Service.ClientSecret (a file re-read
	// when the customer regenerates the secret).
	ClientSecret func() (string, error)
	// Verifier checks the service's notifications; nil = /notify refuses them.
	Verifier *api.Verifier
	Receiver api.ReceiverOptions
	// HTTPClient calls the service; nil = a client with a 60 s timeout.
	HTTPClient *http.Client
	// SyncEvery is how often the syncing instance searches for changes; 0 = 1 minute.
	SyncEvery time.Duration
	// LeaderPoll is how often a follower tries to take over the sync; 0 = 5 s,
	// so a dead instance's sync resumes elsewhere within 15 s.
	LeaderPoll time.Duration
	// Limits harden the server NewServer makes (zero: api.ServerLimits'
	// defaults, DefaultMaxConns connections).
	Limits api.ServerLimits
	// ReadMaxAge is how long a stored read (messages, attachment lists,
	// invoice, price list, customer settings) is served without asking the
	// service again when nothing said it changed; 0 = 1 hour. Writes,
	// notifications and syncs refresh it sooner.
	ReadMaxAge time.Duration
	// RefreshTimeout is how long the hub re-reads what a write, a
	// notification or a sync changed (the work orders, the stored reads)
	// before it answers or goes on; what is left is read again when asked.
	// 0 = 15 s.
	RefreshTimeout time.Duration
	// WriteWait is how long a write waits for one of the writes' database
	// connections (all taken by writes the service is slow to answer)
	// before it is answered 503, which the desktop's outbox retries;
	// 0 = 10 s.
	WriteWait time.Duration
	// BodyTimeout is how long a request's body may take to arrive, or an
	// upload stall; 0 = DefaultBodyTimeout.
	BodyTimeout time.Duration
	// ConnsPerClient caps the anonymous connections (none has carried a
	// valid staff token yet) one client address holds at once, and
	// ConnsPerNetwork those of one network: an IPv4 /NetworkBits4 or IPv6
	// /NetworkBits6. One more closes the oldest that has not completed a
	// request. 0 = DefaultConnsPerClient, DefaultConnsPerNetwork,
	// DefaultNetworkBits4 and DefaultNetworkBits6 (see connClasses).
	ConnsPerClient, ConnsPerNetwork int
	NetworkBits4, NetworkBits6      int
	// SignedInShare is how many of Limits.MaxConns only signed-in
	// connections may hold; 0 = DefaultSignedInShare.
	SignedInShare int
	// TrustedProxies are the office's proxies (load balancer, HTTPS
	// proxy): a request from one of them is counted, limited and logged as
	// the client its X-Forwarded-For names. Nothing else's
	// X-Forwarded-For is read.
	TrustedProxies []netip.Prefix
	// NotifyFrom, when set, is where the service's notifications may come
	// from (the documented 130.250.135.128/25, or the office's own): any
	// other client's are refused before their token is looked at.
	NotifyFrom []netip.Prefix
	// StreamsPerPerson caps the event streams one person holds open on
	// all instances; opening one more closes their oldest. 0 = 8.
	StreamsPerPerson int
	// Restored says the database was restored from a backup: writes made
	// after the backup are missing from it, so for RestoredCare the hub
	// asks the service whether any write it does not know already landed
	// before sending it. A restore the hub can see (another PostgreSQL
	// cluster, timeline or database) is taken for one without being told.
	Restored bool
	// Version is the hub's version, said to a desktop whose call it does
	// not forward.
	Version string
	// StreamHeartbeat is how often an event stream shows it is alive and
	// checks its person is still enabled (the notice that ends a disabled
	// person's streams can be missed); 0 = DefaultStreamHeartbeat. The
	// instances of one office use the same.
	StreamHeartbeat time.Duration
	// PrivateMetrics: GET /metrics is served by MetricsHandler on a
	// listener of its own (`--metrics-addr`), not by Handler.
	PrivateMetrics bool
	// Now is the clock the sign-in rate limits refill by; nil = time.Now.
	// Tests stop it, so the limits do not depend on the machine's speed.
	Now    func() time.Time
	Logger *slog.Logger
}

// Hub is one instance. Any number of them share one database.
type Hub struct {
	opts     Options
	db       *DB
	client   *api.Client
	tokens   *api.ClientCredentials
	hc       *http.Client
	log      *slog.Logger
	instance string
	receiver http.Handler

	syncMu   sync.Mutex
	syncPoke chan struct{}
	leading  atomic.Bool
	syncs    atomic.Int64
	// lastSync and leadingSince (unix ns) date the sync lag metric.
	lastSync, leadingSince atomic.Int64
	// leadTries counts attempts to take the sync lock (tests wait on it).
	leadTries atomic.Int64

	streams *streams
	// turns queues this instance's writes per work order.
	turns *turns
	// signIns rate limits sign-ins (each a bcrypt check) per client address.
	signIns *signInLimit
	// bcrypts holds a slot per sign-in being checked.
	bcrypts chan struct{}
	// anon limits the unauthenticated requests of each client address.
	anon *anonLimit
	// sec is the security log.
	sec *secLog
	// uploads holds a slot per upload with the service (takeUploadSlot).
	uploads chan struct{}
	// waiting counts the writes waiting to go to the service (WritesWaiting).
	waiting atomic.Int64
	// fetches shares one fetch of a read among the desktops asking at once.
	fetches singleflight.Group
	metrics *metrics
	// notices queues the service's notifications for their re-reads.
	notices *rereads
	// conns are the classes of the connections of the server NewServer
	// made.
	conns *connClasses

	// life ends when the hub closes: what is retried until PostgreSQL
	// takes it gives up then.
	life    context.Context
	endLife context.CancelFunc
	// restoredUntil is when the care taken after a restore ends (unix ns;
	// 0 = none): see Options.Restored.
	restoredUntil atomic.Int64

	stop context.CancelFunc
	wg   sync.WaitGroup
}

// New builds an instance; Start runs its background work.
func New(opts Options) (*Hub, error) {
	if opts.DB == nil {
		return nil, errors.New("hub: no database")
	}
	conn := opts.Service
	if opts.ClientSecret != nil && conn.ClientSecret == "" {
		conn.ClientSecret = "(read when needed)"
	}
	if m := conn.Missing(); len(m) > 0 {
		return nil, errors.New("hub: the service's connection is missing: " + strings.Join(m, ", "))
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	}
	if opts.SyncEvery <= 0 {
		opts.SyncEvery = time.Minute
	}
	if opts.LeaderPoll <= 0 {
		opts.LeaderPoll = 5 * time.Second
	}
	if opts.ReadMaxAge <= 0 {
		opts.ReadMaxAge = time.Hour
	}
	if opts.RefreshTimeout <= 0 {
		opts.RefreshTimeout = 15 * time.Second
	}
	if opts.WriteWait <= 0 {
		opts.WriteWait = 10 * time.Second
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.StreamHeartbeat <= 0 {
		opts.StreamHeartbeat = DefaultStreamHeartbeat
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.StreamsPerPerson <= 0 {
		opts.StreamsPerPerson = DefaultStreamsPerPerson
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	tokens := api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: opts.Service.TokenURL, ClientID: opts.Service.ClientID, ClientSecret: opts.Service.ClientSecret,
		Secret: opts.ClientSecret, HTTPClient: opts.HTTPClient,
	})
	client, err := api.NewClient(opts.Service.BaseURL, opts.HTTPClient, tokens)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 6)
	rand.Read(b)
	h := &Hub{
		opts: opts, db: opts.DB, client: client, tokens: tokens, hc: opts.HTTPClient,
		log: opts.Logger.With("component", "hub"), instance: hex.EncodeToString(b),
		syncPoke: make(chan struct{}, 1), turns: newTurns(), signIns: newSignInLimit(),
		bcrypts: make(chan struct{}, max(2, runtime.NumCPU())), anon: newAnonLimit(),
		sec:     newSecLog(opts.Logger.With("component", "hub")),
		uploads: make(chan struct{}, max(1, opts.DB.writes.Config().MaxConns/2)),
	}
	h.streams = newStreams(h)
	h.metrics = newMetrics(h)
	h.life, h.endLife = context.WithCancel(context.Background())
	h.notices = newRereads(h)
	if opts.Verifier != nil {
		ro := opts.Receiver
		// The source range is checked by the hub, on the client address
		// (behind a trusted proxy, the one it names), before the token.
		ro.CheckSource = false
		ro.OnRejectRequest = func(r *http.Request, status int, reason string) {
			h.metrics.notification(notificationRefused)
			h.sec.note(secNotificationRefused, clientFrom(r.Context()), notifyRefusal(status, reason))
		}
		h.receiver = api.NewReceiver(opts.Verifier, func(ctx context.Context, ev api.Event) error {
			err := h.handleNotification(ctx, ev)
			if err != nil {
				h.metrics.notification(notificationFailed)
			} else {
				h.metrics.notification(notificationAccepted)
			}
			return err
		}, ro)
	}
	return h, nil
}

// Start runs the sync election and the event listener until Close; it
// returns once the listener listens.
func (h *Hub) Start(ctx context.Context) {
	ctx, h.stop = context.WithCancel(ctx)
	if err := h.checkRestore(ctx); err != nil {
		h.log.Warn("could not tell whether the database was restored from a backup", "err", err)
		if h.opts.Restored {
			h.restoredUntil.Store(time.Now().Add(RestoredCare).UnixNano())
		}
	}
	h.streams.start(ctx)
	h.wg.Add(3)
	go func() { defer h.wg.Done(); h.leaderLoop(ctx) }()
	go func() { defer h.wg.Done(); h.sec.run(ctx.Done()) }()
	go func() { defer h.wg.Done(); h.streams.listen(ctx) }()
	// Streams served before the listener listens would miss what happens
	// meanwhile (a person disabled, say): wait for it, within reason.
	select {
	case <-h.streams.ready:
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		h.log.Warn("the event listener is not listening yet; streams may miss events until it does")
	}
}

// Close stops the background work; event streams end.
func (h *Hub) Close() {
	h.endLife()
	if h.stop != nil {
		h.stop()
	}
	h.wg.Wait()
	h.notices.wg.Wait()
	h.streams.closeAll()
}

// Syncs counts the syncs this instance completed (tests and the status line).
func (h *Hub) Syncs() int64 { return h.syncs.Load() }

// WritesWaiting is how many desktops' writes this instance holds that have
// not gone to the service yet: waiting for their turn at a work order (one
// write at a time each, across instances), for an upload slot or for a
// database connection. A number that stays high says the service is slow
// to answer, or one work order is busy; tests wait on it to know that
// writes are queued.
func (h *Hub) WritesWaiting() int64 { return h.waiting.Load() }
