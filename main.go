// Command workdesk is Work Order Desk: a desktop window on a customer's Work
// Order Integration Service, plus the command-line tools around it.
//
//	workdesk                 the window (demo mode against a built-in sandbox when nothing is configured)
//	workdesk doctor          check a live configuration end to end
//	workdesk sandbox         run the simulated service for integrators
//	workdesk receive         run the notification receiver headless
//	workdesk daysheet        a technician's day sheet (PDF) and calendar (.ics)
//	workdesk hub             run the office hub (workdesk-hub, installed beside workdesk)
//
// This package holds the flags and the wiring; each command's work lives in
// its own package (doctor, receive, api/sandbox/cli, daysheet, and
// workdesk-hub's).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2/app"

	sandboxcli "github.com/workorderdesk/workdesk/api/sandbox/cli"
	"github.com/workorderdesk/workdesk/doctor"
	"github.com/workorderdesk/workdesk/receive"
)

// commands are the subcommands by the word that names them: each takes
// the arguments after it and returns the exit status. Anything else opens
// the window. (On Windows these also get the console they were started
// from: console_windows.go.)
var commands = map[string]func(args []string) int{
	"doctor":   func(args []string) int { return doctor.Run(args, os.Stdout) },
	"sandbox":  runSandbox,
	"receive":  runReceive,
	"daysheet": runDaySheetCommand,
	"hub":      runHub,
	"version":  printVersion, "-version": printVersion, "--version": printVersion,
	"help": printUsage, "-h": printUsage, "-help": printUsage, "--help": printUsage,
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 {
		if run, ok := commands[args[0]]; ok {
			os.Exit(run(args[1:]))
		}
	}
	os.Exit(runGUI(args))
}

// runSandbox serves the simulated service for integrators until interrupted.
func runSandbox(args []string) int {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	return sandboxcli.Run(args, os.Stdout, os.Stderr, stop)
}

// runReceive runs the notification receiver without a window until
// interrupted.
func runReceive(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return receive.Run(ctx, args, os.Stdout, os.Stderr, nil)
}

// runDaySheetCommand is `workdesk daysheet`, on the window's settings
// (they say which replica it reads).
func runDaySheetCommand(args []string) int {
	// What the storage logs as it opens a replica is not this command's to
	// say (a schedule mails what it prints); what goes wrong is.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	return runDaySheet(args, app.NewWithID(appID).Preferences(), os.Stdout, os.Stderr)
}

func printVersion([]string) int {
	fmt.Println("workdesk", appVersion)
	return 0
}

func printUsage([]string) int {
	fmt.Print(usage)
	return 0
}

const usage = `Work Order Desk

  workdesk [--data-dir DIR] [--demo [--demo-dialect renamed]] [--hub URL [--hub-ca FILE]] [--replica FILE] [--screenshot FILE [--window-size WxH]]
      open the window; with no connection configured it runs against a
      built-in sandbox of the service (demo mode); --replica browses a
      replica offline
  workdesk doctor [--base-url U --token-url U --client-id ID --cert FILE] [--contract [--save DIR]]
      check a live configuration step by step (env: WORKDESK_BASE_URL,
      WORKDESK_TOKEN_URL, WORKDESK_CLIENT_ID, WORKDESK_CLIENT_SECRET, WORKDESK_CERT);
      --contract reads what the app relies on once and says, per call, what
      the answers held that we did not expect (--save: the answers, anonymised)
  workdesk sandbox [--addr 127.0.0.1:8089] [--notify URL] [--work-orders N] [--seed S] [--config-out FILE] [--dialect renamed]
      run the simulated service for integrators (--dialect renamed: with
      other names where the service's schema is not published)
  workdesk receive --addr 127.0.0.1:PORT --cert FILE [--check-source] [--db FILE] [--path /]
      run the notification receiver without a window: prints each verified
      notification once; with WORKDESK_BASE_URL, _TOKEN_URL, _CLIENT_ID and
      _CLIENT_SECRET set it also re-reads what each one touched
  workdesk daysheet --technician NAME [--from YYYY-MM-DD] [--days N] [--pdf FILE] [--ics FILE] [--data-dir DIR] [--paper A4|Letter] [--internal-note]
      a technician's visits of a day (or N days) in planned order, as a
      PDF to print and an iCalendar file to import (importing it again
      updates it), from the replica the window reads (the demo's when
      nothing is configured); an unknown name lists the known ones
  workdesk hub serve|user ...
      the office hub: one receiver and one set of credentials for a whole
      office, on PostgreSQL (run workdesk hub for details); it runs
      workdesk-hub, the hub's own program and .deb, installed beside workdesk
  workdesk --version
      print the version
`
