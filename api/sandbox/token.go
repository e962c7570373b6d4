package sandbox

import (
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TokenLifetime is the access token lifetime the service documents (spec §5).
const TokenLifetime = 20 * time.Minute

// handleToken is the OAuth 2.0 client-credentials token server (spec §5,
// service-facts §2). Error answers follow RFC 6749 §5.2.
func (s *Sandbox) handleToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the token endpoint takes POST")
		return
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
		return
	}
	switch g := r.PostForm.Get("grant_type"); g {
	case "client_credentials":
	case "":
		oauthError(w, http.StatusBadRequest, "invalid_request", "grant_type is required")
		return
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "only client_credentials is supported")
		return
	}
	id, secret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	if id == "" && secret == "" {
		// RFC 6749 also allows HTTP Basic; the service documents the form
		// fields, accepting both costs nothing.
		id, secret, _ = r.BasicAuth()
	}
	if id == "" || secret == "" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "client_id and client_secret are required")
		return
	}
	if subtle.ConstantTimeCompare([]byte(id), []byte(s.clientID)) != 1 ||
		subtle.ConstantTimeCompare([]byte(secret), []byte(s.clientSecret)) != 1 {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	tok, err := s.mintToken()
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", "could not sign the token")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": tok,
		"token_type":   "bearer",
		"expires_in":   int(TokenLifetime / time.Second),
		// Deprecated by the service and ignored by clients (spec §5.4); sent
		// so that clients are tested against its presence.
		"refresh_token": hex.EncodeToString(randomBytes(16)),
	})
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// mintToken issues a token in the service's format, valid from the sandbox's now.
func (s *Sandbox) mintToken() (string, error) {
	return api.MintToken(s.key, api.SHA1, api.NewClaims(s.clientID, s.clock.Now(), TokenLifetime))
}

// tokenCache remembers tokens already verified, so a burst of calls pays for
// one RSA verification and claims parse per token, not one per call.
type tokenCache struct {
	mu      sync.Mutex
	expires map[string]time.Time
}

// authorized checks the bearer token against the signing key, the audience,
// the client id and the sandbox clock.
func (s *Sandbox) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	tok = strings.TrimSpace(tok)
	now := s.clock.Now()
	s.tokens.mu.Lock()
	exp, seen := s.tokens.expires[tok]
	s.tokens.mu.Unlock()
	if seen {
		return now.Before(exp)
	}
	claims, err := api.VerifyToken(&s.key.PublicKey, api.SHA1, tok, now)
	if err != nil {
		return false
	}
	if name, _ := claims.Claim("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"); name != s.clientID {
		return false
	}
	s.tokens.mu.Lock()
	if s.tokens.expires == nil || len(s.tokens.expires) > 4096 {
		s.tokens.expires = map[string]time.Time{}
	}
	s.tokens.expires[tok] = claims.Expires()
	s.tokens.mu.Unlock()
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encoding the answer failed", http.StatusInternalServerError)
		return
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
}
