package receive

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/storage"
)

// receiveFixture is what the receive tests share: a sandbox (its key signs
// the tokens), a closed replica file holding work order 4242 with a $500
// NTE, and a signed NteChanged raising it to $900 plus a forged token.
type receiveFixture struct {
	sb     *sandboxtest.Sandbox
	db     string
	id     string // the event's MessageId
	body   []byte
	token  string
	forged string
}

func newReceiveFixture(t *testing.T) receiveFixture {
	t.Helper()
	ctx := context.Background()
	sb := sandboxtest.New(t, sandboxtest.Seed(3), sandboxtest.RealClock())
	f := receiveFixture{sb: sb, db: filepath.Join(t.TempDir(), "replica.db"), id: uuid.NewString()}
	store, err := storage.Open(ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	wo := api.WorkOrder{WorkOrderId: 4242, WorkOrderNumber: "WN4242", Status: api.StatusAccepted, Currency: "USD",
		Customer: api.Customer{Id: 1, Name: "Northwind Retail"}, Nte: api.Nte{Amount: api.MustMoney("500", "USD")}}
	if err := store.PutWorkOrders(ctx, []api.WorkOrder{wo}); err != nil {
		t.Fatal(err)
	}
	f.body, _ = api.MarshalEvent(api.EventHeader{WorkOrderId: 4242, Action: api.ActionNteChanged, ActionDate: time.Now().UTC(), MessageId: f.id},
		api.NteChangedEvent{Amount: api.MustMoney("900", "USD")})
	f.token, _ = api.MintToken(sb.Key(), api.SHA1, api.NewClaims("client", time.Now(), 20*time.Minute))
	// Replace the signature's tail; pick another tail if it already was this one.
	f.forged = f.token[:len(f.token)-6] + "AAAAAA"
	if f.forged == f.token {
		f.forged = f.token[:len(f.token)-6] + "BBBBBB"
	}
	return f
}

// postEvent posts body as a notification of type action with token; it
// returns an error, not t.Fatal, because it also runs off the test goroutine.
func postEvent(url, token, action string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Event-Type", action)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestReceiveCommand drives `workdesk receive`'s handler with notifications
// signed the way the service signs them (by the sandbox's key): accepted
// events become JSON lines and are logged (with no service to re-read
// from, the replica keeps what it had: the body is a hint); a forged one is
// refused with 401 and a reason on stderr.
func TestReceiveCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newReceiveFixture(t)
	eng, err := storage.OpenEngine(ctx, f.db, storage.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	store := eng.Store
	v := api.NewVerifierFromKey(&f.sb.Key().PublicKey)
	var out, errOut bytes.Buffer
	srv := httptest.NewServer(newReceiveHandler(eng, v, false, &out, &errOut))
	defer srv.Close()

	post := func(token string) int {
		code, err := postEvent(srv.URL, token, api.ActionNteChanged, f.body)
		if err != nil {
			t.Fatal(err)
		}
		return code
	}
	if got := post(f.token); got != http.StatusOK {
		t.Fatalf("a signed NteChanged got HTTP %d (stderr %q)", got, errOut.String())
	}
	var line struct {
		Action      string `json:"action"`
		WorkOrderId int64  `json:"work_order_id"`
		MessageId   string `json:"message_id"`
	}
	if err := json.Unmarshal(out.Bytes(), &line); err != nil || line.Action != api.ActionNteChanged || line.WorkOrderId != 4242 || line.MessageId != f.id {
		t.Fatalf("stdout %q, want one JSON line for the event", out.String())
	}
	got, _ := store.WorkOrder(ctx, 4242)
	if got.Nte.Amount.Format() != "$500.00" {
		t.Fatalf("the replica's NTE is %s after NteChanged with nothing to re-read from, want $500.00", got.Nte.Amount.Format())
	}
	if evs, _ := store.Events(ctx, 4242); len(evs) != 1 {
		t.Fatalf("%d events logged, want the NteChanged", len(evs))
	}

	if got := post(f.forged); got != http.StatusUnauthorized {
		t.Fatalf("a forged token got HTTP %d, want 401", got)
	}
	if !strings.Contains(errOut.String(), "refused (HTTP 401)") || strings.Contains(errOut.String(), f.forged) {
		t.Fatalf("stderr %q should say why, without the token", errOut.String())
	}
}

// TestReceivePrintsOnlyNewEvents: the service redelivers a notification
// until it hears 200, also across a restart of `workdesk receive`; the
// redelivery is acknowledged but prints no second line, as the help says.
func TestReceivePrintsOnlyNewEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newReceiveFixture(t)
	v := api.NewVerifierFromKey(&f.sb.Key().PublicKey)
	var out, errOut bytes.Buffer
	for run := range 2 { // a new engine is a restarted receiver: its memory of ids is empty
		eng, err := storage.OpenEngine(ctx, f.db, storage.EngineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(newReceiveHandler(eng, v, false, &out, &errOut))
		code, err := postEvent(srv.URL, f.token, api.ActionNteChanged, f.body)
		srv.Close()
		eng.Close()
		if err != nil || code != http.StatusOK {
			t.Fatalf("delivery %d: HTTP %d, %v (stderr %q)", run+1, code, err, errOut.String())
		}
	}
	if lines := strings.Count(out.String(), "\n"); lines != 1 {
		t.Fatalf("stdout after a delivery and its redelivery:\n%s\nwant one line", out.String())
	}

	// An NTE change for a work order the replica does not hold yet, and an
	// unknown action: both are acknowledged and printed, once each.
	eng, err := storage.OpenEngine(ctx, f.db, storage.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := httptest.NewServer(newReceiveHandler(eng, v, false, &out, &errOut))
	defer srv.Close()
	unknownWO, _ := api.MarshalEvent(api.EventHeader{WorkOrderId: 999, Action: api.ActionNteChanged, ActionDate: time.Now().UTC(), MessageId: uuid.NewString()},
		api.NteChangedEvent{Amount: api.MustMoney("900", "USD")})
	newer := []byte(`{"Header":{"WorkOrderId":4242,"Action":"SomethingNewer","MessageId":"` + uuid.NewString() + `"},"Status":"Passed"}`)
	for _, d := range []struct {
		action string
		body   []byte
	}{{api.ActionNteChanged, unknownWO}, {"SomethingNewer", newer}} {
		if code, err := postEvent(srv.URL, f.token, d.action, d.body); err != nil || code != http.StatusOK {
			t.Fatalf("%s: HTTP %d, %v (stderr %q)", d.action, code, err, errOut.String())
		}
	}
	if lines := strings.Count(out.String(), "\n"); lines != 3 {
		t.Errorf("stdout after two more notifications:\n%s\nwant three lines", out.String())
	}
}

// receiveRun runs `workdesk receive` with args until ctx ends and returns
// its exit code and what it wrote; listening is told the address.
func receiveRun(t *testing.T, ctx context.Context, args []string, listening func(net.Addr)) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Run(ctx, args, &out, &errOut, listening) }()
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("receive %v did not return", args)
	}
	return code, out.String(), errOut.String()
}

// TestReceiveFlagsAndExitCodes: a person who runs `workdesk receive`
// wrongly gets one plain line saying what is wrong and the exit code a
// script can tell apart: 2 for a usage mistake, 1 for a certificate that
// cannot be used.
func TestReceiveFlagsAndExitCodes(t *testing.T) {
	t.Setenv("WORKDESK_CERT", "")
	dir := t.TempDir()
	garbage := filepath.Join(dir, "not-a-cert.pem")
	if err := os.WriteFile(garbage, []byte("this is not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nowhere", "cert.pem")
	db := filepath.Join(dir, "replica.db")
	for _, c := range []struct {
		name     string
		args     []string
		code     int
		mentions string
	}{
		{"no --cert", []string{"--addr", "127.0.0.1:0", "--db", db}, 2, "--cert is required"},
		{"certificate file missing", []string{"--addr", "127.0.0.1:0", "--db", db, "--cert", missing}, 1, missing},
		{"certificate file is not a certificate", []string{"--addr", "127.0.0.1:0", "--db", db, "--cert", garbage}, 1, garbage},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := receiveRun(t, context.Background(), c.args, func(net.Addr) {
				t.Error("the receiver started listening")
			})
			if code != c.code {
				t.Errorf("exit code %d; want %d (stderr %q)", code, c.code, stderr)
			}
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "receive: ") || !strings.Contains(lines[0], c.mentions) {
				t.Errorf("stderr %q; want one line starting \"receive: \" that mentions %q", stderr, c.mentions)
			}
			if strings.Contains(stderr, "Usage") || strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr %q is not a plain message", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q; want nothing", stdout)
			}
		})
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused start created the replica")
	}
}

// TestReceiveEndToEnd runs `workdesk receive` on 127.0.0.1:0 with the
// sandbox's certificate: a signed notification is logged and printed as
// exactly one JSON line; a forged one gets 401 and one reason
// line on stderr; cancelling stops it with exit code 0.
func TestReceiveEndToEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newReceiveFixture(t)
	cert := filepath.Join(t.TempDir(), "cert.pem")
	if err := f.sb.WriteCert(cert); err != nil {
		t.Fatal(err)
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var statuses []int
	code, stdout, stderr := receiveRun(t, runCtx, []string{"--addr", "127.0.0.1:0", "--cert", cert, "--db", f.db}, func(addr net.Addr) {
		go func() {
			defer stop()
			for _, tok := range []string{f.token, f.forged} {
				status, err := postEvent("http://"+addr.String()+"/", tok, api.ActionNteChanged, f.body)
				if err != nil {
					t.Error(err)
					return
				}
				statuses = append(statuses, status)
			}
		}()
	})
	if code != 0 {
		t.Errorf("exit code %d after cancel; want 0 (stderr %q)", code, stderr)
	}
	if len(statuses) != 2 || statuses[0] != http.StatusOK || statuses[1] != http.StatusUnauthorized {
		t.Fatalf("HTTP statuses %v; want the signed one 200, the forged one 401 (stderr %q)", statuses, stderr)
	}
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	var line map[string]any
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &line) != nil {
		t.Fatalf("stdout %q; want exactly one JSON line", stdout)
	}
	want := map[string]any{"action": api.ActionNteChanged, "work_order_id": float64(4242), "message_id": f.id, "known": true}
	if len(line) != len(want) || line["action"] != want["action"] || line["work_order_id"] != want["work_order_id"] || line["message_id"] != want["message_id"] || line["known"] != true {
		t.Errorf("stdout line %v; want %v", line, want)
	}
	var refused []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "refused") {
			refused = append(refused, l)
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "HTTP 401") || strings.Contains(stderr, f.forged) {
		t.Errorf("stderr %q; want one refusal line saying HTTP 401, without the token", stderr)
	}

	store, err := storage.Open(ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	got, err := store.WorkOrder(ctx, 4242)
	if err != nil {
		t.Fatal(err)
	}
	if got.Nte.Amount.Format() != "$500.00" {
		t.Errorf("the replica's NTE after the run is %s; want $500.00 (a body is a hint; nothing to re-read from)", got.Nte.Amount.Format())
	}
	if evs, _ := store.Events(ctx, 4242); len(evs) != 1 {
		t.Errorf("%d events logged, want the NteChanged", len(evs))
	}
}
