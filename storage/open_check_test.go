package storage

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenRefusesEmptyReplica is issue 15's finding: a replica truncated to
// zero bytes was silently recreated empty, and queued actions vanished.
// Now Open refuses it, says how to recover, and leaves the file as it was.
func TestOpenRefusesEmptyReplica(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "replica.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, path)
	if err == nil {
		s.Close()
		t.Fatal("an empty replica file was opened (and would have been recreated empty)")
	}
	if !errors.Is(err, ErrReplicaEmpty) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "backup") {
		t.Errorf("err = %v; want it to name the file, say it is empty and how to recover", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("the empty file was not left as it was: %v, %v", fi, err)
	}
}

// makeReadOnly makes path unwritable even for root (who ignores modes)
// where it can, and says whether it did.
func makeReadOnly(t *testing.T, path string) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		fi, _ := os.Stat(path)
		mode := os.FileMode(0o444)
		if fi.IsDir() {
			mode = 0o555
		}
		if err := os.Chmod(path, mode); err != nil {
			return false
		}
		t.Cleanup(func() { os.Chmod(path, 0o700) })
		return true
	}
	if exec.Command("chattr", "+i", path).Run() != nil {
		return false
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
	return true
}

// TestOpenSaysReadOnly: a replica, or its folder, that cannot be written is
// reported as read-only in plain words, not as SQLite's "unable to open
// database file (14)".
func TestOpenSaysReadOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, what := range []string{"file", "folder"} {
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "data")
			path := filepath.Join(dir, "replica.db")
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			target := path
			if what == "folder" {
				target = dir
			}
			if !makeReadOnly(t, target) {
				t.Skip("cannot make a file read-only here")
			}
			s, err = Open(ctx, path)
			if err == nil {
				s.Close()
				t.Fatal("a read-only replica opened")
			}
			if !errors.Is(err, ErrReplicaReadOnly) || !strings.Contains(err.Error(), "read-only") || strings.Contains(err.Error(), "(14)") {
				t.Errorf("err = %v; want it to say read-only in plain words", err)
			}
		})
	}
}
