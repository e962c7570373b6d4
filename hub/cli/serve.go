package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/hub"
)

// serveFlags are `serve`'s flags.
type serveFlags struct {
	db                    dbFlags
	addr, public, metrics *string
	tlsCert, tlsKey       *string
	maxConns, perClient   *int
	perNetwork, signedIn  *int
	bits4, bits6          *int
	streamsPerPerson      *int
	syncEvery             *time.Duration
	proxies, notifyFrom   prefixList
	restored              *bool
	baseURL, tokenURL     *string
	clientID, cert        *string
	secretFile            *string
}

func newServeFlags(fs *flag.FlagSet) *serveFlags {
	f := &serveFlags{db: addDBFlags(fs)}
	f.addr = fs.String("addr", "127.0.0.1:8095", "listen `address` (HOST:PORT); ignored under systemd socket activation")
	f.public = fs.String("public-url", "", "the hub's `URL` as desktops and the service reach it (behind a load balancer or proxy); default https://ADDR/ (http:// without --tls-cert)")
	f.tlsCert = fs.String("tls-cert", "", "serve HTTPS with the certificate (chain) in PEM `FILE`; read again when it changes")
	f.tlsKey = fs.String("tls-key", "", "the private key of --tls-cert, in PEM `FILE`")
	f.metrics = fs.String("metrics-addr", "", "serve /metrics (and /healthz, /readyz) on this `address` only, apart from desktops; default: /metrics on --addr")
	f.maxConns = fs.Int("max-conns", hub.DefaultMaxConns, "most connections open at once (desktops hold one event stream each, plus their calls)")
	f.perClient = fs.Int("max-conns-per-address", 0, "most anonymous connections (none has carried a valid staff token yet) one client address holds at once; one more closes its oldest that has not completed a request (default a sixteenth of --max-conns, at least 16)")
	f.perNetwork = fs.Int("max-conns-per-network", 0, "most anonymous connections one network (see --network-v4-bits, --network-v6-bits) holds at once (default a quarter of --max-conns, at least 32)")
	f.bits4 = fs.Int("network-v4-bits", hub.DefaultNetworkBits4, "the prefix `length` of an IPv4 network, for --max-conns-per-network")
	f.bits6 = fs.Int("network-v6-bits", hub.DefaultNetworkBits6, "the prefix `length` of an IPv6 network, for --max-conns-per-network")
	f.signedIn = fs.Int("signed-in-share", 0, "how many of --max-conns only connections that have carried a valid staff token may hold (default a quarter)")
	f.streamsPerPerson = fs.Int("streams-per-person", hub.DefaultStreamsPerPerson, "most event streams one person holds open; one more closes their oldest")
	f.syncEvery = fs.Duration("sync-every", time.Minute, "how often the instance that syncs asks the service for changes (notifications bring most of them sooner)")
	fs.Var(&f.proxies, "trusted-proxy", "a `CIDR` of the office's proxies (load balancer, HTTPS proxy), repeatable: their X-Forwarded-For names the client; nobody else's is read")
	fs.Var(&f.notifyFrom, "notify-from", "take the service's notifications only from this `CIDR` (the documented "+api.NotificationSourceRange.String()+"), repeatable; behind a trusted proxy, as its X-Forwarded-For says")
	f.restored = fs.Bool("restored", false, "the database was just restored from a backup: for a day, check with the service before sending any write the hub does not know")
	f.baseURL = fs.String("base-url", "", "the service's base `URL`")
	f.tokenURL = fs.String("token-url", "", "the service's OAuth token `URL`")
	f.clientID = fs.String("client-id", "", "the company's client `id` at the service")
	f.secretFile = fs.String("client-secret-file", "", "read the company's client secret from `FILE`, again whenever it changes (or systemd's credential \"client-secret\", or WORKDESK_CLIENT_SECRET)")
	f.cert = fs.String("cert", "", "the service's notification certificate, PEM `FILE`; without it notifications are refused")
	return f
}

func serveCommand(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet(env.Prog+" serve", flag.ContinueOnError)
	fs.SetOutput(env.Err)
	f := newServeFlags(fs)
	given, err := parse(fs, args)
	if err != nil {
		return 2
	}
	say := func(a ...any) { fmt.Fprintln(env.Err, append([]any{env.Prog + " serve:"}, a...)...) }
	if fs.NArg() > 0 {
		say("unexpected arguments:", strings.Join(fs.Args(), " "))
		return 2
	}
	if *f.bits4 < 1 || *f.bits4 > 32 || *f.bits6 < 1 || *f.bits6 > 128 {
		say("--network-v4-bits is a prefix length from 1 to 32, --network-v6-bits one from 1 to 128")
		return 2
	}
	if *f.perClient < 0 || *f.perNetwork < 0 || *f.signedIn < 0 || *f.signedIn >= *f.maxConns {
		say("--max-conns-per-address, --max-conns-per-network and --signed-in-share are counts of connections, and --signed-in-share is less than --max-conns")
		return 2
	}
	if (*f.tlsCert == "") != (*f.tlsKey == "") {
		say("HTTPS needs both --tls-cert and --tls-key")
		return 2
	}
	secret, err := secretSource(*f.secretFile, given["client-secret-file"])
	if err != nil {
		say(err)
		return 1
	}
	conn := api.Connection{BaseURL: *f.baseURL, TokenURL: *f.tokenURL, ClientID: *f.clientID, CertPath: *f.cert}
	if secret != nil {
		conn.ClientSecret = "(from a file or the environment)"
	}
	if m := conn.Missing(); len(m) > 0 {
		say("the service's connection is missing:", strings.Join(m, ", ")+
			" (the secret: --client-secret-file, systemd's credential \"client-secret\", or WORKDESK_CLIENT_SECRET)")
		return 2
	}
	conn.ClientSecret = ""
	dbURL, err := f.db.resolve(given)
	if err != nil {
		say(err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(env.Err, nil))
	dbFile, _, _ := f.db.where(given)
	for _, secretFile := range []struct{ path, what string }{
		{secretPath(*f.secretFile, given["client-secret-file"]), "the company's client secret"},
		{dbFile, "the database URL"},
	} {
		if secretFile.path == "" {
			continue
		}
		if who := readableByOthers(secretFile.path); who != "" {
			log.Warn("a file holding a secret is readable by "+who+": chmod go-r it (and keep it the hub's user's, or root's under systemd's credentials)",
				"file", secretFile.path, "holds", secretFile.what)
		}
	}
	var v *api.Verifier
	if conn.CertPath != "" {
		if v, err = api.LoadVerifier(conn.CertPath); err != nil {
			say(err)
			return 1
		}
	} else {
		say("no certificate (--cert or WORKDESK_CERT): notifications will be refused; desktops still sync")
	}
	var certs *certFiles
	if *f.tlsCert != "" {
		if certs, err = loadCertFiles(*f.tlsCert, *f.tlsKey, log); err != nil {
			say(err)
			return 1
		}
	}
	db, err := hub.OpenDB(ctx, dbURL)
	if err != nil {
		say(err)
		return 1
	}
	defer db.Close()
	h, err := hub.New(hub.Options{DB: db, Service: conn, ClientSecret: secret, Verifier: v,
		Limits: api.ServerLimits{MaxConns: *f.maxConns}, ConnsPerClient: *f.perClient, ConnsPerNetwork: *f.perNetwork,
		NetworkBits4: *f.bits4, NetworkBits6: *f.bits6, SignedInShare: *f.signedIn, StreamsPerPerson: *f.streamsPerPerson,
		TrustedProxies: f.proxies, NotifyFrom: f.notifyFrom, Restored: *f.restored, SyncEvery: *f.syncEvery,
		PrivateMetrics: *f.metrics != "", Version: env.Version, Logger: log})
	if err != nil {
		say(err)
		return 1
	}
	ln, err := activatedListener()
	if err == nil && ln == nil {
		ln, err = net.Listen("tcp", *f.addr)
	}
	if err != nil {
		say(err)
		return 1
	}
	var metricsLn net.Listener
	if *f.metrics != "" {
		if metricsLn, err = net.Listen("tcp", *f.metrics); err != nil {
			ln.Close()
			say(err)
			return 1
		}
	}
	base := *f.public
	if base == "" {
		scheme := "http://"
		if certs != nil {
			scheme = "https://"
		}
		base = scheme + ln.Addr().String() + "/"
	}
	base = strings.TrimRight(base, "/") + "/"
	fmt.Fprintf(env.Out, "desktops connect to:  %s (token URL %soauth/token)\n", base, base)
	fmt.Fprintf(env.Out, "notification URL:     %snotify\n", base)
	fmt.Fprintf(env.Out, "health:               %shealthz, %sreadyz\n", base, base)
	if metricsLn != nil {
		fmt.Fprintf(env.Out, "metrics:              http://%s/metrics (not on the address above)\n", metricsLn.Addr())
	} else {
		fmt.Fprintf(env.Out, "metrics:              %smetrics\n", base)
	}
	if strings.HasPrefix(base, "http://") {
		fmt.Fprintln(env.Out, "(unencrypted: a desktop on another computer refuses it unless its person ticks \"Allow an unencrypted connection\""+
			" (one on this computer, at localhost or 127.0.0.1, needs no tick), and the service posts notifications only to HTTPS;"+
			" give --tls-cert and --tls-key, or put the hub behind an HTTPS proxy and pass --public-url)")
	}

	// Bounded connections, headers and idle time; each request's body and
	// answer get deadlines of their own (event streams stay open).
	srv := h.NewServer()
	if certs != nil {
		srv.TLSConfig = certs.tlsConfig()
		// HTTP/1.1 only: the hub's limits count connections, and HTTP/2
		// would carry many requests on one.
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	}
	ln = h.Listener(ln)
	h.Start(ctx)
	defer h.Close()
	errc := make(chan error, 2)
	go func() {
		if certs != nil {
			errc <- srv.ServeTLS(ln, "", "")
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	var msrv *http.Server
	if metricsLn != nil {
		msrv = &http.Server{Handler: h.MetricsHandler(), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute}
		go func() { errc <- msrv.Serve(metricsLn) }()
	}
	if env.Listening != nil {
		l := Listening{Main: ln.Addr()}
		if metricsLn != nil {
			l.Metrics = metricsLn.Addr()
		}
		env.Listening(l)
	}
	select {
	case err := <-errc:
		say(err)
		return 1
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Event streams never end on their own: Shutdown would wait for them.
	h.Close()
	if msrv != nil {
		msrv.Shutdown(shut)
	}
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		say(err)
	}
	return 0
}
