package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// runReceive runs the notification receiver without a window: each
// verified notification is stored and applied to the replica and printed as
// one JSON line; refused requests get their status and a line on stderr.
func runReceive(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return receive(ctx, args, os.Stdout, os.Stderr, nil)
}

// receive is runReceive until ctx ends, writing to out and errOut;
// listening, when set, is told the address once the receiver listens.
func receive(ctx context.Context, args []string, out, errOut io.Writer, listening func(net.Addr)) int {
	fs := flag.NewFlagSet("receive", flag.ContinueOnError)
	fs.SetOutput(errOut)
	addr := fs.String("addr", "127.0.0.1:8090", "listen `address`")
	cert := fs.String("cert", os.Getenv("WORKDESK_CERT"), "the integrator certificate (PEM) notifications are verified with")
	checkSource := fs.Bool("check-source", false, "accept notifications only from the service's address range 130.250.135.128/25")
	db := fs.String("db", "", "replica `FILE` to store events in (default: the live replica for WORKDESK_BASE_URL)")
	path := fs.String("path", "/", "URL `path` notifications are posted to")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cert == "" {
		fmt.Fprintln(errOut, "receive: --cert is required: unsigned notifications are never accepted")
		return 2
	}
	v, err := api.LoadVerifier(*cert)
	if err != nil {
		fmt.Fprintln(errOut, "receive:", err)
		return 1
	}
	dbPath := *db
	if dbPath == "" {
		if dbPath, err = storage.DefaultPath(storage.ProfileForBaseURL(os.Getenv("WORKDESK_BASE_URL"))); err != nil {
			fmt.Fprintln(errOut, "receive:", err)
			return 1
		}
	}
	eng, err := storage.OpenEngine(ctx, dbPath, storage.EngineOptions{})
	if err != nil {
		fmt.Fprintln(errOut, "receive:", err)
		return 1
	}
	defer eng.Close()
	listen, err := eng.Listen(*addr, *path, newReceiveHandler(eng, v, *checkSource, out, errOut))
	if err != nil {
		fmt.Fprintln(errOut, "receive:", err)
		return 1
	}
	fmt.Fprintf(errOut, "receiving notifications on http://%s%s (replica %s)\n", listen, *path, dbPath)
	if listening != nil {
		listening(listen)
	}
	<-ctx.Done()
	// Handlers finish before the replica closes.
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	eng.Shutdown(shut)
	return 0
}

// newReceiveHandler verifies each notification, stores and applies it to
// the replica, and prints one JSON line per event newly applied to out; each
// refusal gets its HTTP status and a line on errOut saying why.
func newReceiveHandler(eng *storage.Engine, v *api.Verifier, checkSource bool, out, errOut io.Writer) http.Handler {
	var mu sync.Mutex // one line at a time, whatever the concurrency
	enc := json.NewEncoder(out)
	eng.OnApplied(func(ev api.Event) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(struct {
			Action      string `json:"action"`
			WorkOrderId int64  `json:"work_order_id"`
			MessageId   string `json:"message_id"`
		}{ev.Header.Action, ev.Header.WorkOrderId, ev.Header.MessageId})
	})
	return eng.Receiver(v, api.ReceiverOptions{
		CheckSource: checkSource,
		OnReject: func(status int, reason string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(errOut, "refused (HTTP %d): %s\n", status, reason)
		},
	})
}
