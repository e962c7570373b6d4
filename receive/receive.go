// Package receive is `workdesk receive`: the notification receiver without
// a window, for an integrator's server or a check of the service's
// notifications. Each verified notification is printed once, as a JSON line.
package receive

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Run is `workdesk receive args...` until ctx ends, writing to out and
// errOut: each verified notification is printed once (by MessageId) as one
// JSON line, whether or not the replica holds its work order, and logged in
// the replica; with a connection in the environment (WORKDESK_BASE_URL,
// WORKDESK_TOKEN_URL, WORKDESK_CLIENT_ID, WORKDESK_CLIENT_SECRET) what it
// touched is read again from the service into the replica, as the window
// does. Refused requests get their status and a line on errOut. listening,
// when set, is told the address once the receiver listens.
func Run(ctx context.Context, args []string, out, errOut io.Writer, listening func(net.Addr)) int {
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
	// The body is a hint: only a re-read changes the replica. Without a
	// connection the event is logged, and the next sync brings the rest.
	opts := storage.EngineOptions{ManualSend: true}
	if conn := envConnection(); len(conn.Missing()) == 0 {
		opts.Connection = conn
	}
	eng, err := storage.OpenEngine(ctx, dbPath, opts)
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
	rereads := "logged only: no connection in the environment to re-read with"
	if eng.Client != nil {
		rereads = "what each touches is read again from " + eng.Service
	}
	fmt.Fprintf(errOut, "receiving notifications on http://%s%s (replica %s; %s)\n", listen, *path, dbPath, rereads)
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

// envConnection is the service connection the environment names, if any.
func envConnection() api.Connection {
	return api.Connection{BaseURL: os.Getenv("WORKDESK_BASE_URL"), TokenURL: os.Getenv("WORKDESK_TOKEN_URL"),
		ClientID: os.Getenv("WORKDESK_CLIENT_ID"), ClientSecret: os.Getenv("WORKDESK_CLIENT_SECRET")}
}

// newReceiveHandler verifies each notification and hands it to the engine,
// and prints one JSON line per notification newly logged (a redelivery of
// one already logged prints nothing), known action or not, replica holding
// its work order or not; each refusal gets its HTTP status and a line on
// errOut saying why.
func newReceiveHandler(eng *storage.Engine, v *api.Verifier, checkSource bool, out, errOut io.Writer) http.Handler {
	var mu sync.Mutex // one line at a time, whatever the concurrency
	enc := json.NewEncoder(out)
	eng.OnEvent(func(ev api.Event) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(struct {
			Action      string `json:"action"`
			WorkOrderId int64  `json:"work_order_id"`
			MessageId   string `json:"message_id"`
			Known       bool   `json:"known"`
		}{ev.Header.Action, ev.Header.WorkOrderId, ev.Header.MessageId, api.KnownAction(ev.Header.Action)})
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
