package storage

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The crash test runs the sender in a child process (this test binary,
// re-executed) and kills it while the service is applying an action but
// before the answer arrives: the worst moment. Then the parent reopens the
// replica and replays. Nothing committed may be lost and nothing applied twice.

const crashEnv = "WORKDESK_CRASH_CHILD"

// TestCrashChild is the child's body; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	if os.Getenv(crashEnv) == "" {
		t.Skip("helper for TestCrashDuringSendReplaysOnce")
	}
	ctx := context.Background()
	s, err := Open(ctx, os.Getenv("WORKDESK_CRASH_DB"))
	if err != nil {
		t.Fatal(err)
	}
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: os.Getenv("WORKDESK_CRASH_TOKEN_URL"),
		ClientID: os.Getenv("WORKDESK_CRASH_CLIENT"), ClientSecret: os.Getenv("WORKDESK_CRASH_SECRET")})
	hc := &http.Client{Transport: &crashTransport{point: os.Getenv(crashPointEnv), target: os.Getenv(crashTargetEnv)}}
	client, err := api.NewClient(os.Getenv("WORKDESK_CRASH_BASE"), hc, tokens)
	if err != nil {
		t.Fatal(err)
	}
	NewSender(s, client, SenderOptions{Backoff: noWait}).SendReady(ctx) // killed in here
	t.Fatal("the child was supposed to be killed mid-send")
}

// Kill points the child can reach on its own (the parent kills it at the
// third, "the service applied it", through the wire's hangAfter).
const (
	crashPointEnv  = "WORKDESK_CRASH_POINT"
	crashTargetEnv = "WORKDESK_CRASH_TARGET" // the MessageId of the request to die on
	crashMarker    = "CRASH-POINT-REACHED"

	// beforeSend: the row is committed "sending", the request never leaves the process.
	beforeSend = "before-send"
	// answerReceived: the service's answer is read in full, and the process
	// dies before the sender can commit the row's outcome.
	answerReceived = "answer-received"
)

// crashTransport kills the process (SIGKILL on Unix: no deferred code, no
// flush) at its kill point of the request carrying the target MessageId.
type crashTransport struct{ point, target string }

func (c *crashTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	hit := false
	if c.target != "" {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body.Close()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		hit = bytes.Contains(body, []byte(c.target)) || strings.Contains(r.URL.RawQuery, c.target)
	}
	if hit && c.point == beforeSend {
		die()
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if hit && c.point == answerReceived && err == nil {
		io.ReadAll(resp.Body)
		die()
	}
	return resp, err
}

func die() {
	fmt.Fprintln(os.Stderr, crashMarker)
	os.Stderr.Sync()
	p, _ := os.FindProcess(os.Getpid())
	p.Kill()
	select {} // the signal is on its way
}

func TestCrashDuringSendReplaysOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns a process")
	}
	svc := newService(t, 80)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "replica.db")
	s, _ := openAt(t, path)
	s.now = svc.sb.Clock().Now
	if err := NewSyncer(s, svc.client, SyncOptions{}).SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	a := pick(t, s, status(api.StatusAccepted))
	texts := []string{"crash-1 first", "crash-2 second", "crash-3 third"}
	var rows []*OutboxRow
	for _, text := range texts {
		rows = append(rows, mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, text, api.VisibilityAll)))
	}
	s.Close()

	applied := hangWhen(svc, func(r *http.Request, body []byte) bool {
		return r.Method == http.MethodPost && bytes.Contains(body, []byte(texts[0]))
	})
	cmd, out := startCrashChild(t, svc, path)
	select {
	case <-applied:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the child never sent the first action:\n%s", out)
	}
	cmd.Process.Kill() // power cut: the service applied it, the app never heard
	cmd.Wait()
	svc.wire.setFault(nil)

	s2, _ := openAt(t, path)
	s2.now = svc.sb.Clock().Now
	if r := rowState(t, s2, rows[0].Id); r.State != OutboxSending {
		t.Fatalf("the interrupted row is %s; the child should have died with it sending", r.State)
	}
	if _, err := NewSender(s2, svc.client, SenderOptions{Backoff: noWait}).SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if got := rowState(t, s2, r.Id); got.State != OutboxDone {
			t.Errorf("row %d after replay = %s %q", i, got.State, got.Error)
		}
	}
	msgs, err := svc.client.ListMessages(ctx, a.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range texts {
		if n := countText(msgs, text); n != 1 {
			t.Errorf("the service holds %q %d times; want exactly once", text, n)
		}
	}
	posts := svc.wire.calls(http.MethodPost, "/api/messages")
	var firstIds []string
	for _, p := range posts {
		if strings.Contains(string(p.Body), texts[0]) {
			firstIds = append(firstIds, p.MessageId)
		}
	}
	// The service is not known to de-duplicate by MessageId: the replay
	// found the message already there and did not post it again.
	if len(firstIds) != 1 || firstIds[0] != rows[0].MessageId {
		t.Errorf("the interrupted action was sent with ids %v; want once %q", firstIds, rows[0].MessageId)
	}
}

// hangWhen makes the service apply a request matching match and then never
// answer it; the channel closes once it has been applied.
func hangWhen(svc *service, match func(r *http.Request, body []byte) bool) <-chan struct{} {
	applied := make(chan struct{})
	svc.wire.setFault(func(r *http.Request, body []byte) faultKind {
		if match(r, body) {
			return hangAfter
		}
		return pass
	})
	svc.wire.mu.Lock()
	svc.wire.onHang = func() { close(applied) }
	svc.wire.mu.Unlock()
	return applied
}

// startCrashChild starts TestCrashChild in a new process, sending the
// replica at path to svc; env adds to its environment. out collects what it
// prints.
func startCrashChild(t *testing.T, svc *service, path string, env ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	info := svc.sb.InfoFor(svc.srv.URL)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"=1", "WORKDESK_CRASH_DB="+path, "WORKDESK_CRASH_BASE="+info.BaseURL,
		"WORKDESK_CRASH_TOKEN_URL="+info.TokenURL, "WORKDESK_CRASH_CLIENT="+info.ClientID, "WORKDESK_CRASH_SECRET="+info.ClientSecret)
	cmd.Env = append(cmd.Env, env...)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}
