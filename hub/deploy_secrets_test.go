package hub

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// workdesk-hub takes the service's client secret and the database URL
// from systemd's credentials ($CREDENTIALS_DIRECTORY/client-secret and
// db), from files (--client-secret-file, --db-file) or from the
// environment, and syncs with them; in none of these ways is a secret on
// its command line, which anyone on the server can list.
func TestHubTakesItsSecretsWithoutACommandLine(t *testing.T) {
	t.Parallel()
	for _, way := range []string{"credentials", "files", "env"} {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			o := newOffice(t, sandbox.Options{})
			// Ready once it has synced: it read both.
			hub := o.startHub(t, childConfig{Secrets: way}, 60*time.Second)
			cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(hub.cmd.Process.Pid) + "/cmdline")
			if err != nil {
				t.Skip("no /proc here:", err)
			}
			for what, secret := range map[string]string{"the service's client secret": o.info.ClientSecret, "the database URL": o.url} {
				if bytes.Contains(cmdline, []byte(secret)) {
					t.Errorf("%s is on the hub's command line: %q", what, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
				}
			}
		})
	}
}

// The customer regenerated the company's secret and the admin writes the
// new one over the file --client-secret-file names: the running hub uses
// it at its next token request, without a restart. (Here the file held a
// wrong secret first, so the hub's syncs were refused until it changed.)
func TestReplacedSecretFileIsUsedWithoutARestart(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	dir := t.TempDir()
	file := filepath.Join(dir, "client-secret")
	if err := os.WriteFile(file, []byte("the-secret-before-it-was-regenerated\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Ready without a sync: none can succeed with that secret.
	hub := o.startHub(t, childConfig{SecretFile: file, Follower: true}, 60*time.Second)
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(hub.stderr.String(), "sync failed") {
		if time.Now().After(deadline) {
			t.Fatalf("no sync failed with the wrong secret within 15 s: %s", hub.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n, _ := metricValue(get(nil, hub.metrics), "workdesk_hub_syncs_total"); n != 0 {
		t.Fatalf("%v syncs with a wrong secret", n)
	}
	// Replaced whole, as an editor or a deployment tool does.
	if err := os.WriteFile(file+".new", []byte(o.info.ClientSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(file+".new", file); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(15 * time.Second)
	for {
		if n, _ := metricValue(get(nil, hub.metrics), "workdesk_hub_syncs_total"); n >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub did not sync within 15 s of the secret file's change: %s", hub.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-hub.dead:
		t.Fatal("the hub's process ended")
	default:
	}
	if strings.Contains(hub.stderr.String(), o.info.ClientSecret) {
		t.Error("the hub's log holds the client secret")
	}
}
