package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
)

func TestErrorBody(t *testing.T) {
	long := strings.Repeat("é", 600) // 1,200 bytes
	for _, c := range []struct {
		name       string
		e          *api.Error
		wantStatus int
		wantMsg    string
	}{
		{"business", &api.Error{Code: api.CodeWrongStatus, Message: "Work order 7 is New."}, 400, "Work order 7 is New."},
		{"its own status", NotFound(), 404, "No HTTP resource was found that matches the request URI."},
		{"validation", Invalid("ids", "%q is not a work order id", "x"), 400, "The request is invalid."},
		{"a long message, cut at a character", &api.Error{StatusCode: 503, Message: long}, 503, long[:maxMessage]},
		{"a long message, cut inside a character", &api.Error{Message: "x" + long}, 400, "x" + long[:maxMessage-2]},
	} {
		status, b := ErrorBody(c.e, "m-1")
		var got api.Error
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %s: %v", c.name, b, err)
		}
		if status != c.wantStatus || got.Message != c.wantMsg || got.MessageId != "m-1" || got.Code != c.e.Code ||
			len(got.ValidationErrors) != len(c.e.ValidationErrors) || !utf8.ValidString(got.Message) {
			t.Errorf("%s: HTTP %d %s", c.name, status, b)
		}
	}
	if status, b := ErrorBody(TooLarge("the file", api.MaxAttachmentSize), "m"); status != 400 ||
		!strings.Contains(string(b), `"Type":"TooLarge"`) || !strings.Contains(string(b), "the file is larger than the 20 MB limit") {
		t.Errorf("too large: %d %s", status, b)
	}
}

// An answer always names a MessageId: the caller's, or one made up.
func TestWriteError(t *testing.T) {
	for _, id := range []string{"m-1", ""} {
		w := httptest.NewRecorder()
		WriteError(w, Invalid("WorkOrderId", "WorkOrderId is required"), id)
		var got api.Error
		json.Unmarshal(w.Body.Bytes(), &got)
		if w.Code != 400 || got.Code != api.CodeInvalidModel || got.MessageId == "" || (id != "" && got.MessageId != id) ||
			w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("messageId %q: HTTP %d %s", id, w.Code, w.Body)
		}
	}
	w := httptest.NewRecorder()
	Denied(w, "m-2")
	if w.Code != http.StatusUnauthorized || !strings.Contains(w.Header().Get("WWW-Authenticate"), "invalid_token") || !strings.Contains(w.Body.String(), `"MessageId":"m-2"`) {
		t.Errorf("denied: HTTP %d %s %v", w.Code, w.Body, w.Header())
	}
}

// wrapped is a server's own writer wrapper, as the hub's is.
type wrapped struct{ http.ResponseWriter }

func (w wrapped) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// A body over the limit is refused as too large, and the server is told to
// close the connection even through a wrapper of its writer.
func TestReadBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = wrapped{w}
		b, bad := ReadBody(w, r)
		if bad != nil {
			WriteError(w, bad, "")
			return
		}
		WriteJSON(w, 200, map[string]int{"Read": len(b)})
	}))
	defer srv.Close()
	for _, c := range []struct {
		size       int
		wantStatus int
		wantClose  bool
	}{{0, 200, false}, {MaxJSONBody, 200, false}, {MaxJSONBody + 1, 400, true}} {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(strings.Repeat(" ", c.size)))
		if err != nil {
			t.Fatal(err)
		}
		var got api.Error
		json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if resp.StatusCode != c.wantStatus || resp.Close != c.wantClose ||
			(c.wantStatus == 400 && (len(got.ValidationErrors) != 1 || got.ValidationErrors[0].Type != "TooLarge")) {
			t.Errorf("a body of %d bytes: HTTP %d (close %v) %+v", c.size, resp.StatusCode, resp.Close, got)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{{`{"WorkOrderId":7}`, true}, {"", false}, {"  \n", false}, {`{"WorkOrderId":`, false}, {`{"WorkOrderId":"x"}`, false}} {
		var v struct{ WorkOrderId int64 }
		if bad := DecodeJSON([]byte(c.body), &v); (bad == nil) != c.ok || (bad != nil && bad.Code != api.CodeInvalidModel) {
			t.Errorf("DecodeJSON(%q) = %+v, want ok %v", c.body, bad, c.ok)
		}
	}
}
