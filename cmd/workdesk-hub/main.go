// Command workdesk-hub is the office hub of Work Order Desk on its own: what
// a server installs. It builds with CGO_ENABLED=0 and links no Fyne, OpenGL
// or X11 code (main_test.go holds it to that).
//
//	workdesk-hub serve            run the hub
//	workdesk-hub user ...         manage the staff accounts
//	workdesk-hub --version        print the version
//
// `workdesk hub ...` in the desktop's binary runs the same commands (hub/cli).
package main

//go:generate go run version_gen.go

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/workorderdesk/workdesk/hub/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Env{Prog: "workdesk-hub", Version: version, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
