package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Nothing secret needs to be on a command line, where anyone who lists
// processes reads it: the database URL (which may hold a password) and the
// service's client secret come from files, from systemd's credentials
// (LoadCredential=, in $CREDENTIALS_DIRECTORY) or from the environment.
// The order: the command line, then the credential, then the environment.
const (
	credentialDB     = "db"
	credentialSecret = "client-secret"
)

// credential is the path of systemd's credential name, when the service
// was given one.
func credential(name string) (string, bool) {
	dir := os.Getenv("CREDENTIALS_DIRECTORY")
	if dir == "" {
		return "", false
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// dbFlags are where the database URL comes from.
type dbFlags struct{ url, file *string }

func addDBFlags(fs *flag.FlagSet) dbFlags {
	return dbFlags{
		url:  fs.String("db", "", "PostgreSQL `URL`, e.g. postgres://workdesk@/workdesk?host=/run/postgresql (shown to anyone who lists processes: prefer --db-file)"),
		file: fs.String("db-file", "", "read the PostgreSQL URL from `FILE` (or systemd's credential \"db\")"),
	}
}

// resolve is the database URL: --db-file or --db as given on the command
// line, else the credential "db", else WORKDESK_DB_FILE, WORKDESK_DB or
// DATABASE_URL.
func (d dbFlags) resolve(given map[string]bool) (string, error) {
	path, url, err := d.where(given)
	if err != nil || path == "" {
		return url, err
	}
	return readSecretFile(path, "the database URL")
}

// where is the file resolve reads the URL from, or else the URL itself.
func (d dbFlags) where(given map[string]bool) (path, url string, err error) {
	switch {
	case given["db"] && given["db-file"]:
		return "", "", errors.New("give the database as --db or --db-file, not both")
	case given["db-file"]:
		return *d.file, "", nil
	case given["db"]:
		return "", *d.url, nil
	}
	if p, ok := credential(credentialDB); ok {
		return p, "", nil
	}
	if *d.file != "" {
		return *d.file, "", nil
	}
	if *d.url != "" {
		return "", *d.url, nil
	}
	if u := os.Getenv("DATABASE_URL"); u != "" {
		return "", u, nil
	}
	return "", "", errors.New("no database given: --db-file FILE, systemd's credential \"db\", or WORKDESK_DB")
}

// readSecretFile reads a file holding one secret value; surrounding
// whitespace (the newline an editor adds) is not part of it.
func readSecretFile(path, what string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", what, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return "", fmt.Errorf("reading %s: %s is empty", what, path)
	}
	return v, nil
}

// secretSource is the service's client secret: --client-secret-file, else
// the credential "client-secret", else WORKDESK_CLIENT_SECRET_FILE, else
// WORKDESK_CLIENT_SECRET. A file is re-read when it changes; nil when
// none is given.
func secretSource(fileFlag string, given bool) (func() (string, error), error) {
	path := secretPath(fileFlag, given)
	if path == "" {
		v := os.Getenv("WORKDESK_CLIENT_SECRET")
		if v == "" {
			return nil, nil
		}
		return func() (string, error) { return v, nil }, nil
	}
	f := &fileSecret{path: path}
	if _, err := f.get(); err != nil {
		return nil, err
	}
	return f.get, nil
}

// secretPath is the file secretSource reads the secret from; "" for none.
func secretPath(fileFlag string, given bool) string {
	if !given {
		if p, ok := credential(credentialSecret); ok {
			return p
		}
	}
	return fileFlag
}

// readableByOthers says who besides the file's owner may read it (a
// secret in it is then theirs too): "" for none, else "every user of this
// machine" or "the members of its group"; never on Windows, whose files
// say nothing of the kind in their mode.
func readableByOthers(path string) string {
	if runtime.GOOS == "windows" {
		return ""
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return ""
	case st.Mode().Perm()&0o004 != 0:
		return "every user of this machine"
	case st.Mode().Perm()&0o040 != 0 && !inCredentials(path):
		return "the members of its group"
	}
	return ""
}

// inCredentials reports a file of systemd's credentials folder: systemd
// lets only the service's user read those, by an ACL whose mask shows in
// the group's bits of the mode.
func inCredentials(path string) bool {
	dir := os.Getenv("CREDENTIALS_DIRECTORY")
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fileSecret is a secret kept in a file and read again whenever the file
// changes (its time or size), so a secret the customer regenerates is
// used without a restart.
type fileSecret struct {
	path string

	mu    sync.Mutex
	mod   time.Time
	size  int64
	value string
}

func (f *fileSecret) get() (string, error) {
	st, err := os.Stat(f.path)
	if err != nil {
		return "", fmt.Errorf("reading the client secret: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.value != "" && st.ModTime().Equal(f.mod) && st.Size() == f.size {
		return f.value, nil
	}
	v, err := readSecretFile(f.path, "the client secret")
	if err != nil {
		return "", err
	}
	f.value, f.mod, f.size = v, st.ModTime(), st.Size()
	return v, nil
}
