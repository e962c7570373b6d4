package hub

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests that need a hub in a process of its own (one they kill, one
// whose memory they measure) run the real thing: cmd/workdesk-hub, built
// once per test run as it ships (CGO_ENABLED=0), configured the way an
// admin does (flags, systemd's credentials, socket activation).

// hubBinDir holds the built binary; TestMain removes it.
var hubBinDir string

// hubBinary builds cmd/workdesk-hub once per test run, or is the one
// WORKDESK_HUB_BIN names (tools/hub-mem.sh measures the shipped build).
var hubBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("WORKDESK_HUB_BIN"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "workdesk-hub-bin-")
	if err != nil {
		return "", err
	}
	hubBinDir = dir
	bin := filepath.Join(dir, "workdesk-hub")
	cmd := exec.Command(goTool(), "build", "-tags", "migrated_fynedo", "-o", bin, "github.com/workorderdesk/workdesk/cmd/workdesk-hub")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building workdesk-hub: %v\n%s", err, out)
	}
	return bin, nil
})

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// childConfig says how to run a workdesk-hub.
type childConfig struct {
	// CertPEM, when set, lets the instance take the service's notifications (--cert).
	CertPEM []byte
	// SyncEvery: 0 = 200 ms.
	SyncEvery time.Duration
	// Listener, when set, is served by the instance as systemd's socket
	// activation hands it over: an instance started again after a kill
	// takes over the same address, and connections made meanwhile wait
	// for it. Else it listens on a free loopback port.
	Listener *net.TCPListener
	// StreamsPerPerson and ConnsPerClient, when set, are its flags'.
	StreamsPerPerson, ConnsPerClient int
	// Follower: another instance syncs; ready once /readyz says so,
	// without waiting for a sync of its own.
	Follower bool
	// Secrets is how the service's secret and the database URL reach it:
	// "credentials" (systemd's, in $CREDENTIALS_DIRECTORY: the default),
	// "files" (--client-secret-file, --db-file) or "env".
	Secrets string
	// SecretFile, when set, is the file --client-secret-file names (the
	// test replaces it); Secrets is then "files".
	SecretFile string
	// Args are more flags of serve; Env more of its environment.
	Args, Env []string
	// HTTP checks that it is ready (one that trusts its TLS certificate);
	// nil = http.DefaultClient.
	HTTP *http.Client
}

// child is a workdesk-hub process.
type child struct {
	cmd *exec.Cmd
	// url is where desktops reach it ("http://127.0.0.1:PORT", no slash
	// at the end); metrics, its /metrics.
	url, metrics string
	stderr       *lockedBuffer
	dead         chan struct{} // closed once the process is gone
	exit         error
}

// kill ends the instance as `kill -9` would, and waits until it is gone.
func (c *child) kill() {
	c.cmd.Process.Kill()
	<-c.dead
}

// startChild runs a hub instance in its own process on the office's database.
func (o *office) startChild(t testing.TB) *exec.Cmd {
	return o.startHub(t, childConfig{}, 60*time.Second).cmd
}

// startChildWith runs a hub instance in its own process with cfg and
// returns it and its URL once it has synced, within limit.
func (o *office) startChildWith(t testing.TB, cfg childConfig, limit time.Duration) (*exec.Cmd, string) {
	c := o.startHub(t, cfg, limit)
	return c.cmd, c.url
}

// startKillable runs a hub instance in its own process serving l (the
// parent keeps it open, so an instance started again takes its place and
// connections made meanwhile wait), and returns once it is ready.
func (o *office) startKillable(t *testing.T, l *net.TCPListener) *child {
	return o.startHub(t, childConfig{Listener: l}, 60*time.Second)
}

// startHub runs workdesk-hub serve on the office's database and service
// with cfg, and returns once it serves and has synced (or, a Follower,
// is ready), within limit. It dies with the test binary.
func (o *office) startHub(t testing.TB, cfg childConfig, limit time.Duration) *child {
	t.Helper()
	bin, err := hubBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if cfg.SyncEvery == 0 {
		cfg.SyncEvery = 200 * time.Millisecond
	}
	args := []string{"serve", "--base-url", o.info.BaseURL, "--token-url", o.info.TokenURL, "--client-id", o.info.ClientID,
		"--sync-every", cfg.SyncEvery.String()}
	if cfg.Listener == nil {
		args = append(args, "--addr", "127.0.0.1:0")
	}
	if cfg.CertPEM != nil {
		args = append(args, "--cert", write("service-cert.pem", cfg.CertPEM))
	}
	if cfg.StreamsPerPerson > 0 {
		args = append(args, "--streams-per-person", strconv.Itoa(cfg.StreamsPerPerson))
	}
	if cfg.ConnsPerClient > 0 {
		args = append(args, "--max-conns-per-address", strconv.Itoa(cfg.ConnsPerClient))
	}
	env := childEnviron()
	if cfg.SecretFile != "" {
		cfg.Secrets = "files"
	}
	switch cfg.Secrets {
	case "", "credentials":
		creds := filepath.Join(dir, "credentials")
		if err := os.Mkdir(creds, 0o700); err != nil {
			t.Fatal(err)
		}
		write("credentials/client-secret", []byte(o.info.ClientSecret+"\n"))
		write("credentials/db", []byte(o.url+"\n"))
		env = append(env, "CREDENTIALS_DIRECTORY="+creds)
	case "files":
		if cfg.SecretFile == "" {
			cfg.SecretFile = write("client-secret", []byte(o.info.ClientSecret))
		}
		args = append(args, "--client-secret-file", cfg.SecretFile, "--db-file", write("db", []byte(o.url)))
	case "env":
		env = append(env, "WORKDESK_CLIENT_SECRET="+o.info.ClientSecret, "WORKDESK_DB="+o.url)
	default:
		t.Fatalf("childConfig.Secrets %q", cfg.Secrets)
	}
	args = append(args, cfg.Args...)
	env = append(env, cfg.Env...)

	var cmd *exec.Cmd
	if cfg.Listener != nil {
		// As systemd hands a socket over: file 3, and LISTEN_PID naming
		// the process, which the shell knows as $$ and keeps through exec.
		cmd = exec.Command("/bin/sh", append([]string{"-c", `LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" "$@"`, bin}, args...)...)
		f, err := cfg.Listener.File()
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close() // the child has its own
		cmd.ExtraFiles = []*os.File{f}
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stderr: &lockedBuffer{}, dead: make(chan struct{})}
	cmd.Stderr = c.stderr
	if err := startDyingWithUs(cmd, func(err error) { c.exit = err; close(c.dead) }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); <-c.dead })

	// serve prints where it is reached, then serves.
	said := make(chan map[string]string, 1)
	go func() {
		lines := map[string]string{}
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			lines[k] = strings.Fields(strings.TrimSpace(v) + " ")[0]
			if k == "metrics" {
				break
			}
		}
		said <- lines
		io.Copy(io.Discard, out)
	}()
	deadline := time.After(limit)
	var lines map[string]string
	select {
	case lines = <-said:
	case <-c.dead:
		t.Fatalf("workdesk-hub serve exited (%v): %s", c.exit, c.stderr)
	case <-deadline:
		t.Fatalf("workdesk-hub serve did not start within %v: %s", limit, c.stderr)
	}
	c.url = strings.TrimSuffix(lines["desktops connect to"], "/")
	c.metrics = lines["metrics"]
	if c.url == "" || c.metrics == "" {
		t.Fatalf("workdesk-hub serve did not say where it is reached: %v\n%s", lines, c.stderr)
	}
	hc := cfg.HTTP
	ready := func() bool {
		if cfg.Follower {
			return get(hc, c.url+"/readyz") == "ready\n"
		}
		n, _ := metricValue(get(hc, c.metrics), "workdesk_hub_syncs_total")
		return n >= 1
	}
	for !ready() {
		select {
		case <-c.dead:
			t.Fatalf("workdesk-hub serve exited (%v): %s", c.exit, c.stderr)
		case <-deadline:
			t.Fatalf("workdesk-hub serve was not ready (synced) within %v: %s", limit, c.stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return c
}

// childEnviron is the test's environment without what would configure a
// hub (the developer's own WORKDESK_*, a database URL, credentials).
func childEnviron() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "WORKDESK_") || strings.HasPrefix(k, "LISTEN_") || k == "DATABASE_URL" || k == "CREDENTIALS_DIRECTORY" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// get is the body of GET url with hc (nil: http.DefaultClient), "" when
// it fails or is not a 200.
func get(hc *http.Client, url string) string {
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Get(url)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	return string(b)
}

// metricValue reads one series from a Prometheus text exposition: name
// with its labels as written, e.g. `workdesk_hub_writes_forwarded_total{result="ok"}`.
func metricValue(exposition, series string) (float64, bool) {
	for _, line := range strings.Split(exposition, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f, err == nil
		}
	}
	return 0, false
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
