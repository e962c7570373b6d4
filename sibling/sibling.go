// Package sibling finds and runs a program installed beside this one, as if
// this program had run the command itself: the same standard streams, its
// exit status, and the signals that would have ended this one passed on.
// The desktop's `workdesk hub` runs workdesk-hub this way, so that the
// window's binary links none of the server's code.
package sibling

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
)

// Signals are those a command is stopped with (Ctrl+C, systemd's or
// kill's SIGTERM, a closed terminal's SIGHUP): Run passes each on.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// NotFound says where a program was looked for and not found.
type NotFound struct {
	Name   string
	Beside string // the folder of the running executable ("" when unknown)
}

func (e *NotFound) Error() string {
	if e.Beside == "" {
		return e.Name + " is not on the PATH"
	}
	return fmt.Sprintf("%s is neither beside this program (in %s) nor on the PATH", e.Name, e.Beside)
}

// Find returns the program name installed in the folder of the running
// executable (the same release, unpacked or installed together), else the
// one on the PATH; a *NotFound when neither holds it. On Windows name gets
// its .exe.
func Find(name string) (string, error) {
	exe, err := os.Executable()
	dir := ""
	if err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir = filepath.Dir(exe)
	}
	return find(name, dir, exec.LookPath)
}

func find(name, dir string, lookPath func(string) (string, error)) (string, error) {
	file := name
	if runtime.GOOS == "windows" {
		file += ".exe"
	}
	if dir != "" {
		if p := filepath.Join(dir, file); executable(p) {
			return p, nil
		}
	}
	if p, err := lookPath(file); err == nil {
		return p, nil
	}
	return "", &NotFound{Name: file, Beside: dir}
}

// executable reports whether p is a file this process may run.
func executable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}

// Command is the command that runs the program at path with args, as arg0
// (what the program is told it was called: "workdesk hub" says how its
// help should name it), with this process's standard streams.
func Command(path, arg0 string, args ...string) *exec.Cmd {
	cmd := &exec.Cmd{Path: path, Args: append([]string{arg0}, args...)}
	// A Windows GUI program may have no standard handles at all (nil
	// files): the child then gets the null device, as exec gives by default.
	if os.Stdin != nil {
		cmd.Stdin = os.Stdin
	}
	if os.Stdout != nil {
		cmd.Stdout = os.Stdout
	}
	if os.Stderr != nil {
		cmd.Stderr = os.Stderr
	}
	return cmd
}

// Run starts cmd, passes on each signal that arrives on signals until it
// ends, and returns its exit status: the program's own, 128+N when signal
// N ended it (as a shell says), 126 with the error when it could not be
// started. Where a signal cannot be sent (Windows: Ctrl+C reaches every
// program on the console by itself) it is dropped: the child has it.
func Run(cmd *exec.Cmd, signals <-chan os.Signal) (int, error) {
	if err := cmd.Start(); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return 126, fmt.Errorf("%s may not be run: %w", cmd.Path, err)
		}
		return 126, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case s := <-signals:
			_ = cmd.Process.Signal(s)
		case err := <-done:
			return exitStatus(cmd, err)
		}
	}
}

func exitStatus(cmd *exec.Cmd, err error) (int, error) {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return exit.ExitCode(), nil
	case cmd.ProcessState != nil:
		// The program ended but copying one of its streams failed (a
		// reader or writer that is not a file): its status still stands.
		return cmd.ProcessState.ExitCode(), err
	}
	return 1, err
}
