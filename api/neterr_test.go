package api

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
)

type fixedToken struct{}

func (fixedToken) Token(context.Context) (string, error) { return "test-token", nil }
func (fixedToken) Invalidate(string)                     {}

// TestNetworkFailuresInPlainWords: a real refused connection and a real
// reset, as this system's sockets report them (Windows with its own error
// numbers), read as sentences a person can act on.
func TestNetworkFailuresInPlainWords(t *testing.T) {
	t.Parallel()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedAt := closed.Addr().String()
	closed.Close() // nothing listens there now

	// A server that takes the request and drops the connection at once, reset.
	resetter, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer resetter.Close()
	go func() {
		for {
			conn, err := resetter.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4096)
			conn.Read(buf)
			conn.(*net.TCPConn).SetLinger(0) // close with RST, not FIN
			conn.Close()
		}
	}()

	for _, tc := range []struct {
		name, addr, want string
	}{
		{"refused", refusedAt, "nothing answers at " + refusedAt + ": the service is down, or the address or port is wrong"},
		{"reset", resetter.Addr().String(), "the connection to the service was cut before it answered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewClient("http://"+tc.addr+"/Direct", &http.Client{}, fixedToken{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetWorkOrder(context.Background(), 42)
			if got := Plain(err); !strings.HasPrefix(got, tc.want) {
				t.Errorf("said %q (%v); want %q", got, err, tc.want)
			}
		})
	}
}
