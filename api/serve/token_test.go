package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const formType = "application/x-www-form-urlencoded"

// tokenCases: token requests as a client may send them, and what the
// endpoint makes of them: the client's id and secret, or the RFC 6749 error.
var tokenCases = []struct {
	name, method, ctype, body string
	basicID, basicSecret      string
	wantID, wantSecret        string // for a request taken
	wantError                 string // for one refused (400)
}{
	{name: "form", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=ana&client_secret=s3cret",
		wantID: "ana", wantSecret: "s3cret"},
	{name: "form with charset", method: "POST", ctype: formType + "; charset=utf-8", body: "client_id=ana&client_secret=s%2B3&grant_type=client_credentials",
		wantID: "ana", wantSecret: "s+3"},
	{name: "basic", method: "POST", ctype: formType, body: "grant_type=client_credentials", basicID: "ana", basicSecret: "s3cret",
		wantID: "ana", wantSecret: "s3cret"},
	{name: "form over basic", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=ana&client_secret=s3cret", basicID: "ben", basicSecret: "other",
		wantID: "ana", wantSecret: "s3cret"},
	{name: "GET", method: "GET", ctype: formType, body: "", wantError: "invalid_request"},
	{name: "JSON", method: "POST", ctype: "application/json", body: `{"grant_type":"client_credentials"}`, wantError: "invalid_request"},
	{name: "no content type", method: "POST", body: "grant_type=client_credentials&client_id=ana&client_secret=s3cret", wantError: "invalid_request"},
	{name: "multipart", method: "POST", ctype: "multipart/form-data; boundary=x", body: "--x--", wantError: "invalid_request"},
	{name: "no grant", method: "POST", ctype: formType, body: "client_id=ana&client_secret=s3cret", wantError: "invalid_request"},
	{name: "password grant", method: "POST", ctype: formType, body: "grant_type=password&client_id=ana&client_secret=s3cret", wantError: "unsupported_grant_type"},
	{name: "grant in another case", method: "POST", ctype: formType, body: "grant_type=Client_Credentials&client_id=ana&client_secret=s3cret", wantError: "unsupported_grant_type"},
	{name: "no secret", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=ana", wantError: "invalid_request"},
	{name: "empty secret", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=ana&client_secret=", wantError: "invalid_request"},
	{name: "no id", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_secret=s3cret", wantError: "invalid_request"},
	{name: "id in the form, secret in basic", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=ana", basicID: "ana", basicSecret: "s3cret", wantError: "invalid_request"},
	{name: "basic without a secret", method: "POST", ctype: formType, body: "grant_type=client_credentials", basicID: "ana", wantError: "invalid_request"},
	{name: "no credentials", method: "POST", ctype: formType, body: "grant_type=client_credentials", wantError: "invalid_request"},
	{name: "a form too large", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=ana&client_secret=" + strings.Repeat("x", maxTokenForm), wantError: "invalid_request"},
	{name: "a broken form", method: "POST", ctype: formType, body: "grant_type=client_credentials&client_id=%zz", wantError: "invalid_request"},
}

func tokenRequest(method, ctype, body, basicID, basicSecret string) (*httptest.ResponseRecorder, string, string, bool) {
	r := httptest.NewRequest(method, "/oauth/token", strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	if basicID != "" || basicSecret != "" {
		r.SetBasicAuth(basicID, basicSecret)
	}
	w := httptest.NewRecorder()
	id, secret, ok := TokenRequest(w, r)
	return w, id, secret, ok
}

func TestTokenRequest(t *testing.T) {
	for _, c := range tokenCases {
		w, id, secret, ok := tokenRequest(c.method, c.ctype, c.body, c.basicID, c.basicSecret)
		if c.wantError == "" {
			if !ok || id != c.wantID || secret != c.wantSecret || w.Body.Len() > 0 {
				t.Errorf("%s: %q %q %v, answered %q; want %q %q taken", c.name, id, secret, ok, w.Body, c.wantID, c.wantSecret)
			}
			continue
		}
		var e struct{ Error, Error_description string }
		json.Unmarshal(w.Body.Bytes(), &e)
		if ok || w.Code != http.StatusBadRequest || e.Error != c.wantError || e.Error_description == "" || w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("%s: taken %v, HTTP %d %s; want 400 %s", c.name, ok, w.Code, w.Body, c.wantError)
		}
	}
}

// FuzzTokenRequest: whatever a client sends the token endpoint, it is taken
// only as a POST of client_credentials naming an id and a secret, and
// nothing is answered then; anything else is answered 400 in RFC 6749's
// shape. Seeds: TestTokenRequest's cases.
func FuzzTokenRequest(f *testing.F) {
	for _, c := range tokenCases {
		f.Add(c.method == "POST", c.ctype, c.body, c.basicID, c.basicSecret)
	}
	f.Fuzz(func(t *testing.T, post bool, ctype, body, basicID, basicSecret string) {
		method := "GET"
		if post {
			method = "POST"
		}
		if strings.ContainsAny(ctype, "\r\n\x00") {
			return // not a header a request can carry
		}
		w, id, secret, ok := tokenRequest(method, ctype, body, basicID, basicSecret)
		if ok {
			if !post || id == "" || secret == "" || w.Body.Len() > 0 || !strings.Contains(body, "grant_type=client_credentials") {
				t.Fatalf("taken: %s %q %q body %q; id %q, answered %q", method, ctype, body, body, id, w.Body)
			}
			return
		}
		var e struct{ Error string }
		if w.Code != http.StatusBadRequest || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "" {
			t.Fatalf("refused as HTTP %d %q", w.Code, w.Body)
		}
	})
}

func TestWriteToken(t *testing.T) {
	for _, refresh := range []string{"", "r1"} {
		w := httptest.NewRecorder()
		WriteToken(w, "tok", refresh)
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		if w.Code != 200 || out["access_token"] != "tok" || out["token_type"] != "bearer" || out["expires_in"] != float64(1200) ||
			w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Pragma") != "no-cache" {
			t.Errorf("token answer %d %s %v", w.Code, w.Body, w.Header())
		}
		if _, has := out["refresh_token"]; has != (refresh != "") {
			t.Errorf("refresh %q: answer %s", refresh, w.Body)
		}
	}
}

func TestBearer(t *testing.T) {
	for _, c := range []struct {
		header, want string
		ok           bool
	}{
		{"Bearer abc<---->def", "abc<---->def", true},
		{"bearer abc", "abc", true},
		{"BEARER  abc ", "abc", true},
		{"Basic YWJjOmRlZg==", "", false},
		{"Bearer", "", false},
		{"Bearerabc", "", false},
		{"", "", false},
	} {
		r := httptest.NewRequest("GET", "/api/workOrder", nil)
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		if got, ok := Bearer(r); got != c.want || ok != c.ok {
			t.Errorf("Bearer(%q) = %q %v, want %q %v", c.header, got, ok, c.want, c.ok)
		}
	}
}
