package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
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
}

// runChildInstance is the test binary as a hub instance: it says "syncing"
// on stdout once it has synced, then runs until it is killed.
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
	h, err := New(Options{DB: db, Service: cfg.Service, SyncEvery: 200 * time.Millisecond, Logger: quietLogger()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := httptest.NewServer(h.Handler())
	defer srv.Close()
	h.Start(ctx)
	for h.Syncs() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("syncing")
	select {}
}

// startChild runs a hub instance in its own process on the office's database.
func (o *office) startChild(t *testing.T) *exec.Cmd {
	t.Helper()
	cfg, _ := json.Marshal(childConfig{DB: o.url, Service: api.Connection{BaseURL: o.info.BaseURL, TokenURL: o.info.TokenURL,
		ClientID: o.info.ClientID, ClientSecret: o.info.ClientSecret}})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(cfg))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ready <- sc.Scan() && sc.Text() == "syncing"
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("the child instance did not start: %s", stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the child instance did not sync within 30 s: %s", stderr.String())
	}
	return cmd
}
