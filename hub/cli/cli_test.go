package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/hub"
	"github.com/workorderdesk/workdesk/hub/pgtest"
)

// run runs a command as workdesk-hub and returns its exit status and output.
func run(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = Run(context.Background(), args, Env{Prog: "workdesk-hub", Version: "9.9.9", Out: &o, Err: &e})
	return code, o.String(), e.String()
}

// The accounts as an admin manages them: add prints the secret once; list
// shows the state; disable, enable; reset prints a new secret once, the
// old one no longer signs in and the new one does.
func TestUserCommands(t *testing.T) {
	cl := pgtest.StartT(t)
	db := cl.NewDB(t)
	dbFile := filepath.Join(t.TempDir(), "db")
	if err := os.WriteFile(dbFile, []byte(db+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "user", "add", "--db-file", dbFile, "--name", "Ana Ruiz")
	var ana hub.Credentials
	if code != 0 || json.Unmarshal([]byte(out), &ana) != nil || ana.ClientSecret == "" {
		t.Fatalf("user add: exit %d, %q %q", code, out, errOut)
	}
	if code, out, _ := run(t, "user", "list", "--db-file", dbFile); code != 0 || !strings.Contains(out, "Ana Ruiz") || !strings.Contains(out, "active") {
		t.Fatalf("user list: exit %d, %q", code, out)
	}
	if code, out, _ := run(t, "user", "disable", "--db-file", dbFile, "Ana", "Ruiz"); code != 0 || !strings.Contains(out, "disabled Ana Ruiz") {
		t.Fatalf("user disable: exit %d, %q", code, out)
	}
	if code, out, _ := run(t, "user", "list", "--db-file", dbFile); code != 0 || !strings.Contains(out, "disabled") {
		t.Fatalf("user list after disable: %q", out)
	}
	if code, out, _ := run(t, "user", "enable", "--db-file", dbFile, ana.ClientId); code != 0 || !strings.Contains(out, "enabled Ana Ruiz") {
		t.Fatalf("user enable: exit %d, %q", code, out)
	}
	code, out, errOut = run(t, "user", "reset", "--db-file", dbFile, "Ana Ruiz")
	var fresh hub.Credentials
	if code != 0 || json.Unmarshal([]byte(out), &fresh) != nil || fresh.ClientId != ana.ClientId || fresh.ClientSecret == "" || fresh.ClientSecret == ana.ClientSecret {
		t.Fatalf("user reset: exit %d, %q %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "the old secret no longer works") {
		t.Errorf("user reset says %q", errOut)
	}
	d, err := hub.OpenDB(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.IssueToken(context.Background(), ana.ClientId, ana.ClientSecret); err == nil {
		t.Error("the old secret still signs in after user reset")
	}
	if _, err := d.IssueToken(context.Background(), fresh.ClientId, fresh.ClientSecret); err != nil {
		t.Errorf("the new secret does not sign in: %v", err)
	}

	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"user", "reset", "--db-file", dbFile}, 2, "say whom"},
		{[]string{"user", "enable", "--db-file", dbFile, "Nobody Here"}, 1, "no such person"},
		{[]string{"user", "add", "--db-file", dbFile}, 2, "--name"},
		{[]string{"user", "rename", "--db-file", dbFile}, 2, "user reset NAME|ID"},
		{[]string{"user", "list", "--db", db, "--db-file", dbFile}, 2, "not both"},
	} {
		code, out, errOut := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) || strings.Contains(out+errOut, `"ClientSecret":`) {
			t.Errorf("%v: exit %d, %q %q; want %d saying %q", c.args, code, out, errOut, c.code, c.says)
		}
	}
}

// The database URL comes from the command line first, then systemd's
// credential "db", then the environment (WORKDESK_DB_FILE, WORKDESK_DB,
// DATABASE_URL).
func TestDatabaseURLSources(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	creds := filepath.Join(dir, "creds")
	os.Mkdir(creds, 0o700)
	write("creds/db", "postgres://from-credential\n")
	fromFile := write("db", "  postgres://from-file\n")
	resolve := func(args ...string) (string, error) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		d := addDBFlags(fs)
		given, err := parse(fs, args)
		if err != nil {
			return "", err
		}
		return d.resolve(given)
	}
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"--db-file wins", []string{"--db-file", fromFile}, map[string]string{"CREDENTIALS_DIRECTORY": creds, "WORKDESK_DB": "postgres://from-env"}, "postgres://from-file"},
		{"--db wins", []string{"--db", "postgres://from-flag"}, map[string]string{"CREDENTIALS_DIRECTORY": creds}, "postgres://from-flag"},
		{"the credential before the environment", nil, map[string]string{"CREDENTIALS_DIRECTORY": creds, "WORKDESK_DB": "postgres://from-env"}, "postgres://from-credential"},
		{"WORKDESK_DB_FILE", nil, map[string]string{"WORKDESK_DB_FILE": fromFile, "WORKDESK_DB": "postgres://from-env"}, "postgres://from-file"},
		{"WORKDESK_DB", nil, map[string]string{"WORKDESK_DB": "postgres://from-env", "DATABASE_URL": "postgres://from-database-url"}, "postgres://from-env"},
		{"DATABASE_URL", nil, map[string]string{"DATABASE_URL": "postgres://from-database-url"}, "postgres://from-database-url"},
		{"a credential directory without db", nil, map[string]string{"CREDENTIALS_DIRECTORY": dir + "/none", "WORKDESK_DB": "postgres://from-env"}, "postgres://from-env"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"CREDENTIALS_DIRECTORY", "WORKDESK_DB", "WORKDESK_DB_FILE", "DATABASE_URL"} {
				t.Setenv(k, c.env[k])
			}
			got, err := resolve(c.args...)
			if err != nil || got != c.want {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		for _, k := range []string{"CREDENTIALS_DIRECTORY", "WORKDESK_DB", "WORKDESK_DB_FILE", "DATABASE_URL"} {
			t.Setenv(k, "")
		}
		if _, err := resolve(); err == nil || !strings.Contains(err.Error(), "--db-file") {
			t.Errorf("no database anywhere: %v", err)
		}
		if _, err := resolve("--db-file", write("empty", "\n")); err == nil || !strings.Contains(err.Error(), "empty") {
			t.Errorf("an empty database file: %v", err)
		}
	})
}

// The service's secret: --client-secret-file, else the credential, else
// WORKDESK_CLIENT_SECRET; a file is read again once it changes.
func TestClientSecretSources(t *testing.T) {
	dir := t.TempDir()
	creds := filepath.Join(dir, "creds")
	os.Mkdir(creds, 0o700)
	os.WriteFile(filepath.Join(creds, "client-secret"), []byte("from-credential\n"), 0o600)
	file := filepath.Join(dir, "secret")
	os.WriteFile(file, []byte("first\n"), 0o600)

	t.Setenv("CREDENTIALS_DIRECTORY", creds)
	t.Setenv("WORKDESK_CLIENT_SECRET", "from-env")
	read := func(path string, given bool) string {
		t.Helper()
		src, err := secretSource(path, given)
		if err != nil || src == nil {
			t.Fatalf("secretSource(%q): %v", path, err)
		}
		v, err := src()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got := read(file, true); got != "first" {
		t.Errorf("--client-secret-file: %q", got)
	}
	if got := read("", false); got != "from-credential" {
		t.Errorf("with a credential: %q", got)
	}
	t.Setenv("CREDENTIALS_DIRECTORY", "")
	if got := read("", false); got != "from-env" {
		t.Errorf("from the environment: %q", got)
	}

	src, err := secretSource(file, true)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file+".new", []byte("regenerated-by-the-customer\n"), 0o600)
	os.Rename(file+".new", file)
	if v, err := src(); err != nil || v != "regenerated-by-the-customer" {
		t.Errorf("after the file was replaced: %q, %v", v, err)
	}
	if _, err := secretSource(filepath.Join(dir, "missing"), true); err == nil {
		t.Error("a missing secret file is taken at start")
	}
}

// serve refuses what cannot work before it touches anything, in words.
func TestServeRefusesUnusableFlags(t *testing.T) {
	t.Setenv("WORKDESK_CLIENT_SECRET", "s")
	conn := []string{"--base-url", "https://svc.example/", "--token-url", "https://svc.example/token", "--client-id", "c"}
	for _, c := range []struct {
		args []string
		says string
	}{
		{append([]string{"serve", "--tls-cert", "hub.crt"}, conn...), "both --tls-cert and --tls-key"},
		{[]string{"serve", "--base-url", "https://svc.example/"}, "token URL"},
		{append([]string{"serve", "extra"}, conn...), "unexpected arguments"},
		{append([]string{"serve", "--db", "postgres://a", "--db-file", "x"}, conn...), "not both"},
		{append([]string{"serve", "--network-v4-bits", "33"}, conn...), "prefix length"},
		{append([]string{"serve", "--network-v6-bits", "0"}, conn...), "prefix length"},
		{append([]string{"serve", "--max-conns", "100", "--signed-in-share", "100"}, conn...), "less than --max-conns"},
		{append([]string{"serve", "--max-conns-per-network", "-1"}, conn...), "counts of connections"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.says) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", c.args, code, errOut, c.says)
		}
	}
	if code, out, _ := run(t, "--version"); code != 0 || out != "workdesk-hub 9.9.9\n" {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	t.Setenv("WORKDESK_MAX_CONNS", "many")
	if code, _, errOut := run(t, append([]string{"serve"}, conn...)...); code != 2 || !strings.Contains(errOut, "WORKDESK_MAX_CONNS") {
		t.Errorf("a flag's environment variable that does not parse: exit %d, %q", code, errOut)
	}
}

// A secret kept in a file others on the machine may read (everyone, or
// its group's members) is no secret: serve says so at start, naming the
// file and who may read it (never what it holds), and says nothing of
// files only the hub's user reads.
func TestServeWarnsOfSecretFilesOthersMayRead(t *testing.T) {
	conn := []string{"--base-url", "https://svc.example/", "--token-url", "https://svc.example/token", "--client-id", "c"}
	dir := t.TempDir()
	for _, c := range []struct {
		mode os.FileMode
		warn bool
		who  string
		// systemd: the files are its credentials, the group's bits an
		// ACL's mask for the hub's user.
		systemd bool
	}{
		{0o644, true, "every user", false}, {0o604, true, "every user", false}, {0o640, true, "members of its group", false},
		{0o600, false, "", false}, {0o640, false, "", true}, {0o644, true, "every user", true},
	} {
		if c.systemd {
			t.Setenv("CREDENTIALS_DIRECTORY", dir)
		}
		secret := filepath.Join(dir, "client-secret")
		db := filepath.Join(dir, "db")
		for _, f := range []struct{ path, value string }{{secret, "the-company-secret-42"}, {db, "not a database url with a pa55word"}} {
			os.Remove(f.path)
			if err := os.WriteFile(f.path, []byte(f.value), c.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(f.path, c.mode) // whatever the umask
		}
		// The database URL does not parse: serve stops there, after its warnings.
		code, _, errOut := run(t, append([]string{"serve", "--client-secret-file", secret, "--db-file", db}, conn...)...)
		if code != 1 {
			t.Fatalf("mode %v: exit %d, %q", c.mode, code, errOut)
		}
		for _, f := range []string{secret, db} {
			warned := strings.Contains(errOut, "readable by") && strings.Contains(errOut, f)
			if warned && !strings.Contains(errOut, c.who) {
				t.Errorf("files of mode %v: the warning does not say %q may read them: %q", c.mode, c.who, errOut)
			}
			if warned != c.warn {
				t.Errorf("files of mode %v (systemd's: %v): warned of %s: %v, want %v (%q)", c.mode, c.systemd, filepath.Base(f), warned, c.warn, errOut)
			}
		}
		if strings.Contains(errOut, "the-company-secret-42") || strings.Contains(errOut, "pa55word") {
			t.Errorf("the warning quotes a secret: %q", errOut)
		}
	}
}
