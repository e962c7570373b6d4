package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// logBuffer keeps what a hub logs, as JSON lines, for a test to read.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// security is the security log's lines about event.
func (l *logBuffer) security(t *testing.T, event string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(l.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a log line that is not JSON: %q", sc.Text())
		}
		if m["security"] == true && m["event"] == event {
			out = append(out, m)
		}
	}
	return out
}

// counted sums the count of the lines (a minute's sums come in several).
func counted(lines []map[string]any) int {
	n := 0
	for _, l := range lines {
		c, _ := l["count"].(float64)
		n += int(c)
	}
	return n
}

// dialerFrom dials from ip: a client at another address of the loopback.
func dialerFrom(ip string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
}

// httpFrom is an HTTP client whose connections come from ip.
func httpFrom(ip string) *http.Client {
	d := dialerFrom(ip)
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 16}}
}

// desktopFrom is a desktop's client of the hub at url whose connections
// come from ip.
func desktopFrom(t testing.TB, url, ip string, c Credentials) *api.Client {
	t.Helper()
	hc := httpFrom(ip)
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: url + "/oauth/token", ClientID: c.ClientId, ClientSecret: c.ClientSecret, HTTPClient: hc})
	client, err := api.NewClient(url+"/", hc, tokens)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// signInFrom posts a sign-in for id with secret from client; it returns
// the status.
func signInFrom(t *testing.T, client *http.Client, url, id, secret string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/oauth/token",
		strings.NewReader("grant_type=client_credentials&client_id="+id+"&client_secret="+secret))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
