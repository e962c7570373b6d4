package main

import (
	"context"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/workorderdesk/workdesk/hub/cli"
)

// runHub is `workdesk hub ...`: the office hub's commands, the same code as
// the server's own binary, workdesk-hub (hub/cli), for an office that runs
// its hub on one of its desktops.
func runHub(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return hubCommand(ctx, args, os.Stdout, os.Stderr, nil)
}

// hubCommand runs a hub subcommand until ctx ends; listening, when set, is
// told the address `hub serve` listens on.
func hubCommand(ctx context.Context, args []string, out, errOut io.Writer, listening func(net.Addr)) int {
	env := cli.Env{Prog: "workdesk hub", Version: appVersion, Out: out, Err: errOut}
	if listening != nil {
		env.Listening = func(l cli.Listening) { listening(l.Main) }
	}
	return cli.Run(ctx, args, env)
}
