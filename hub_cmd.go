package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/hub"
	"github.com/workorderdesk/workdesk/ui"
)

const hubUsage = `workdesk hub serve [--db URL] [--addr HOST:PORT] [--public-url URL] [--max-conns N] [--trusted-proxy CIDR] [--notify-from CIDR] [--restored] [--base-url U --token-url U --client-id ID --cert FILE]
    run the office hub (env: WORKDESK_DB or DATABASE_URL, and the WORKDESK_* of doctor)
workdesk hub user add --db URL --name "Ana Ruiz"     make a staff account; prints its ClientId and ClientSecret once
workdesk hub user list --db URL                      list the staff accounts
workdesk hub user disable --db URL NAME|ID           disable an account; its desktops are signed out at once
`

// runHub is `workdesk hub ...`.
func runHub(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return hubCommand(ctx, args, os.Stdout, os.Stderr, nil)
}

// hubCommand runs a hub subcommand until ctx ends; listening, when set, is
// told the address `hub serve` listens on.
func hubCommand(ctx context.Context, args []string, out, errOut io.Writer, listening func(net.Addr)) int {
	switch {
	case len(args) >= 1 && args[0] == "serve":
		return hubServe(ctx, args[1:], out, errOut, listening)
	case len(args) >= 2 && args[0] == "user":
		return hubUser(ctx, args[1], args[2:], out, errOut)
	}
	fmt.Fprint(errOut, hubUsage)
	return 2
}

func dbFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("WORKDESK_DB")
	if def == "" {
		def = os.Getenv("DATABASE_URL")
	}
	return fs.String("db", def, "PostgreSQL `URL` (WORKDESK_DB or DATABASE_URL), e.g. postgres://workdesk@/workdesk?host=/run/postgresql")
}

func hubUser(ctx context.Context, verb string, args []string, out, errOut io.Writer) int {
	fs := flag.NewFlagSet("hub user "+verb, flag.ContinueOnError)
	fs.SetOutput(errOut)
	dbURL := dbFlag(fs)
	name := fs.String("name", "", "the person's `name`, as colleagues will see it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if verb == "add" && strings.TrimSpace(*name) == "" {
		fmt.Fprintln(errOut, `hub user add: say whose account it is: --name "Ana Ruiz"`)
		return 2
	}
	db, err := hub.OpenDB(ctx, *dbURL)
	if err != nil {
		fmt.Fprintln(errOut, err)
		return 1
	}
	defer db.Close()
	switch verb {
	case "add":
		creds, err := db.AddPerson(ctx, *name)
		if err != nil {
			fmt.Fprintln(errOut, "hub user add:", err)
			return 1
		}
		// The only time the secret is shown: it is stored as a hash.
		json.NewEncoder(out).Encode(creds)
		return 0
	case "list":
		people, err := db.People(ctx)
		if err != nil {
			fmt.Fprintln(errOut, "hub user list:", err)
			return 1
		}
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tCLIENT ID\tSTATE\tADDED")
		for _, p := range people {
			state := "active"
			if p.Disabled {
				state = "disabled"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", p.Id, p.Name, p.ClientId, state, ui.DateTimeText(p.Created))
		}
		tw.Flush()
		return 0
	case "disable":
		who := *name
		if who == "" {
			who = strings.Join(fs.Args(), " ")
		}
		if who == "" {
			fmt.Fprintln(errOut, "hub user disable: say whom: a name, client id or number")
			return 2
		}
		p, err := db.DisablePerson(ctx, who)
		if err != nil {
			fmt.Fprintln(errOut, "hub user disable:", err)
			return 1
		}
		fmt.Fprintf(out, "disabled %s (%s); their desktops are signed out\n", p.Name, p.ClientId)
		return 0
	}
	fmt.Fprint(errOut, hubUsage)
	return 2
}

// prefixList is a repeatable CIDR flag; a bare address is its own /32 or /128.
type prefixList []netip.Prefix

func (l *prefixList) String() string {
	var s []string
	for _, p := range *l {
		s = append(s, p.String())
	}
	return strings.Join(s, ",")
}

func (l *prefixList) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return fmt.Errorf("%q is not an address or a CIDR range like 10.0.0.0/8", part)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		*l = append(*l, p.Masked())
	}
	return nil
}

func hubServe(ctx context.Context, args []string, out, errOut io.Writer, listening func(net.Addr)) int {
	fs := flag.NewFlagSet("hub serve", flag.ContinueOnError)
	fs.SetOutput(errOut)
	dbURL := dbFlag(fs)
	addr := fs.String("addr", "127.0.0.1:8095", "listen `address` (HOST:PORT)")
	public := fs.String("public-url", "", "the hub's `URL` as desktops and the service reach it (behind an HTTPS proxy); default http://ADDR/")
	maxConns := fs.Int("max-conns", hub.DefaultMaxConns, "most connections open at once (desktops hold one event stream each, plus their calls)")
	perClient := fs.Int("max-conns-per-address", 0, "most connections one client address holds at once (default a quarter of --max-conns, at least 32)")
	var proxies, notifyFrom prefixList
	fs.Var(&proxies, "trusted-proxy", "a `CIDR` of the office's proxies (load balancer, HTTPS proxy), repeatable: their X-Forwarded-For names the client; nobody else's is read")
	fs.Var(&notifyFrom, "notify-from", "take the service's notifications only from this `CIDR` (the documented "+api.NotificationSourceRange.String()+"), repeatable; behind a trusted proxy, as its X-Forwarded-For says")
	restored := fs.Bool("restored", false, "the database was just restored from a backup: for a day, check with the service before sending any write the hub does not know")
	conn := connectionFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	c := conn()
	if m := c.Missing(); len(m) > 0 {
		fmt.Fprintln(errOut, "hub serve: the service's connection is missing:", strings.Join(m, ", "))
		return 2
	}
	var v *api.Verifier
	if c.CertPath != "" {
		var err error
		if v, err = api.LoadVerifier(c.CertPath); err != nil {
			fmt.Fprintln(errOut, "hub serve:", err)
			return 1
		}
	} else {
		fmt.Fprintln(errOut, "hub serve: no certificate (--cert or WORKDESK_CERT): notifications will be refused; desktops still sync")
	}
	db, err := hub.OpenDB(ctx, *dbURL)
	if err != nil {
		fmt.Fprintln(errOut, err)
		return 1
	}
	defer db.Close()
	h, err := hub.New(hub.Options{DB: db, Service: c, Verifier: v, Limits: api.ServerLimits{MaxConns: *maxConns},
		ConnsPerClient: *perClient, TrustedProxies: proxies, NotifyFrom: notifyFrom, Restored: *restored,
		Version: appVersion, Logger: slog.New(slog.NewTextHandler(errOut, nil))})
	if err != nil {
		fmt.Fprintln(errOut, "hub serve:", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(errOut, "hub serve:", err)
		return 1
	}
	base := *public
	if base == "" {
		base = "http://" + ln.Addr().String() + "/"
	}
	base = strings.TrimRight(base, "/") + "/"
	fmt.Fprintf(out, "desktops connect to:  %s (token URL %soauth/token)\n", base, base)
	fmt.Fprintf(out, "notification URL:     %snotify\n", base)
	if strings.HasPrefix(base, "http://") {
		fmt.Fprintln(out, "(the service posts notifications only to HTTPS: put the hub behind an HTTPS proxy and pass --public-url)")
	}
	// Bounded connections, headers and idle time; each request's body and
	// answer get deadlines of their own (event streams stay open).
	srv := h.NewServer()
	h.Start(ctx)
	defer h.Close()
	if listening != nil {
		listening(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintln(errOut, "hub serve:", err)
		return 1
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Event streams never end on their own: Shutdown would wait for them.
	h.Close()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintln(errOut, "hub serve:", err)
	}
	return 0
}
