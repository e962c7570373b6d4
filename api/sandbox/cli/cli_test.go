package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// lockedBuffer is a bytes.Buffer the sandbox's goroutines may log into
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// sandboxRun is `workdesk sandbox` running in the test: what it printed
// up to "Ctrl+C stops it.", and how to stop it.
type sandboxRun struct {
	out    string
	stderr *lockedBuffer
	stop   chan os.Signal
	done   chan int
}

// startSandboxCommand runs the command with args and waits (no sleeps) until
// it has printed its connection data.
func startSandboxCommand(t *testing.T, args ...string) *sandboxRun {
	t.Helper()
	pr, pw := io.Pipe()
	r := &sandboxRun{stderr: &lockedBuffer{}, stop: make(chan os.Signal), done: make(chan int, 1)}
	go func() {
		code := Run(args, pw, r.stderr, r.stop)
		pw.Close()
		r.done <- code
	}()
	var out strings.Builder
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if sc.Text() == "Ctrl+C stops it." {
			r.out = out.String()
			// Keep draining so nothing printed later can block the command.
			go io.Copy(io.Discard, pr)
			t.Cleanup(func() { r.shutdown(t) })
			return r
		}
	}
	t.Fatalf("the command ended without printing its connection data; exit %d\nstdout:\n%s\nstderr:\n%s", <-r.done, out.String(), r.stderr)
	return nil
}

// shutdown delivers the stop signal and returns the exit status.
func (r *sandboxRun) shutdown(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		r.done <- code
		return code
	default:
	}
	r.stop <- os.Interrupt
	select {
	case code := <-r.done:
		r.done <- code // let the cleanup see it too
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("the sandbox command did not stop on its signal")
		return -1
	}
}

// field reads one "  label   value" line of the printed connection data.
func (r *sandboxRun) field(t *testing.T, label string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(label) + ` +(\S+)`).FindStringSubmatch(r.out)
	if m == nil {
		t.Fatalf("no %q line in:\n%s", label, r.out)
	}
	return m[1]
}

// TestSandboxCommandWritesConfig runs `workdesk sandbox` on a free loopback
// port with --config-out: what it prints and what it writes agree, the file
// is private (0600), and the printed credentials and certificate work.
func TestSandboxCommandWritesConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "sandbox.json")
	r := startSandboxCommand(t, "--addr", "127.0.0.1:0", "--work-orders", "10", "--seed", "7",
		"--customer-every", "0", "--config-out", cfgPath)

	// New raises anything below 60 to 60: the real count is printed.
	if !strings.HasPrefix(r.out, "Work Order Desk sandbox: 60 work orders (seed 7)\n") {
		t.Fatalf("first line of:\n%s", r.out)
	}
	base, tokenURL, id, secret, cert := r.field(t, "base URL"), r.field(t, "token URL"), r.field(t, "client id"), r.field(t, "client secret"), r.field(t, "certificate")
	if !strings.HasPrefix(base, "http://127.0.0.1:") || strings.HasSuffix(base, ":0/") || tokenURL != base+"oauth/token" {
		t.Fatalf("base URL %q, token URL %q", base, tokenURL)
	}
	if got := r.field(t, "control API"); got != base+"_sandbox/" {
		t.Errorf("control API %q", got)
	}

	fi, err := os.Stat(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("config file mode %v, want 0600 (it holds the client secret)", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(cfgPath)
	var cfg sandbox.FileConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("config %s: %v", b, err)
	}
	want := sandbox.FileConfig{BaseURL: base, TokenURL: tokenURL, ClientID: id, ClientSecret: secret, CertPath: cert}
	if cfg != want {
		t.Fatalf("written %+v\nprinted %+v", cfg, want)
	}
	if filepath.Dir(cfg.CertPath) != dir || !filepath.IsAbs(cfg.CertPath) {
		t.Errorf("certificate written to %q, want beside the config in %q", cfg.CertPath, dir)
	}
	if _, err := api.LoadVerifier(cfg.CertPath); err != nil {
		t.Fatalf("the printed certificate: %v", err)
	}

	// The printed credentials connect, and the world has the printed size.
	creds := api.NewClientCredentials(api.CredentialsConfig{TokenURL: tokenURL, ClientID: id, ClientSecret: secret})
	c, err := api.NewClient(base, nil, creds)
	if err != nil {
		t.Fatal(err)
	}
	wos, err := c.SearchWorkOrders(t.Context(), api.SearchParameters{})
	if err != nil || len(wos) != 60 {
		t.Fatalf("search with the printed credentials: %d work orders, %v", len(wos), err)
	}
	if strings.Contains(r.stderr.String(), secret) {
		t.Error("the log shows the client secret")
	}

	if code := r.shutdown(t); code != 0 {
		t.Fatalf("exit status %d after the stop signal", code)
	}
	if _, err := http.Get(base + "_sandbox/state"); err == nil {
		t.Error("still serving after the stop signal")
	}
}

// TestSandboxCommandWithoutConfigOut: the certificate still lands in a
// file, whose path is printed.
func TestSandboxCommandWithoutConfigOut(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r := startSandboxCommand(t, "--addr", "127.0.0.1:0", "--customer-every", "0")
	if !strings.HasPrefix(r.out, "Work Order Desk sandbox: 72 work orders (seed 1)\n") {
		t.Fatalf("first line of:\n%s", r.out)
	}
	cert := r.field(t, "certificate")
	if !strings.HasPrefix(cert, tmp+string(filepath.Separator)) {
		t.Fatalf("certificate %q not in the temporary directory %q", cert, tmp)
	}
	if _, err := api.LoadVerifier(cert); err != nil {
		t.Fatalf("the printed certificate: %v", err)
	}
	if !strings.Contains(r.out, "--cert "+cert+"\n") {
		t.Errorf("the doctor example does not use the certificate:\n%s", r.out)
	}
}

// TestSandboxCommandRefusals: bad flags are a usage error (2) with honest
// help; an address in use is a failure (1) that says why.
func TestSandboxCommandRefusals(t *testing.T) {
	t.Parallel()
	stop := make(chan os.Signal)
	var stdout, stderr lockedBuffer
	if code := Run([]string{"--work-orders", "many"}, &stdout, &stderr, stop); code != 2 {
		t.Fatalf("a bad --work-orders: exit %d", code)
	}
	if help := stderr.String(); !strings.Contains(help, "-seed") || !strings.Contains(help, "dates are relative to now") ||
		strings.Contains(help, "same world") {
		t.Errorf("usage:\n%s", help)
	}
	if stdout.String() != "" {
		t.Errorf("a usage error printed %q", stdout.String())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var inUse lockedBuffer
	if code := Run([]string{"--addr", ln.Addr().String(), "--customer-every", "0"}, &stdout, &inUse, stop); code != 1 {
		t.Fatalf("an address in use: exit %d", code)
	}
	if !strings.Contains(inUse.String(), "sandbox:") || !strings.Contains(inUse.String(), "address already in use") {
		t.Errorf("an address in use says %q", inUse.String())
	}
	if stdout.String() != "" {
		t.Errorf("a failed start printed %q", stdout.String())
	}
}
