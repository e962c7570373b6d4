package hub

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// A path that a server behind IIS, or a proxy before it, might resolve to
// another (a backslash, ";", an encoded dot or slash, double encoding,
// overlong UTF-8), sent byte for byte as an attacker would, is refused by
// the hub and never reaches the service with the company's token. A read
// the desktop makes with the marker in its query does, so the watch on
// the service sees what it should.
func TestSecurityOddPathsNeverReachTheService(t *testing.T) {
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	const marker = "x7q" // in every path sent; searched for in what the service sees
	var mu sync.Mutex
	var reached []string
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(strings.ToLower(r.URL.RequestURI()), marker) {
			mu.Lock()
			reached = append(reached, r.Method+" "+r.URL.RequestURI())
			mu.Unlock()
		}
		return false
	})
	host := strings.TrimPrefix(a.srv.URL, "http://")
	send := func(method, path string) int {
		t.Helper()
		c, err := net.DialTimeout("tcp", host, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(30 * time.Second))
		body := `{"WorkOrderId":1}`
		fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			method, path, tok, len(body), body)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s %q: %v", method, path, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	send(http.MethodGet, "/api/attachments/downloadUrl?workOrderId=1&attachmentId="+marker)
	mu.Lock()
	if len(reached) != 1 {
		t.Fatalf("a download link's read reached the service %d times, want once: the watch sees nothing", len(reached))
	}
	reached = nil
	mu.Unlock()
	for _, p := range []string{
		"/api/..%5c_sandbox/" + marker,
		"/api/..%5C..%5C" + marker,
		`/api/..\` + marker,
		`/api\..\` + marker,
		"/API/..;/" + marker,
		"/api/" + marker + ";x=1",
		"/api/%252e%252e/" + marker,
		"/api/%25252e%25252e/" + marker,
		"/api/%2e%2e/" + marker,
		"/api/.%2e/" + marker,
		"/api/%c0%ae%c0%ae/" + marker,
		"/api/%e0%80%ae%e0%80%ae/" + marker,
		"/api/\xc0\xae\xc0\xae/" + marker,
		"/api%2f..%2f" + marker,
		"/api/workOrder%2f..%2f..%2f" + marker,
		"/api/" + marker + "/..%2f..%2f_sandbox",
		"/api//" + marker,
		"/api/" + marker + ".",
		"/api/" + strings.ToUpper(marker) + "~1",
		"/api/" + url.PathEscape("wor\u212aorder") + "/" + marker,
	} {
		for _, method := range []string{http.MethodGet, http.MethodPut} {
			if status := send(method, p); status != http.StatusNotFound && status != http.StatusBadRequest {
				t.Errorf("%s %q: HTTP %d, want it refused", method, p, status)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reached) > 0 {
		t.Fatalf("odd paths reached the service with the company's token: %q", reached)
	}
}
