package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Connection is what a person configures to reach a live service.
type Connection struct {
	BaseURL      string
	TokenURL     string
	ClientID     string
	ClientSecret string
	CertPath     string // the integrator certificate for notifications; optional for API calls
}

// Missing names the required fields left empty, in the order a form shows them.
func (c Connection) Missing() []string {
	var m []string
	for _, f := range []struct{ name, v string }{
		{"base URL (WORKDESK_BASE_URL)", c.BaseURL}, {"token URL (WORKDESK_TOKEN_URL)", c.TokenURL},
		{"client id (WORKDESK_CLIENT_ID)", c.ClientID}, {"client secret (WORKDESK_CLIENT_SECRET)", c.ClientSecret},
	} {
		if f.v == "" {
			m = append(m, f.name)
		}
	}
	return m
}

// Check is one step of Diagnose, in plain words.
type Check struct {
	Name string
	OK   bool
	// Warning marks a step that passed but left something a person should
	// know (no certificate: notifications will not arrive).
	Warning bool
	Detail  string
}

// Diagnose checks a connection end to end, reporting each step as it ends:
// token server reachable, credentials accepted, work orders readable, and the
// certificate parses. It never reports the token or the secret. It returns
// true only when every step passed.
func Diagnose(ctx context.Context, conn Connection, hc *http.Client, report func(Check)) bool {
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	ok := true
	step := func(c Check) {
		ok = ok && c.OK
		report(c)
	}
	if missing := conn.Missing(); len(missing) > 0 {
		step(Check{Name: "Configuration complete", Detail: "missing " + strings.Join(missing, ", ")})
		return false
	}
	step(Check{Name: "Configuration complete", OK: true, Detail: "base " + conn.BaseURL})

	tokens := NewClientCredentials(CredentialsConfig{TokenURL: conn.TokenURL, ClientID: conn.ClientID, ClientSecret: conn.ClientSecret, HTTPClient: hc})
	_, err := tokens.Token(ctx)
	switch {
	case err == nil:
		step(Check{Name: "Token server reachable", OK: true, Detail: conn.TokenURL})
		step(Check{Name: "Credentials accepted", OK: true,
			Detail: fmt.Sprintf("token issued, expires_in %d s", int(time.Until(tokens.ValidUntil()).Round(time.Second).Seconds()))})
	case errors.Is(err, ErrCredentialsRejected):
		step(Check{Name: "Token server reachable", OK: true, Detail: conn.TokenURL})
		step(Check{Name: "Credentials accepted", Detail: err.Error()})
	default:
		step(Check{Name: "Token server reachable", Detail: err.Error()})
		step(Check{Name: "Credentials accepted", Detail: "not tried: no token server"})
	}
	if err == nil {
		step(checkRead(ctx, conn, hc, tokens))
	} else {
		step(Check{Name: "Work orders readable", Detail: "not tried: no access token"})
	}
	if conn.CertPath == "" {
		step(Check{Name: "Certificate", OK: true, Warning: true,
			Detail: "none configured: notifications will not be received, so changes arrive only with each sync"})
	} else if _, err := LoadVerifier(conn.CertPath); err != nil {
		step(Check{Name: "Certificate", Detail: err.Error()})
	} else {
		step(Check{Name: "Certificate", OK: true, Detail: conn.CertPath})
	}
	return ok
}

func checkRead(ctx context.Context, conn Connection, hc *http.Client, tokens TokenSource) Check {
	c, err := NewClient(conn.BaseURL, hc, tokens)
	if err != nil {
		return Check{Name: "Work orders readable", Detail: err.Error()}
	}
	since := time.Now().Add(-30 * 24 * time.Hour)
	found, err := c.SearchWorkOrders(ctx, SearchParameters{LastUpdate: &DateRange{From: &since}})
	if err != nil {
		return Check{Name: "Work orders readable", Detail: err.Error()}
	}
	if len(found) == 0 {
		return Check{Name: "Work orders readable", OK: true, Detail: "search works; no work order changed in the last 30 days"}
	}
	full, err := c.GetWorkOrders(ctx, []int64{found[0].WorkOrderId})
	if err != nil {
		return Check{Name: "Work orders readable", Detail: fmt.Sprintf("search found %d, but reading one failed: %v", len(found), err)}
	}
	number := found[0].WorkOrderNumber
	if len(full) > 0 {
		number = full[0].WorkOrderNumber
	}
	return Check{Name: "Work orders readable", OK: true, Detail: fmt.Sprintf("search found %d changed in 30 days; read %s in full", len(found), number)}
}
