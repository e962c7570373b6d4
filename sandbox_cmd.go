package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// runSandbox serves the simulated service for integrators until interrupted.
func runSandbox(args []string) int {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8089", "listen `address` (a bare :port listens on loopback only)")
	notify := fs.String("notify", "", "deliver signed notifications to this receiver `URL`")
	n := fs.Int("work-orders", 72, "how many work orders the generated world holds (at least 60)")
	seed := fs.Int64("seed", 1, "world seed: the same seed gives the same world")
	every := fs.Duration("customer-every", time.Minute, "how often the scripted customer acts (0 = only through the control API)")
	configOut := fs.String("config-out", "", "write the connection settings as JSON to `FILE` (and the certificate beside it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	sb, err := sandbox.New(sandbox.Options{Seed: *seed, WorkOrders: *n, NotifyURL: *notify, CustomerEvery: *every,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		return 1
	}
	info, err := sb.Start(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		return 1
	}
	defer sb.Close()

	certPath := ""
	if *configOut != "" {
		if err := sb.WriteConfig(*configOut); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		certPath, _ = filepath.Abs(filepath.Join(filepath.Dir(*configOut), "sandbox-cert.pem"))
	} else {
		dir, err := os.MkdirTemp("", "workdesk-sandbox-")
		if err == nil {
			certPath = filepath.Join(dir, "sandbox-cert.pem")
			err = sb.WriteCert(certPath)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "sandbox: writing the certificate:", err)
			return 1
		}
	}
	// The sandbox's credentials are throwaway and printed on purpose: an
	// integrator needs them to connect.
	fmt.Printf(`Work Order Desk sandbox: %d work orders (seed %d)

  base URL       %s
  token URL      %s
  client id      %s
  client secret  %s
  certificate    %s
  control API    %s_sandbox/  (act as the customer; see the api/sandbox package docs)

Try it:  WORKDESK_BASE_URL=%s WORKDESK_TOKEN_URL=%s WORKDESK_CLIENT_ID=%s \
         WORKDESK_CLIENT_SECRET=%s workdesk doctor --cert %s

Ctrl+C stops it.
`, *n, *seed, info.BaseURL, info.TokenURL, info.ClientID, info.ClientSecret, certPath, info.BaseURL,
		info.BaseURL, info.TokenURL, info.ClientID, info.ClientSecret, certPath)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	return 0
}
