package api

import (
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

// TestRetryAfter: on 429 and 503 the error says how long the service asked
// to wait, in either form of the header; other answers, and headers that
// say nothing usable, leave it 0.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Now()
	for _, c := range []struct {
		name   string
		status int
		header string
		want   time.Duration
	}{
		{"429 in seconds", http.StatusTooManyRequests, "120", 2 * time.Minute},
		{"503 as a date", http.StatusServiceUnavailable, now.Add(10 * time.Minute).UTC().Format(http.TimeFormat), 10 * time.Minute},
		{"503 without the header", http.StatusServiceUnavailable, "", 0},
		{"a date in the past", http.StatusServiceUnavailable, now.Add(-time.Hour).UTC().Format(http.TimeFormat), 0},
		{"negative", http.StatusTooManyRequests, "-5", 0},
		{"unreadable", http.StatusTooManyRequests, "soon", 0},
		{"absurdly long", http.StatusTooManyRequests, "99999999999", maxRetryAfter},
		{"500 with the header", http.StatusInternalServerError, "120", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := newFakeService(t)
			fs.setAnswer(func(w http.ResponseWriter, _ *http.Request, _ []byte) {
				if c.header != "" {
					w.Header().Set("Retry-After", c.header)
				}
				w.WriteHeader(c.status)
				io.WriteString(w, `{"Message":"slow down"}`)
			})
			cl, _ := fs.client(t, nil)
			_, err := cl.GetWorkOrder(bg, 1)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if d := e.RetryAfter - c.want; d < -2*time.Second || d > 2*time.Second {
				t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, c.want)
			}
		})
	}
}
