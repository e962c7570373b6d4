// Package cli is the hub's command line: `workdesk-hub serve` and
// `workdesk-hub user ...`, and the same commands as `workdesk hub ...` in
// the desktop's binary. One implementation for both; it imports no Fyne.
package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
)

// Env is what a command runs with.
type Env struct {
	// Prog is how the commands are typed: "workdesk-hub" or "workdesk hub".
	Prog    string
	Version string
	Out     io.Writer
	Err     io.Writer
	// Listening, when set, is told the addresses `serve` listens on, once
	// it serves (tests).
	Listening func(Listening)
}

// Listening are the addresses `serve` listens on.
type Listening struct {
	Main    net.Addr
	Metrics net.Addr // nil without --metrics-addr
}

// Run runs the command args (without the program's name) until ctx ends
// and returns its exit status: 0 done, 1 failed, 2 unusable arguments.
func Run(ctx context.Context, args []string, env Env) int {
	switch {
	case len(args) >= 1 && args[0] == "serve":
		return serveCommand(ctx, args[1:], env)
	case len(args) >= 2 && args[0] == "user":
		return userCommand(ctx, args[1], args[2:], env)
	case len(args) == 1 && (args[0] == "version" || args[0] == "--version" || args[0] == "-version"):
		fmt.Fprintln(env.Out, strings.ReplaceAll(env.Prog, " ", "-"), env.Version)
		return 0
	case len(args) == 1 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h" || args[0] == "-help"):
		fmt.Fprint(env.Out, Usage(env.Prog))
		return 0
	}
	fmt.Fprint(env.Err, Usage(env.Prog))
	return 2
}

// Usage is the commands' summary, as prog is typed.
func Usage(prog string) string {
	return strings.ReplaceAll(`PROG serve [flags]
    run the office hub (PROG serve --help lists the flags; each can also
    be set as WORKDESK_<FLAG> in the environment, e.g. WORKDESK_TLS_CERT)
PROG user add --name "Ana Ruiz"     make a staff account; prints its ClientId and ClientSecret once
PROG user list                      list the staff accounts
PROG user disable NAME|ID           disable an account; its desktops are signed out at once
PROG user enable NAME|ID            enable it again; its desktops sign in again with its secret
PROG user reset NAME|ID             give it a new secret (printed once); the old one and its sessions end at once
PROG --version                      print the version

The database: --db-file FILE, or systemd's credential "db"
($CREDENTIALS_DIRECTORY/db), or WORKDESK_DB / DATABASE_URL; --db URL also
works, but shows its password to anyone who lists processes.
`, "PROG", prog)
}
