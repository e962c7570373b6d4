package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/workorderdesk/workdesk/sibling"
)

// runHub is `workdesk hub ...`, for an office that runs its hub on one of
// its desktops. The hub is a program of its own, workdesk-hub (its server
// code, PostgreSQL's driver and the metrics, stay out of the window's
// binary): this runs the one installed beside workdesk, else on the PATH,
// with the same arguments, streams, exit status and signals.
func runHub(args []string) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, sibling.Signals...)
	defer signal.Stop(sigs)
	return hubCommand(args, stdio{}, sigs)
}

// stdio are the streams a command gets; each one nil is this process's own.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// hubCommand runs workdesk-hub with args, each signal from sigs passed on,
// and returns its exit status (127 when there is none to run).
func hubCommand(args []string, std stdio, sigs <-chan os.Signal) int {
	path, err := sibling.Find("workdesk-hub")
	cmd := sibling.Command(path, "workdesk hub", args...) // the name its help and messages say
	if std.in != nil {
		cmd.Stdin = std.in
	}
	if std.out != nil {
		cmd.Stdout = std.out
	}
	if std.err != nil {
		cmd.Stderr = std.err
	}
	errOut := cmd.Stderr
	if errOut == nil {
		errOut = io.Discard // a Windows GUI program started from Explorer
	}
	var missing *sibling.NotFound
	if errors.As(err, &missing) {
		fmt.Fprintln(errOut, hubMissing(missing))
		return 127 // as a shell says of a command it cannot find
	}
	code, err := sibling.Run(cmd, sigs)
	if err != nil {
		fmt.Fprintln(errOut, "workdesk hub:", err)
	}
	return code
}

// hubMissing says what to install when workdesk-hub cannot be found.
func hubMissing(nf *sibling.NotFound) string {
	where := "put workdesk-hub from the release's files beside workdesk"
	switch runtime.GOOS {
	case "linux":
		where = "on Debian or Ubuntu install its package, workdesk-hub_" + appVersion + "_amd64.deb; " +
			"elsewhere put workdesk-hub from the release's tarball beside workdesk"
	case "windows":
		where = "put workdesk-hub.exe from the release's zip in the folder of the Work Order Desk exe"
	}
	return "workdesk hub: the office hub is a program of its own, and " + nf.Error() + ".\n" +
		"Install workdesk-hub " + appVersion + ", of the same release as this workdesk: " + where + "."
}
