// Command workdesk is Work Order Desk: a desktop window on a customer's Work
// Order Integration Service, plus the command-line tools around it.
//
//	workdesk                 the window (demo mode against a built-in sandbox when nothing is configured)
//	workdesk doctor          check a live configuration end to end
//	workdesk sandbox         run the simulated service for integrators
//	workdesk receive         run the notification receiver headless
//	workdesk daysheet        a technician's day sheet (PDF) and calendar (.ics)
//	workdesk hub             run the office hub on PostgreSQL, and manage its staff accounts
package main

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"fyne.io/fyne/v2/app"
)

// mainStarted approximates the process start where the kernel's record is not at hand.
var mainStarted = time.Now()

func main() {
	args := os.Args[1:]
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "doctor":
		os.Exit(runDoctor(args[1:], os.Stdout))
	case "sandbox":
		os.Exit(runSandbox(args[1:]))
	case "receive":
		os.Exit(runReceive(args[1:]))
	case "daysheet":
		// What the storage logs as it opens a replica is not this
		// command's to say (a schedule mails what it prints); what goes
		// wrong is. The window's settings say which replica it reads.
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
		os.Exit(runDaySheet(args[1:], app.NewWithID(appID).Preferences(), os.Stdout, os.Stderr))
	case "hub":
		os.Exit(runHub(args[1:]))
	case "version", "-version", "--version":
		fmt.Println("workdesk", appVersion)
	case "help", "-h", "-help", "--help":
		fmt.Print(usage)
	default:
		os.Exit(runGUI(args))
	}
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
      office, on PostgreSQL (run workdesk hub for details); a server runs
      the same as workdesk-hub, its own binary and .deb
  workdesk --version
      print the version
`
