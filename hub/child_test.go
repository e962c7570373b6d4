package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// childEnv makes the test binary run one hub instance instead of the
// tests, so a test can kill an instance as a crash or `kill -9` would.
const childEnv = "WORKDESK_HUB_TEST_CHILD"

type childConfig struct {
	DB      string
	Service api.Connection
	// CertPEM, when set, lets the instance take the service's notifications.
	CertPEM []byte
	// SyncEvery: 0 = 200 ms.
	SyncEvery time.Duration
	// Inherited: the instance serves the listening socket its parent hands
	// it (file 3), as one started by socket activation: an instance started
	// again after a kill takes over the same address, and connections made
	// meanwhile wait for it. Else it listens on a free loopback port.
	Inherited bool
	// StreamsPerPerson and ConnsPerClient, when set, are its Options'.
	StreamsPerPerson, ConnsPerClient int
}

// runChildInstance is the test binary as a hub instance on the hub's own
// server: it says "syncing URL" on stdout once it has synced, then runs
// until it is killed.
func runChildInstance() int {
	var cfg childConfig
	if err := json.Unmarshal([]byte(os.Getenv(childEnv)), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// The parent holds our stdin: when it dies, so do we.
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	ctx := context.Background()
	db, err := OpenDB(ctx, cfg.DB)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	opts := Options{DB: db, Service: cfg.Service, SyncEvery: cfg.SyncEvery, Logger: quietLogger(),
		StreamsPerPerson: cfg.StreamsPerPerson, ConnsPerClient: cfg.ConnsPerClient}
	if opts.SyncEvery == 0 {
		opts.SyncEvery = 200 * time.Millisecond
	}
	if cfg.CertPEM != nil {
		if opts.Verifier, err = api.NewVerifier(cfg.CertPEM); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	h, err := New(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = h.NewServer()
	if cfg.Inherited {
		srv.Listener.Close()
		if srv.Listener, err = net.FileListener(os.NewFile(3, "listener")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	srv.Start()
	defer srv.Close()
	h.Start(ctx)
	// Ready once it has synced, or found that another instance syncs.
	for h.Syncs() == 0 && (h.leadTries.Load() == 0 || h.Leading()) {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("syncing", srv.URL)
	select {}
}

// startChild runs a hub instance in its own process on the office's database.
func (o *office) startChild(t testing.TB) *exec.Cmd {
	cmd, _ := o.startChildWith(t, childConfig{}, 30*time.Second)
	return cmd
}

// startChildWith runs a hub instance in its own process with cfg (the
// office's database and service filled in) and returns it and its URL
// once it has synced, within limit.
func (o *office) startChildWith(t testing.TB, cfg childConfig, limit time.Duration) (*exec.Cmd, string) {
	t.Helper()
	cfg.DB = o.url
	cfg.Service = api.Connection{BaseURL: o.info.BaseURL, TokenURL: o.info.TokenURL, ClientID: o.info.ClientID, ClientSecret: o.info.ClientSecret}
	enc, _ := json.Marshal(cfg)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(enc))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The child's stderr is copied in by exec's goroutine while the test
	// may read it for a failure message.
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			ready <- sc.Text()
		}
		close(ready)
	}()
	select {
	case line := <-ready:
		url, ok := strings.CutPrefix(line, "syncing ")
		if !ok {
			t.Fatalf("the child instance did not start: %s", stderr.String())
		}
		return cmd, url
	case <-time.After(limit):
		t.Fatalf("the child instance did not sync within %v: %s", limit, stderr.String())
	}
	return nil, ""
}

// lockedBuffer is a buffer one goroutine writes while another reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
