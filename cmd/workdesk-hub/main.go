// Command workdesk-hub is the office hub of Work Order Desk on its own: what
// a server installs. It builds with CGO_ENABLED=0 and links no Fyne, OpenGL
// or X11 code (main_test.go holds it to that).
//
//	workdesk-hub serve            run the hub
//	workdesk-hub user ...         manage the staff accounts
//	workdesk-hub --version        print the version
//
// `workdesk hub ...` in the desktop's binary runs this program, installed
// beside it, with the same arguments: the window links none of the hub.
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
	code := cli.Run(ctx, os.Args[1:], cli.Env{Prog: prog(), Version: version, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}

// prog is how the commands are typed, for help and messages: "workdesk
// hub" when the desktop's `workdesk hub` ran this program (it names it so),
// else workdesk-hub.
func prog() string {
	if len(os.Args) > 0 && os.Args[0] == "workdesk hub" {
		return os.Args[0]
	}
	return "workdesk-hub"
}
