// Package cli is `workdesk sandbox`: the simulated service served for
// integrators on a port, with its connection data printed.
package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// Run is `workdesk sandbox args...`: it serves the simulated service, with
// its output going to stdout and stderr, until stop delivers a value or is
// closed, and returns the exit status (2 for unusable flags, 1 when it
// cannot serve).
func Run(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) int {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8089", "listen `address` (a bare :port listens on loopback only)")
	notify := fs.String("notify", "", "deliver signed notifications to this receiver `URL`")
	n := fs.Int("work-orders", 72, "how many work orders the generated world holds (at least 60)")
	seed := fs.Int64("seed", 1, "world seed: the same seed gives the same work orders, customers and amounts; dates are relative to now")
	every := fs.Duration("customer-every", time.Minute, "how often the scripted customer acts (0 = only through the control API)")
	configOut := fs.String("config-out", "", "write the connection settings as JSON to `FILE` (and the certificate beside it)")
	dialectFlag := fs.String("dialect", "plain", "answer reads whose schema is not published with the client's guessed names (plain) or with others (renamed), to see what a wrong guess does")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dialect, err := sandbox.ParseDialect(*dialectFlag)
	if err != nil {
		fmt.Fprintln(stderr, "sandbox:", err)
		return 2
	}
	sb, err := sandbox.New(sandbox.Options{Seed: *seed, WorkOrders: *n, NotifyURL: *notify, CustomerEvery: *every, Dialect: dialect,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		fmt.Fprintln(stderr, "sandbox:", err)
		return 1
	}
	defer sb.Close()
	info, err := sb.Start(*addr)
	if err != nil {
		fmt.Fprintln(stderr, "sandbox:", err)
		return 1
	}

	certPath := ""
	if *configOut != "" {
		cfg, err := sb.WriteConfig(*configOut)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		certPath = cfg.CertPath
	} else {
		dir, err := os.MkdirTemp("", "workdesk-sandbox-")
		if err == nil {
			certPath = filepath.Join(dir, "sandbox-cert.pem")
			err = sb.WriteCert(certPath)
		}
		if err != nil {
			fmt.Fprintln(stderr, "sandbox: writing the certificate:", err)
			return 1
		}
	}
	// The sandbox's credentials are throwaway and printed on purpose: an
	// integrator needs them to connect.
	fmt.Fprintf(stdout, `Work Order Desk sandbox: %d work orders (seed %d)

  base URL       %s
  token URL      %s
  client id      %s
  client secret  %s
  certificate    %s
  control API    %s_sandbox/  (act as the customer; see the api/sandbox package docs)

Try it:  WORKDESK_BASE_URL=%s WORKDESK_TOKEN_URL=%s WORKDESK_CLIENT_ID=%s \
         WORKDESK_CLIENT_SECRET=%s workdesk doctor --cert %s

Ctrl+C stops it.
`, sb.WorkOrderCount(), *seed, info.BaseURL, info.TokenURL, info.ClientID, info.ClientSecret, certPath, info.BaseURL,
		info.BaseURL, info.TokenURL, info.ClientID, info.ClientSecret, certPath)
	if dialect == sandbox.DialectRenamed {
		fmt.Fprintf(stdout, "\nDialect renamed: reads without a published schema answer with other names (%s).\n"+
			"`workdesk doctor --contract` names each one.\n", strings.Join(sandbox.RenamedFields(), ", "))
	}
	<-stop
	return 0
}
