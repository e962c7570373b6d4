package hub

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
)

// hangingUp is a desktop's connection that went away mid-answer.
type hangingUp struct{ *httptest.ResponseRecorder }

func (hangingUp) Write([]byte) (int, error) { return 0, syscall.EPIPE }

// A signed-in caller that hangs up while a replica read is answered
// writes no line in the hub's log (one a call would fill it); a read the
// database failed is logged, and a desktop that had nothing yet gets 503.
func TestAReadCutByTheDesktopIsNotLogged(t *testing.T) {
	logs := &logBuffer{}
	h := &Hub{log: logs.logger()}
	aborted := func(tw *trackedWriter, err error) (panicked bool) {
		defer func() {
			if r := recover(); r != nil {
				if r != http.ErrAbortHandler {
					panic(r)
				}
				panicked = true
			}
		}()
		h.readFailed(tw, err, "m")
		return false
	}
	tw := &trackedWriter{w: hangingUp{httptest.NewRecorder()}}
	_, err := tw.Write([]byte(`{"WorkOrders":[`))
	if !aborted(tw, err) {
		t.Error("an answer the desktop hung up on was not cut")
	}
	if strings.Contains(logs.String(), "reading the replica") {
		t.Errorf("a desktop hanging up was logged: %s", logs.String())
	}
	rec := httptest.NewRecorder()
	if aborted(&trackedWriter{w: rec}, errors.New("connection to the database lost")) || rec.Code != http.StatusServiceUnavailable {
		t.Errorf("a read the database failed before anything was sent: HTTP %d, want 503", rec.Code)
	}
	if !strings.Contains(logs.String(), "reading the replica") {
		t.Errorf("a read the database failed was not logged")
	}
}
