//go:build unix

package cli

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"
)

// activatedListener is the listening socket systemd hands the hub under
// socket activation (a .socket unit: LISTEN_PID names this process,
// LISTEN_FDS counts the sockets from file 3); nil without one. A hub
// restarted on it keeps the address, and connections made meanwhile wait.
func activatedListener() (net.Listener, error) {
	if os.Getenv("LISTEN_PID") != strconv.Itoa(os.Getpid()) {
		return nil, nil
	}
	n, _ := strconv.Atoi(os.Getenv("LISTEN_FDS"))
	// Not for the processes the hub may start.
	os.Unsetenv("LISTEN_PID")
	os.Unsetenv("LISTEN_FDS")
	os.Unsetenv("LISTEN_FDNAMES")
	if n < 1 {
		return nil, nil
	}
	const first = 3
	syscall.CloseOnExec(first)
	f := os.NewFile(first, "activated socket")
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("the socket systemd passed (LISTEN_FDS): %w", err)
	}
	return l, nil
}
