package main

import (
	"context"
	"flag"
	"fmt"
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

func runDoctor(args []string) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	conn := connectionFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ok := api.Diagnose(ctx, conn(), nil, func(c api.Check) {
		mark := "ok  "
		if !c.OK {
			mark = "FAIL"
		}
		fmt.Printf("%s  %-24s %s\n", mark, c.Name, c.Detail)
	})
	if !ok {
		fmt.Println("\nSome checks failed; fix the items marked FAIL and run `workdesk doctor` again.")
		return 1
	}
	fmt.Println("\nAll checks passed.")
	return 0
}
