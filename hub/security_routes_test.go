package hub

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/serve"
)

// reachedService records every call that reaches the service but sign-ins.
func (o *office) reachedService() func() []string {
	var mu sync.Mutex
	var got []string
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/oauth/token" {
			mu.Lock()
			got = append(got, r.Method+" "+r.URL.RequestURI())
			mu.Unlock()
		}
		return false
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// rawCall sends one request byte for byte, as an attacker would, and
// returns the answer's status and body.
func rawCall(t *testing.T, hubURL, method, path, tok, contentType, body string) (int, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(hubURL, "http://"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		method, path, tok, contentType, len(body), body)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s %q: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Only the calls a desktop makes leave the hub: the service's other
// routes (documented or not), a desktop route under another method, and
// made-up paths are answered 404 saying that this hub, by its version,
// does not forward them, and never reach the service with the company's
// token. Routes are matched regardless of case, as the service matches
// them: the desktop's own call in capitals is forwarded.
func TestSecurityOnlyTheDesktopsRoutesAreForwarded(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(func(opts *Options) { opts.Version = "9.9-test" })
	firstSyncDone(t, a) // the hub's own reads are not the desktop's
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	id := newWorkOrder(t, o)
	reached := o.reachedService()
	body := fmt.Sprintf(`{"WorkOrderId":%d}`, id)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/equipment"},
		{http.MethodGet, "/api/customers"},
		{http.MethodPut, "/api/checklist"},
		{http.MethodPut, "/api/workOrder/reopen"},
		{http.MethodPut, "/api/workOrder/additionalField"},
		{http.MethodGet, "/api/workOrder/IsmSettings?workOrderId=1"},
		{http.MethodGet, "/api/workOrder/AdditionalFieldHistory?workOrderId=1&additionalFieldId=2"},
		{http.MethodGet, "/api/checklist?workOrderId=1"},
		{http.MethodPost, "/api/procedure/step"},
		{http.MethodDelete, "/api/attachments?workOrderId=1&attachmentId=x"},
		{http.MethodGet, "/api/workOrder/accept"},
		{http.MethodPost, "/api/workOrder/accept"},
		{http.MethodPatch, "/api/invoice"},
		{http.MethodPut, "/api/messages"},
		{http.MethodGet, "/api/_sandbox/state"},
	} {
		status, answer := rawCall(t, a.srv.URL, c.method, c.path, tok, "application/json", body)
		if status != http.StatusNotFound || !strings.Contains(answer, "not forwarded by this hub (version 9.9-test)") {
			t.Errorf("%s %s: HTTP %d %s, want 404 saying this hub does not forward it", c.method, c.path, status, answer)
		}
	}
	if got := reached(); len(got) > 0 {
		t.Fatalf("calls the desktop never makes reached the service: %q", got)
	}
	status, answer := rawCall(t, a.srv.URL, http.MethodPut, "/API/WORKORDER/ACCEPT", tok, "application/json", body)
	if status != http.StatusOK {
		t.Fatalf("the desktop's accept in capitals: HTTP %d %s", status, answer)
	}
	var writes int
	for _, r := range reached() {
		if strings.HasPrefix(r, "PUT ") {
			writes++
		}
	}
	if writes != 1 {
		t.Fatalf("the accept reached the service %d times, want once", writes)
	}
}

// An upload over the service's 20 MB limit is refused with 413 at once
// (before its body has come, when it says its length; when it does not,
// as soon as it passes the limit): not a 503 the desktop would retry. A
// file announced too large never reaches the service, and none is stored.
func TestSecurityAnUploadOverTheLimitIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	reached := o.reachedService()

	// Announced: 30 MB, of which only the head is sent.
	c, err := net.Dial("tcp", strings.TrimPrefix(a.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/attachments HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\n\r\n--b\r\n", tok, 30<<20)
	start := time.Now()
	c.SetReadDeadline(start.Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if took := time.Since(start); resp.StatusCode != http.StatusRequestEntityTooLarge || took > 5*time.Second {
		t.Fatalf("a 30 MB upload announced: HTTP %d after %v, want 413 at once", resp.StatusCode, took)
	}
	for _, r := range reached() {
		if strings.HasPrefix(r, "POST ") {
			t.Fatalf("the announced 30 MB upload reached the service: %s", r)
		}
	}

	// Not announced (chunked): 21 MB of file.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		mw.WriteField("WorkOrderId", fmt.Sprint(id))
		mw.WriteField("Name", "huge.bin")
		mw.WriteField("MimeType", "application/octet-stream")
		part, _ := mw.CreateFormFile("File", "huge.bin")
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 21 {
			if _, err := part.Write(chunk); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/api/attachments", pr)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.ContentLength = -1
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got.Body.Close()
	if got.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 21 MB upload of unannounced length: HTTP %d, want 413", got.StatusCode)
	}
	if list, err := o.direct().ListAttachments(ctx, id); err != nil || len(list) != 0 {
		t.Fatalf("the service's attachments after the uploads over the limit: %+v, %v", list, err)
	}
}

// Paths that a server behind IIS, or a proxy before it, could resolve to
// another: every encoding of a dot, a slash or a backslash (single,
// double, triple, in either case, overlong UTF-8, fullwidth), ";" and "~"
// tricks, NUL and other controls, empty and dot segments, and the same
// under the desktop's own routes. None reaches the service, under any
// method; each is refused (404 or 400).
func TestSecurityPathTraversalVariantsNeverReachTheService(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	const marker = "zq9"
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
	var paths []string
	for _, dots := range []string{"..", "%2e%2e", "%2E%2E", ".%2e", "%2e.", "%252e%252e", "%25252e%25252e",
		"%c0%ae%c0%ae", "%C0%AE%C0%AE", "%e0%80%ae%e0%80%ae", "%f0%80%80%ae%f0%80%80%ae", "%uff0e%uff0e", "%ef%bc%8e%ef%bc%8e",
		"\xef\xbc\x8e\xef\xbc\x8e", "..%00", "..%20", ". .", "...", "..;", "..%3b"} {
		for _, slash := range []string{"/", "%2f", "%2F", "%252f", "%5c", "%5C", "%255c", `\`, "%c0%af", "%c1%9c", "%e0%80%af"} {
			paths = append(paths,
				"/api/"+dots+slash+marker,
				"/api/workOrder"+slash+dots+slash+"_sandbox"+slash+marker,
				"/api/attachments/downloadUrl"+slash+dots+slash+marker+"?workOrderId=1&attachmentId=1")
		}
	}
	paths = append(paths,
		"/api/workOrder/accept;"+marker, "/api/workOrder;x=1/accept?"+marker, "/api/messages%00"+marker,
		"/api/messages%09"+marker, "/api/messages/"+marker+"%0d%0aX-Injected:1", "/api//workOrder/"+marker,
		"/api/./messages/"+marker, "/api/messages/./"+marker, "/API/WORKO~1/"+marker, "/api/"+marker+"::$DATA",
		"/api/"+marker+"%3a%3a$DATA", "/api/%2e/"+marker, "/./api/"+marker, "/Direct/../api/"+marker, "/api/"+marker+"/.",
	)
	for _, p := range paths {
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete} {
			status, _ := rawCall(t, a.srv.URL, method, p, tok, "application/json", `{"WorkOrderId":1}`)
			if status != http.StatusNotFound && status != http.StatusBadRequest {
				t.Errorf("%s %q: HTTP %d, want it refused", method, p, status)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reached) > 0 {
		t.Fatalf("%d odd paths reached the service with the company's token, first %q", len(reached), reached[0])
	}
	t.Logf("%d paths under 4 methods refused; none reached the service", len(paths))
	if serve.Route("/api/workOrder/accept") == "" {
		t.Fatal("the desktop's own route is refused")
	}
}
