package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/workorderdesk/workdesk/api"
)

// connectionFlags reads a live configuration from flags, falling back to the
// WORKDESK_* environment. The secret is only taken from the environment so it
// never shows in a process list or shell history.
func connectionFlags(fs *flag.FlagSet) func() api.Connection {
	base := fs.String("base-url", os.Getenv("WORKDESK_BASE_URL"), "service base URL (WORKDESK_BASE_URL)")
	token := fs.String("token-url", os.Getenv("WORKDESK_TOKEN_URL"), "OAuth token URL (WORKDESK_TOKEN_URL)")
	id := fs.String("client-id", os.Getenv("WORKDESK_CLIENT_ID"), "client id (WORKDESK_CLIENT_ID)")
	cert := fs.String("cert", os.Getenv("WORKDESK_CERT"), "notification certificate PEM file (WORKDESK_CERT)")
	return func() api.Connection {
		return api.Connection{BaseURL: *base, TokenURL: *token, ClientID: *id,
			ClientSecret: os.Getenv("WORKDESK_CLIENT_SECRET"), CertPath: *cert}
	}
}

// runDoctor prints each check to out and returns the exit status: 0 when
// every check passed, 1 when one failed, 2 for unusable flags.
func runDoctor(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	conn := connectionFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ok := api.Diagnose(ctx, conn(), nil, func(c api.Check) {
		mark := "ok  "
		switch {
		case !c.OK:
			mark = "FAIL"
		case c.Warning:
			mark = "warn"
		}
		fmt.Fprintf(out, "%s  %-24s %s\n", mark, c.Name, c.Detail)
	})
	if !ok {
		fmt.Fprintln(out, "\nSome checks failed; fix the items marked FAIL and run `workdesk doctor` again.")
		return 1
	}
	fmt.Fprintln(out, "\nAll checks passed.")
	return 0
}
