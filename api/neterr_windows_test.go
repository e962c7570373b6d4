//go:build windows

package api

import (
	"net"
	"net/url"
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

// TestWindowsSocketErrorsInPlainWords: the error numbers Windows gives a
// refused or dropped connection read as the same sentences as elsewhere.
func TestWindowsSocketErrorsInPlainWords(t *testing.T) {
	t.Parallel()
	for errno, want := range map[windows.Errno]string{
		windows.WSAECONNREFUSED: "nothing answers at svc.example: the service is down, or the address or port is wrong",
		windows.WSAECONNRESET:   "the connection to the service was cut before it answered",
		windows.WSAECONNABORTED: "the connection to the service was cut before it answered",
	} {
		err := &url.Error{Op: "Post", URL: "https://svc.example/Direct/api/workOrder", Err: &net.OpError{Op: "dial", Net: "tcp",
			Err: os.NewSyscallError("connectex", errno)}}
		if got := Plain(plainNetError("the service", err)); got != want {
			t.Errorf("%v reads %q, want %q", errno, got, want)
		}
	}
}
