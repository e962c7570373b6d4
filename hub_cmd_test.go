package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/hub/pgtest"
)

// hubOnPath builds cmd/workdesk-hub from this tree and puts it on the PATH
// (alone there: nothing else of the machine's is found), as an office that
// installed it does. The copy beside the running program is the other place
// `workdesk hub` looks (sibling's tests).
func hubOnPath(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	name := "workdesk-hub"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	build := exec.Command(goTool(), "build", "-tags", "migrated_fynedo", "-o", filepath.Join(dir, name), "./cmd/workdesk-hub")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building workdesk-hub: %v\n%s", err, out)
	}
	t.Setenv("PATH", dir)
}

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

// syncBuffer is written by the command's copying goroutine while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runHubCommand is `workdesk hub args...` with its output kept.
func runHubCommand(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = hubCommand(args, stdio{out: &out, err: &errOut}, nil)
	return code, out.String(), errOut.String()
}

// An office sets the hub up as the README says: `hub user add`, `hub
// serve` against the service, a desktop signs in and reads, the service's
// notification arrives, `hub user disable`. Afterwards neither the hub's
// output nor its database (dumped whole) holds the service's secret, the
// person's secret, an access token or a download link.
func TestHubCommandsEndToEnd(t *testing.T) {
	cl := pgtest.StartT(t)
	dbURL := cl.NewDB(t)
	sb := sandboxtest.New(t, sandboxtest.RealClock())
	info := sb.Info
	cert := filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(cert, info.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WORKDESK_CLIENT_SECRET", info.ClientSecret)
	ctx := t.Context()
	hubOnPath(t)

	rc, addOut, addErr := runHubCommand("user", "add", "--db", dbURL, "--name", "Ana Ruiz")
	if rc != 0 {
		t.Fatalf("user add: exit %d: %s", rc, addErr)
	}
	var creds struct{ ClientId, ClientSecret string }
	if err := json.Unmarshal([]byte(addOut), &creds); err != nil || creds.ClientId == "" || creds.ClientSecret == "" {
		t.Fatalf("user add printed %q, want one JSON object with ClientId and ClientSecret", addOut)
	}

	// Ctrl+C (or systemd's SIGTERM) given to `workdesk hub serve` reaches
	// the hub, which stops as it does on its own.
	stop := make(chan os.Signal, 1)
	var serveOut, serveErr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- hubCommand([]string{"serve", "--db", dbURL, "--addr", "127.0.0.1:0",
			"--base-url", info.BaseURL, "--token-url", info.TokenURL, "--client-id", info.ClientID, "--cert", cert},
			stdio{out: &serveOut, err: &serveErr}, stop)
	}()
	defer func() {
		select {
		case stop <- os.Interrupt:
		default:
		}
	}()
	listening := regexp.MustCompile(`desktops connect to:\s+(http://\S+/) `)
	var base string
	for deadline := time.Now().Add(60 * time.Second); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(serveOut.String()); m != nil {
			base = m[1]
			break
		}
		select {
		case rc := <-done:
			t.Fatalf("hub serve exited %d: %s", rc, serveErr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub serve did not say where it listens: %s\n%s", serveOut.String(), serveErr.String())
		}
	}
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: base + "oauth/token", ClientID: creds.ClientId, ClientSecret: creds.ClientSecret})
	desk, err := api.NewClient(base, nil, tokens)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokens.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found []api.WorkOrder
	deadline := time.Now().Add(15 * time.Second)
	// The first sync stores the work orders a batch at a time: wait for all.
	for len(found) < sb.WorkOrderCount() && time.Now().Before(deadline) {
		found, err = desk.SearchWorkOrders(ctx, api.SearchParameters{})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(found) != sb.WorkOrderCount() {
		t.Fatalf("the desktop sees %d work orders through the hub, the service has %d", len(found), sb.WorkOrderCount())
	}
	id := found[0].WorkOrderId
	att, err := desk.UploadAttachment(ctx, id, api.Upload{Name: "note.txt", Content: strings.NewReader("hello")})
	if err != nil {
		t.Fatal(err)
	}
	link, err := desk.AttachmentDownloadURL(ctx, id, att.AttachmentId)
	if err != nil || link.URL == "" {
		t.Fatalf("download link: %+v, %v", link, err)
	}
	// The attachment list is stored in the hub's database; the link, asked
	// for again after it, never.
	if list, err := desk.ListAttachments(ctx, id); err != nil || len(list) == 0 {
		t.Fatalf("attachments through the hub: %+v, %v", list, err)
	}
	again, err := desk.AttachmentDownloadURL(ctx, id, att.AttachmentId)
	if err != nil || again.URL == "" {
		t.Fatalf("download link again: %v", err)
	}
	sb.SetNotifyURL(base + "notify")
	wo, err := sb.DispatchWorkOrder()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; {
		if _, err := desk.GetWorkOrder(ctx, wo.WorkOrderId); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the notified work order never reached the hub's replica")
		}
		time.Sleep(50 * time.Millisecond)
	}

	rc, disableOut, disableErr := runHubCommand("user", "disable", "--db", dbURL, "Ana Ruiz")
	if rc != 0 {
		t.Fatalf("user disable: exit %d: %s", rc, disableErr)
	}
	rc, listOut, _ := runHubCommand("user", "list", "--db", dbURL)
	if rc != 0 || !strings.Contains(listOut, "Ana Ruiz") || !strings.Contains(listOut, "disabled") {
		t.Fatalf("user list: exit %d: %s", rc, listOut)
	}
	stop <- os.Interrupt
	select {
	case rc := <-done:
		if rc != 0 {
			t.Fatalf("hub serve exited %d on Ctrl+C: %s", rc, serveErr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("hub serve did not stop on Ctrl+C")
	}
	if !strings.Contains(serveOut.String(), base+"notify") {
		t.Fatalf("hub serve did not print the notification URL: %s", serveOut.String())
	}

	_, linkSig, _ := strings.Cut(link.URL, "?")
	dump := cl.Dump(t, dbURL)
	if !bytes.Contains(dump, []byte("Ana Ruiz")) || !bytes.Contains(dump, []byte(att.AttachmentId)) {
		t.Fatal("the dump does not hold the data it should (a person, a stored attachment list): the search below would prove nothing")
	}
	for what, secret := range map[string]string{
		"the service's client secret": info.ClientSecret, "the person's secret": creds.ClientSecret,
		"the person's access token": tok, "a download link": link.URL, "a download link's signature": linkSig,
		"the download link asked for after the list": again.URL,
	} {
		for where, text := range map[string][]byte{"the database": dump, "the hub's output": []byte(serveOut.String()), "the hub's log": []byte(serveErr.String()),
			"user list": []byte(listOut), "user disable": []byte(disableOut)} {
			if secret != "" && bytes.Contains(text, []byte(secret)) {
				t.Errorf("%s is in %s", what, where)
			}
		}
	}
}

// `workdesk hub ...` is workdesk-hub's command as typed there: its output,
// its exit status, its help naming the commands as the person typed them.
func TestHubCommandRunsWorkdeskHub(t *testing.T) {
	hubOnPath(t)
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"--version"}, 0, "workdesk-hub " + appVersion + "\n", ""},
		{[]string{"help"}, 0, "workdesk hub user add --name", ""},
		{nil, 2, "", "workdesk hub serve [flags]"},
		{[]string{"frobnicate"}, 2, "", "workdesk hub user list"},
		{[]string{"user", "list"}, 2, "", "workdesk hub user list: no database given"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Setenv("WORKDESK_DB", "")
			t.Setenv("DATABASE_URL", "")
			code, out, errOut := runHubCommand(c.args...)
			if code != c.code || !strings.Contains(out, c.stdout) || !strings.Contains(errOut, c.stderr) || (c.stdout == "" && out != "") {
				t.Errorf("workdesk hub %s: exit %d, stdout %q, stderr %q; want exit %d, %q in stdout, %q in stderr",
					strings.Join(c.args, " "), code, out, errOut, c.code, c.stdout, c.stderr)
			}
		})
	}
}

// Without workdesk-hub installed, `workdesk hub` says so, where it looked,
// and what to install, and fails as a shell does for a missing command.
func TestHubCommandWithoutWorkdeskHubSaysWhatToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := runHubCommand("serve")
	if code != 127 || out != "" {
		t.Errorf("exit %d, stdout %q; want 127 and nothing", code, out)
	}
	want := []string{"workdesk-hub", "PATH", "Install workdesk-hub " + appVersion}
	if runtime.GOOS == "linux" {
		want = append(want, "workdesk-hub_"+appVersion+"_amd64.deb")
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("the message lacks %q:\n%s", w, errOut)
		}
	}
}
