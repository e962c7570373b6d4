package sibling

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The child the tests run is this test binary itself, told by
// SIBLING_CHILD what to do: a real program, with real streams, exit
// statuses and signals.
func TestMain(m *testing.M) {
	switch os.Getenv("SIBLING_CHILD") {
	case "":
		os.Exit(m.Run())
	case "echo": // stdin to stdout, a line to stderr, then SIBLING_EXIT
		io.Copy(os.Stdout, os.Stdin)
		fmt.Fprintln(os.Stderr, "said on stderr")
		code, _ := strconv.Atoi(os.Getenv("SIBLING_EXIT"))
		os.Exit(code)
	case "arg0":
		fmt.Println(os.Args[0])
		os.Exit(0)
	case "catch": // says which signal stopped it, as a server shutting down does
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, Signals...)
		fmt.Println("ready")
		fmt.Println("stopped by", <-sigs)
		os.Exit(3)
	case "die": // the default: a signal ends it
		fmt.Println("ready")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(99)
}

// child is this test binary, set to run as the child mode with env.
func child(t *testing.T, mode string, env ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("SIBLING_CHILD", mode)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return self
}

// What the child reads on stdin, prints on stdout and stderr, and its exit
// status are what the caller sees.
func TestRunPassesStreamsAndExitStatus(t *testing.T) {
	for _, code := range []int{0, 1, 2, 7} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			self := child(t, "echo", "SIBLING_EXIT="+strconv.Itoa(code))
			cmd := Command(self, "workdesk hub")
			var out, errOut bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader("user add --name Ana\n"), &out, &errOut
			got, err := Run(cmd, nil)
			if err != nil || got != code {
				t.Fatalf("Run = %d, %v; want the child's %d", got, err, code)
			}
			if out.String() != "user add --name Ana\n" || errOut.String() != "said on stderr\n" {
				t.Errorf("stdout %q, stderr %q: not what the child was given and said", out.String(), errOut.String())
			}
		})
	}
}

// The child is told the name it was called by, so its help says
// "workdesk hub serve", as the person typed it.
func TestCommandTellsTheChildItsName(t *testing.T) {
	self := child(t, "arg0")
	cmd := Command(self, "workdesk hub")
	var out bytes.Buffer
	cmd.Stdout = &out
	if code, err := Run(cmd, nil); code != 0 || err != nil {
		t.Fatalf("Run = %d, %v", code, err)
	}
	if got := strings.TrimSpace(out.String()); got != "workdesk hub" {
		t.Errorf("the child was called %q, want %q", got, "workdesk hub")
	}
}

// A signal sent to the caller reaches the child, which stops as it would
// have stopped itself (its status passed back); a child that a signal
// kills ends with 128+N, as a shell reports it.
func TestRunPassesSignalsOn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no signals to pass on: Ctrl+C reaches every program on the console")
	}
	for _, c := range []struct {
		mode    string
		sig     syscall.Signal
		code    int
		printed string
	}{
		{"catch", syscall.SIGTERM, 3, "stopped by terminated"},
		{"catch", syscall.SIGINT, 3, "stopped by interrupt"},
		{"catch", syscall.SIGHUP, 3, "stopped by hangup"},
		{"die", syscall.SIGTERM, 128 + 15, ""},
		{"die", syscall.SIGHUP, 128 + 1, ""},
	} {
		t.Run(c.mode+"/"+c.sig.String(), func(t *testing.T) {
			self := child(t, c.mode)
			cmd := Command(self, "workdesk hub")
			pr, pw := io.Pipe()
			cmd.Stdout = pw
			sigs := make(chan os.Signal, 1)
			type result struct {
				code int
				err  error
			}
			done := make(chan result, 1)
			go func() {
				code, err := Run(cmd, sigs)
				pw.Close()
				done <- result{code, err}
			}()
			lines := bufio.NewScanner(pr)
			if !lines.Scan() || lines.Text() != "ready" {
				t.Fatalf("the child did not start: %q, %v", lines.Text(), lines.Err())
			}
			sigs <- c.sig
			var rest []string
			for lines.Scan() {
				rest = append(rest, lines.Text())
			}
			select {
			case r := <-done:
				if r.err != nil || r.code != c.code {
					t.Errorf("Run = %d, %v; want %d", r.code, r.err, c.code)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the child did not stop on the signal passed on")
			}
			if got := strings.Join(rest, "\n"); got != c.printed {
				t.Errorf("the child printed %q, want %q", got, c.printed)
			}
		})
	}
}

// A program that cannot be started is said so, with 126.
func TestRunSaysWhenTheProgramCannotStart(t *testing.T) {
	p := filepath.Join(t.TempDir(), "workdesk-hub")
	if err := os.WriteFile(p, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, err := Run(Command(p, "workdesk hub"), nil)
	if code != 126 || err == nil {
		t.Errorf("Run of a file that is no program = %d, %v; want 126 and why", code, err)
	}
}

// The copy beside the running program wins (the same release); then the
// PATH; a file there that may not be run, or a folder of that name, is
// passed over; nothing anywhere names both places looked in.
func TestFindLooksBesideThenOnThePath(t *testing.T) {
	name := "workdesk-hub"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	program := func(t *testing.T, dir string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	onPath := filepath.Join(t.TempDir(), name)
	lookPath := func(found bool) func(string) (string, error) {
		return func(file string) (string, error) {
			if file != name {
				t.Errorf("looked for %q on the PATH, want %q", file, name)
			}
			if found {
				return onPath, nil
			}
			return "", errors.New("not found")
		}
	}
	for _, c := range []struct {
		name   string
		beside func(t *testing.T, dir string) string // what lies beside; "" when nothing usable
		onPath bool
	}{
		{"beside and on the PATH", func(t *testing.T, dir string) string { return program(t, dir, 0o755) }, true},
		{"beside only", func(t *testing.T, dir string) string { return program(t, dir, 0o755) }, false},
		{"on the PATH only", func(*testing.T, string) string { return "" }, true},
		{"a folder beside", func(t *testing.T, dir string) string {
			if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
			return ""
		}, true},
		{"a file beside that may not run", func(t *testing.T, dir string) string {
			if runtime.GOOS == "windows" {
				return program(t, dir, 0o644) // Windows runs what it is named
			}
			program(t, dir, 0o644)
			return ""
		}, true},
		{"nowhere", func(*testing.T, string) string { return "" }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			beside := c.beside(t, dir)
			got, err := find("workdesk-hub", dir, lookPath(c.onPath))
			want := beside
			if want == "" && c.onPath {
				want = onPath
			}
			if want == "" {
				var nf *NotFound
				if !errors.As(err, &nf) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "PATH") {
					t.Fatalf("find = %q, %v; want a *NotFound naming %s and the PATH", got, err, dir)
				}
				return
			}
			if err != nil || got != want {
				t.Errorf("find = %q, %v; want %q", got, err, want)
			}
		})
	}
}
