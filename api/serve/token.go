package serve

import (
	"mime"
	"net/http"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// maxTokenForm caps a token request's form: an id, a secret and a grant.
const maxTokenForm = 64 << 10

// TokenRequest reads a client-credentials token request (spec §5,
// service-facts §2): POST, an application/x-www-form-urlencoded body,
// grant_type=client_credentials, and the client's id and secret as the form
// fields the service documents or, when the form has neither, as HTTP Basic
// (RFC 6749 allows it; accepting both costs nothing). A request it cannot
// take is answered here, as RFC 6749 §5.2 says, and ok is false.
func TokenRequest(w http.ResponseWriter, r *http.Request) (clientID, secret string, ok bool) {
	if r.Method != http.MethodPost {
		OAuthError(w, http.StatusBadRequest, "invalid_request", "the token endpoint takes POST")
		return "", "", false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		OAuthError(w, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return "", "", false
	}
	r.Body = MaxBytes(w, r.Body, maxTokenForm)
	if err := r.ParseForm(); err != nil {
		OAuthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
		return "", "", false
	}
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
	case "":
		OAuthError(w, http.StatusBadRequest, "invalid_request", "grant_type is required")
		return "", "", false
	default:
		OAuthError(w, http.StatusBadRequest, "unsupported_grant_type", "only client_credentials is supported")
		return "", "", false
	}
	clientID, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	if clientID == "" && secret == "" {
		clientID, secret, _ = r.BasicAuth()
	}
	if clientID == "" || secret == "" {
		OAuthError(w, http.StatusBadRequest, "invalid_request", "client_id and client_secret are required")
		return "", "", false
	}
	return clientID, secret, true
}

// WriteToken answers a token request with token, valid api.TokenLifetime;
// refresh, when not "", is sent as the refresh_token the service still
// sends (deprecated, ignored by clients: spec §5.4).
func WriteToken(w http.ResponseWriter, token, refresh string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	out := map[string]any{"access_token": token, "token_type": "bearer", "expires_in": int(api.TokenLifetime.Seconds())}
	if refresh != "" {
		out["refresh_token"] = refresh
	}
	WriteJSON(w, http.StatusOK, out)
}

// OAuthError answers a token request with an RFC 6749 §5.2 error.
func OAuthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	WriteJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// Bearer is the request's bearer token; the scheme is matched
// case-insensitively (live clients send "bearer": service-facts §2).
func Bearer(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(tok), true
}
