package api

import (
	"bytes"
	"compress/gzip"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The service's tokens are not JWTs: base64url(claims JSON) + "<---->" +
// base64url(RSA PKCS#1 v1.5 signature over the decoded claims bytes), SHA-1 on
// the real service (service-facts §2, §9.4). The same format is used for API
// access tokens and for the Authorization header of notifications.

// TokenSeparator splits a token into its data and signature parts.
const TokenSeparator = "<---->"

// Audience is the Aud claim every service token carries.
const Audience = "CorrigoProDirect"

// TokenLifetime is how long an access token lives (spec §5: expires_in 1200).
const TokenLifetime = 20 * time.Minute

const (
	claimName      = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"
	claimString    = "http://www.w3.org/2001/XMLSchema#string"
	localAuthority = "LOCAL AUTHORITY"
)

// Claims is the .NET-style claims identity inside a token.
type Claims struct {
	AuthenticationType string  `json:"AuthenticationType"`
	NameClaimType      string  `json:"NameClaimType"`
	RoleClaimType      string  `json:"RoleClaimType"`
	Claims             []Claim `json:"Claims"`
	Properties         struct {
		Dictionary map[string]string `json:"Dictionary"`
	} `json:"Properties"`
}

type Claim struct {
	Type           string `json:"Type"`
	Value          string `json:"Value"`
	ValueType      string `json:"ValueType"`
	Issuer         string `json:"Issuer"`
	OriginalIssuer string `json:"OriginalIssuer"`
}

// NewClaims builds the claims the service issues for subject (a client id),
// valid from issued for lifetime.
func NewClaims(subject string, issued time.Time, lifetime time.Duration) Claims {
	c := Claims{AuthenticationType: "Bearer", NameClaimType: claimName, RoleClaimType: claimName}
	add := func(typ, val string) {
		c.Claims = append(c.Claims, Claim{Type: typ, Value: val, ValueType: claimString, Issuer: localAuthority, OriginalIssuer: localAuthority})
	}
	add(claimName, subject)
	add("urn:oauth:scope", "")
	add("Aud", Audience)
	c.Properties.Dictionary = map[string]string{
		// http.TimeFormat writes "GMT" as the real service does (RFC1123 would say "UTC").
		".issued":  issued.UTC().Format(http.TimeFormat),
		".expires": issued.Add(lifetime).UTC().Format(http.TimeFormat),
	}
	return c
}

// Claim returns the value of the first claim of the given type.
func (c Claims) Claim(typ string) (string, bool) {
	for _, cl := range c.Claims {
		if cl.Type == typ {
			return cl.Value, true
		}
	}
	return "", false
}

// Expires is the .expires property (zero when absent or unreadable).
func (c Claims) Expires() time.Time {
	t, _ := time.Parse(time.RFC1123, c.Properties.Dictionary[".expires"])
	return t
}

// Issued is the .issued property (zero when absent or unreadable).
func (c Claims) Issued() time.Time {
	t, _ := time.Parse(time.RFC1123, c.Properties.Dictionary[".issued"])
	return t
}

// MaxClockSkew is how far in the future a token may say it was issued: two
// honest clocks disagree by seconds, so a token issued later than this is
// forged or minted for later use, and refused.
const MaxClockSkew = 5 * time.Minute

// SignHash selects the digest of the token signature. The real service uses SHA-1.
type SignHash int

const (
	SHA1 SignHash = iota
	SHA256
)

func (h SignHash) digest(data []byte) (crypto.Hash, []byte) {
	if h == SHA256 {
		d := sha256.Sum256(data)
		return crypto.SHA256, d[:]
	}
	d := sha1.Sum(data)
	return crypto.SHA1, d[:]
}

// MintToken signs claims in the service's token format.
func MintToken(key *rsa.PrivateKey, hash SignHash, claims Claims) (string, error) {
	data, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	h, sum := hash.digest(data)
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, h, sum)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(data) + TokenSeparator + base64.RawURLEncoding.EncodeToString(sig), nil
}

// Token verification failures, distinguishable with errors.Is.
var (
	ErrTokenMissing   = errors.New("no bearer token")
	ErrTokenMalformed = errors.New("token is not data<---->sign in base64url")
	ErrTokenSignature = errors.New("token signature does not verify")
	ErrTokenAudience  = errors.New("token audience is not " + Audience)
	ErrTokenExpired   = errors.New("token has expired")
	ErrTokenFuture    = fmt.Errorf("token was issued more than %v in the future", MaxClockSkew)
)

// VerifyToken checks a token's signature with pub, then its audience and
// expiry against now, and returns its claims.
func VerifyToken(pub *rsa.PublicKey, hash SignHash, token string, now time.Time) (Claims, error) {
	var c Claims
	token = strings.TrimSpace(token)
	if token == "" {
		return c, ErrTokenMissing
	}
	dataB64, signB64, ok := strings.Cut(token, TokenSeparator)
	if !ok {
		return c, ErrTokenMalformed
	}
	data, err1 := decodeB64URL(dataB64)
	sig, err2 := decodeB64URL(signB64)
	if err1 != nil || err2 != nil || len(data) == 0 || len(sig) == 0 {
		return c, ErrTokenMalformed
	}
	h, sum := hash.digest(data)
	if rsa.VerifyPKCS1v15(pub, h, sum, sig) != nil {
		return c, ErrTokenSignature
	}
	// The old format gzips the claims; the signature covers the bytes as decoded.
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return c, ErrTokenMalformed
		}
		if data, err = io.ReadAll(io.LimitReader(zr, 1<<20)); err != nil {
			return c, ErrTokenMalformed
		}
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%w: claims are not JSON", ErrTokenMalformed)
	}
	if aud, _ := c.Claim("Aud"); aud != Audience {
		return c, ErrTokenAudience
	}
	exp := c.Expires()
	if exp.IsZero() || !now.Before(exp) {
		return c, ErrTokenExpired
	}
	if iss := c.Issued(); !iss.IsZero() && iss.After(now.Add(MaxClockSkew)) {
		return c, ErrTokenFuture
	}
	return c, nil
}

// decodeB64URL accepts base64url with or without padding (and tolerates the
// standard alphabet, which some encoders emit).
func decodeB64URL(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}
