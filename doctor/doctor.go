// Package doctor is `workdesk doctor`: a live configuration checked step by
// step (api.Diagnose), each step printed, and with --contract what the
// service's answers held against what the app reads (api.CheckContract).
package doctor

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

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

// Run is `workdesk doctor args...`: it prints each check to out and returns
// the exit status: 0 when every check passed, 1 when one failed, 2 for
// unusable flags.
func Run(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	conn := connectionFlags(fs)
	contract := fs.Bool("contract", false, "make each read the app relies on once and report, per call, what the answer held against what the app reads (nothing is written to the service)")
	save := fs.String("save", "", "with --contract: write the answers, anonymised, and the report to `DIR` for a support request")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *contract {
		return runContract(ctx, conn(), *save, out)
	}
	if *save != "" {
		fmt.Fprintln(out, "doctor: --save goes with --contract")
		return 2
	}
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

// runContract is `workdesk doctor --contract`: 0 when everything the app
// reads was in the service's answers, 1 when not (or the service could not
// be read), 2 for an incomplete configuration.
func runContract(ctx context.Context, conn api.Connection, save string, out io.Writer) int {
	if missing := conn.Missing(); len(missing) > 0 {
		fmt.Fprintln(out, "doctor --contract: missing "+strings.Join(missing, ", "))
		return 2
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: conn.TokenURL, ClientID: conn.ClientID, ClientSecret: conn.ClientSecret, HTTPClient: hc})
	c, err := api.NewClient(conn.BaseURL, hc, tokens)
	if err != nil {
		fmt.Fprintln(out, "doctor --contract:", err)
		return 2
	}
	report := api.CheckContract(ctx, c, nil)
	fmt.Fprint(out, report.Text())
	if save != "" {
		files, err := report.Save(save)
		if err != nil {
			fmt.Fprintln(out, "doctor --contract:", err)
			return 1
		}
		fmt.Fprintf(out, "\nSaved %d files, anonymised, in %s.\n", len(files), save)
	}
	if !report.OK() {
		return 1
	}
	return 0
}
