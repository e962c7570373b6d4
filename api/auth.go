package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// ClientCredentials is the service's OAuth 2.0 client-credentials token
// source (spec §5): client_id and client_secret in the form body, the token
// cached for its lifetime and renewed when Early (one minute) is left. One
// token request is in flight at a time however many calls wait: the mutex is
// held across the fetch, so waiters find the fresh token when they get it.
// The deprecated refresh_token is ignored.
type ClientCredentials struct {
	cfg    clientcredentials.Config
	secret func() (string, error)
	hc     *http.Client
	now    func() time.Time
	early  time.Duration

	mu      sync.Mutex
	token   string
	expires time.Time
	fetches int
}

// CredentialsConfig configures NewClientCredentials.
type CredentialsConfig struct {
	TokenURL     string
	ClientID     string
	ClientSecret string
	// Secret, when set, gives the client secret before each token request
	// instead of ClientSecret: a secret the customer regenerates reaches
	// the next request (one an hour, and one after a 401) without a restart.
	Secret     func() (string, error)
	HTTPClient *http.Client     // for token requests; nil = a client with a 30 s timeout
	Now        func() time.Time // nil = time.Now; tests move it
	Early      time.Duration    // renew this long before expiry; 0 = one minute
}

func NewClientCredentials(c CredentialsConfig) *ClientCredentials {
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Early == 0 {
		c.Early = time.Minute
	}
	return &ClientCredentials{
		cfg: clientcredentials.Config{
			ClientID: c.ClientID, ClientSecret: c.ClientSecret, TokenURL: c.TokenURL,
			AuthStyle: oauth2.AuthStyleInParams,
		},
		secret: c.Secret, hc: c.HTTPClient, now: c.Now, early: c.Early,
	}
}

// Token returns the cached token while more than Early of its life is left.
func (s *ClientCredentials) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token != "" && s.now().Add(s.early).Before(s.expires) {
		return s.token, nil
	}
	if s.secret != nil {
		secret, err := s.secret()
		if err != nil {
			return "", fmt.Errorf("reading the client secret: %w", err)
		}
		s.cfg.ClientSecret = secret
	}
	tok, err := s.cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, s.hc))
	s.fetches++
	if err != nil {
		return "", describeTokenError(err)
	}
	lifetime := expiresIn(tok)
	if lifetime <= 0 && !tok.Expiry.IsZero() {
		lifetime = time.Until(tok.Expiry)
	}
	if lifetime <= 0 {
		lifetime = TokenLifetime
	}
	s.token, s.expires = tok.AccessToken, s.now().Add(lifetime)
	return s.token, nil
}

// expiresIn reads the answer's expires_in. clientcredentials leaves
// Token.ExpiresIn empty and turns the value into an Expiry on the real clock,
// which would not follow an injected Now.
func expiresIn(tok *oauth2.Token) time.Duration {
	if tok.ExpiresIn > 0 {
		return time.Duration(tok.ExpiresIn) * time.Second
	}
	var secs float64
	switch v := tok.Extra("expires_in").(type) {
	case float64:
		secs = v
	case string:
		secs, _ = strconv.ParseFloat(v, 64)
	}
	return time.Duration(secs * float64(time.Second))
}

// Invalidate drops the cached token if it is still the one the service
// refused, so a burst of 401s causes one new fetch, not one each.
func (s *ClientCredentials) Invalidate(rejected string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token == rejected {
		s.token, s.expires = "", time.Time{}
	}
}

// ValidUntil is when the cached token expires (zero when none is cached).
func (s *ClientCredentials) ValidUntil() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token == "" {
		return time.Time{}
	}
	return s.expires
}

// Fetches counts token requests made so far (status bar, benchmarks).
func (s *ClientCredentials) Fetches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetches
}

// ErrCredentialsRejected means the token server refused the client id or secret.
var ErrCredentialsRejected = errors.New("the token server rejected the client id or secret")

func describeTokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		switch re.Response.StatusCode {
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden:
			if re.ErrorCode != "" {
				return fmt.Errorf("%w (%s)", ErrCredentialsRejected, re.ErrorCode)
			}
			return ErrCredentialsRejected
		}
		return &netProblem{plain: fmt.Sprintf("the token server is having trouble (it answered HTTP %d)", re.Response.StatusCode), err: err}
	}
	return fmt.Errorf("token server unreachable: %w", plainNetError("the token server", err))
}
