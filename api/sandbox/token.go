package sandbox

import (
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// handleToken is the OAuth 2.0 client-credentials token server (spec §5,
// service-facts §2). Error answers follow RFC 6749 §5.2.
func (s *Sandbox) handleToken(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := serve.TokenRequest(w, r)
	if !ok {
		return
	}
	if subtle.ConstantTimeCompare([]byte(id), []byte(s.clientID)) != 1 ||
		subtle.ConstantTimeCompare([]byte(secret), []byte(s.clientSecret)) != 1 {
		serve.OAuthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	tok, err := s.mintToken()
	if err != nil {
		serve.OAuthError(w, http.StatusInternalServerError, "server_error", "could not sign the token")
		return
	}
	// The refresh token is deprecated by the service and ignored by clients
	// (spec §5.4); it is sent so that clients are tested against its presence.
	serve.WriteToken(w, tok, hex.EncodeToString(randomBytes(16)))
}

// mintToken issues a token in the service's format, valid from the sandbox's now.
func (s *Sandbox) mintToken() (string, error) {
	return api.MintToken(s.key, api.SHA1, api.NewClaims(s.clientID, s.clock.Now(), api.TokenLifetime))
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
	tok, ok := serve.Bearer(r)
	if !ok {
		return false
	}
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
