package storage

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// A desktop signs in to its office hub with the person's secret and sends
// a bearer token with every call: over http:// across the office's network
// anyone on it reads them. So an http:// hub is refused unless it is on
// this computer (loopback), or the person said to allow an unencrypted
// connection (File › Connect to office hub…), and the status bar says so.

// ErrUnencryptedHub: an http:// hub address not on this computer, with no
// permission to use it unencrypted.
var ErrUnencryptedHub = errors.New("the hub's address is http://, which sends your secret and everything you do unencrypted across the network: " +
	"use the hub's https:// address, or tick \"Allow an unencrypted connection\" in Connect to office hub… if the office has no other")

// CheckHubURL says in plain words what is wrong with a hub address;
// allowUnencrypted permits an http:// one that is not on this computer.
func CheckHubURL(raw string, allowUnencrypted bool) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the hub's address must start with https:// (or http://) and name a host, e.g. https://hub.office.example")
	}
	if HubUnencrypted(raw) && !allowUnencrypted {
		return ErrUnencryptedHub
	}
	return nil
}

// HubUnencrypted reports whether the hub at raw is reached unencrypted
// across a network: http:// to another computer than this one.
func HubUnencrypted(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme != "http" {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// HubHTTPClient is the client a desktop reaches its hub with: it trusts
// the system's certificate authorities and, when caFile names one, the
// office's own (a PEM file of one or more CA certificates), for a hub whose
// certificate no public authority signed.
func HubHTTPClient(caFile string) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("reading the hub's certificate authority: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s holds no PEM certificate: the hub's certificate authority is a file that begins -----BEGIN CERTIFICATE-----", caFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Timeout: 60 * time.Second, Transport: tr}, nil
}
