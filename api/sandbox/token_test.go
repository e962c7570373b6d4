package sandbox

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func TestTokenServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	form := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v.Encode()
	}
	good := form("client_id", e.info.ClientID, "client_secret", e.info.ClientSecret, "grant_type", "client_credentials")
	cases := []struct {
		name, method, ctype, body string
		status                    int
		errCode                   string
	}{
		{"wrong method", http.MethodGet, "", "", 400, "invalid_request"},
		{"json body", http.MethodPost, "application/json", `{"grant_type":"client_credentials"}`, 400, "invalid_request"},
		{"no grant", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "client_secret", e.info.ClientSecret), 400, "invalid_request"},
		{"password grant", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "client_secret", e.info.ClientSecret, "grant_type", "password"), 400, "unsupported_grant_type"},
		{"no client_id", http.MethodPost, "application/x-www-form-urlencoded", form("client_secret", e.info.ClientSecret, "grant_type", "client_credentials"), 400, "invalid_request"},
		{"no client_secret", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "grant_type", "client_credentials"), 400, "invalid_request"},
		{"no credentials", http.MethodPost, "application/x-www-form-urlencoded", form("grant_type", "client_credentials"), 400, "invalid_request"},
		{"empty client_secret", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "client_secret", "", "grant_type", "client_credentials"), 400, "invalid_request"},
		{"refresh_token grant", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "client_secret", e.info.ClientSecret, "grant_type", "refresh_token", "refresh_token", "abc"), 400, "unsupported_grant_type"},
		{"grant in wrong case", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "client_secret", e.info.ClientSecret, "grant_type", "Client_Credentials"), 400, "unsupported_grant_type"},
		{"wrong secret", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", e.info.ClientID, "client_secret", "nope", "grant_type", "client_credentials"), 401, "invalid_client"},
		{"unknown client", http.MethodPost, "application/x-www-form-urlencoded", form("client_id", "0000", "client_secret", e.info.ClientSecret, "grant_type", "client_credentials"), 401, "invalid_client"},
		{"ok", http.MethodPost, "application/x-www-form-urlencoded; charset=utf-8", good, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, e.info.TokenURL, strings.NewReader(c.body))
			if c.ctype != "" {
				req.Header.Set("Content-Type", c.ctype)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, b)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("content type %q", ct)
			}
			var out map[string]any
			if err := json.Unmarshal(b, &out); err != nil {
				t.Fatal(err)
			}
			if c.errCode != "" {
				if out["error"] != c.errCode {
					t.Fatalf("error %v, want %s", out["error"], c.errCode)
				}
				if d, _ := out["error_description"].(string); d == "" || out["access_token"] != nil {
					t.Fatalf("OAuth error body %s", b)
				}
				return
			}
			if out["token_type"] != "bearer" || out["expires_in"] != float64(1200) || out["refresh_token"] == "" {
				t.Fatalf("token answer %v", out)
			}
			tok, _ := out["access_token"].(string)
			claims, err := api.VerifyToken(&e.sb.Key().PublicKey, api.SHA1, tok, e.sb.Clock().Now())
			if err != nil {
				t.Fatalf("issued token does not verify: %v", err)
			}
			if got := claims.Expires().Sub(e.sb.Clock().Now()); got < 19*time.Minute || got > 20*time.Minute {
				t.Fatalf("token lifetime %v", got)
			}
		})
	}
}

func TestAPIRefusesBadTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other, _ := rsa.GenerateKey(rand.Reader, 1024)
	forged, _ := api.MintToken(other, api.SHA1, api.NewClaims(e.info.ClientID, fixedNow, 20*time.Minute))
	expired, _ := api.MintToken(e.sb.Key(), api.SHA1, api.NewClaims(e.info.ClientID, fixedNow.Add(-time.Hour), 20*time.Minute))
	for name, auth := range map[string]string{
		"missing": "", "garbage": "Bearer abc", "forged": "Bearer " + forged, "expired": "Bearer " + expired, "basic": "Basic Zm9vOmJhcg==",
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/messages?workOrderId=1&messageId=m-1", nil)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if eb := errBody(t, b); eb.Message == "" || eb.MessageId != "m-1" {
				t.Fatalf("error body %s", b)
			}
		})
	}
}

func TestTokenExpiresWithSandboxClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusAccepted, nil)
	tok := e.token()
	req := func() int {
		r, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/messages?workOrderId="+itoa(id), nil)
		r.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := req(); s != 200 {
		t.Fatalf("fresh token: %d", s)
	}
	e.sb.AdvanceClock(21 * time.Minute)
	if s := req(); s != http.StatusUnauthorized {
		t.Fatalf("token 21 minutes old: %d, want 401", s)
	}

	// A client whose own clock thinks the token is fresh is told 401,
	// fetches a new token once and succeeds.
	frozen := api.NewClientCredentials(api.CredentialsConfig{TokenURL: e.info.TokenURL, ClientID: e.info.ClientID, ClientSecret: e.info.ClientSecret,
		Now: func() time.Time { return fixedNow }})
	c, _ := api.NewClient(e.info.BaseURL, nil, frozen)
	if _, err := c.ListMessages(e.ctx, id); err != nil {
		t.Fatal(err)
	}
	e.sb.AdvanceClock(21 * time.Minute)
	if _, err := c.ListMessages(e.ctx, id); err != nil {
		t.Fatalf("after expiry the client should renew once: %v", err)
	}
	if frozen.Fetches() != 2 {
		t.Fatalf("token fetches %d, want 2", frozen.Fetches())
	}
}

func TestPathsCaseInsensitive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusAccepted, nil)
	for _, p := range []string{"/api/workOrder?ids=", "/API/WORKORDER/?ids=", "/Direct/api/workorder?ids=", "/api/workOrder?ids[0]="} {
		status, b := e.raw(http.MethodGet, p+itoa(id), nil)
		if status != 200 || !strings.Contains(string(b), `"WorkOrderId":`+itoa(id)) {
			t.Errorf("%s: %d %s", p, status, b)
		}
	}
	if status, b := e.raw(http.MethodGet, "/api/nothing", nil); status != 404 {
		t.Errorf("unknown path: %d %s", status, b)
	}
	// A path that names a route only once resolved is not resolved: the
	// service's host (IIS) is not known to resolve it the same way.
	for _, p := range []string{"/api/x/../workOrder?ids=", "/api/%2e%2e/api/workOrder?ids=", "/api%2fworkOrder?ids=",
		"/api//workOrder?ids=", "/api/workOrder;x?ids=", "/api/workOrder%2e?ids=", "/_sandbox/../api/workOrder?ids="} {
		if status, b := e.raw(http.MethodGet, p+itoa(id), nil); status != 404 || errBody(t, b).MessageId == "" {
			t.Errorf("%s: %d %s, want 404", p, status, b)
		}
	}
	if status, _ := e.raw(http.MethodPatch, "/api/invoice", nil); status != http.StatusMethodNotAllowed {
		t.Errorf("wrong method: %d", status)
	}
}
