package storage

import (
	"context"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// An http:// hub across the network would carry the person's secret and
// tokens in the clear: refused unless the person allowed it; on this
// computer (loopback) it is only a hub beside the window, and https://
// anywhere is what an office should run.
func TestHubAddressesRefusedUnencryptedUnlessAllowed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url                 string
		refused, allowedToo bool // refused without the opt-in; and with it
		unencrypted         bool
	}{
		{url: "https://hub.office.example"},
		{url: "https://10.0.0.5:8443/"},
		{url: "http://127.0.0.1:8095"},
		{url: "http://[::1]:8095"},
		{url: "http://localhost:8095"},
		{url: "http://10.0.0.5:8095", refused: true, unencrypted: true},
		{url: "http://hub.office.example", refused: true, unencrypted: true},
		{url: "http://127.0.0.1.example.com", refused: true, unencrypted: true},
		{url: "hub.office.example", refused: true, allowedToo: true},
		{url: "ftp://hub.office.example", refused: true, allowedToo: true},
		{url: "https://", refused: true, allowedToo: true},
	} {
		err := CheckHubURL(c.url, false)
		if (err != nil) != c.refused {
			t.Errorf("CheckHubURL(%q) without the opt-in = %v, want refused %v", c.url, err, c.refused)
		}
		if c.unencrypted && !errors.Is(err, ErrUnencryptedHub) {
			t.Errorf("CheckHubURL(%q) = %v, want it to say the connection is unencrypted", c.url, err)
		}
		if err := CheckHubURL(c.url, true); (err != nil) != c.allowedToo {
			t.Errorf("CheckHubURL(%q) with the opt-in = %v, want refused %v", c.url, err, c.allowedToo)
		}
		if got := HubUnencrypted(c.url); got != c.unencrypted {
			t.Errorf("HubUnencrypted(%q) = %v, want %v", c.url, got, c.unencrypted)
		}
	}
}

// The engine itself refuses an office hub at an http:// address across the
// network without the opt-in: --hub on the command line gets no further
// than the dialog does.
func TestEngineRefusesAnUnencryptedHubWithoutTheOptIn(t *testing.T) {
	t.Parallel()
	hub := "http://192.0.2.10:8095"
	conn := api.Connection{BaseURL: hub + "/", TokenURL: hub + "/oauth/token", ClientID: "hub-ana", ClientSecret: "s"}
	path := filepath.Join(t.TempDir(), "office.db")
	if e, err := OpenEngine(context.Background(), path, EngineOptions{Hub: true, Connection: conn}); !errors.Is(err, ErrUnencryptedHub) {
		if e != nil {
			e.Close()
		}
		t.Fatalf("OpenEngine on %s without the opt-in: %v, want ErrUnencryptedHub", hub, err)
	}
	e, err := OpenEngine(context.Background(), path, EngineOptions{Hub: true, Connection: conn, AllowUnencrypted: true})
	if err != nil {
		t.Fatalf("OpenEngine on %s with the opt-in: %v", hub, err)
	}
	e.Close()
}

// HubHTTPClient trusts a hub whose certificate the office's own CA signed
// when given that CA's file, and not without it; a file that holds no
// certificate is refused in plain words.
func TestHubHTTPClientTrustsTheGivenCA(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hub")) }))
	defer srv.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "office-ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	plain, err := HubHTTPClient("")
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := plain.Get(srv.URL); err == nil {
		resp.Body.Close()
		t.Fatal("a client without the office's CA trusted the hub's certificate")
	}
	withCA, err := HubHTTPClient(ca)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := withCA.Get(srv.URL)
	if err != nil {
		t.Fatalf("with the office's CA: %v", err)
	}
	resp.Body.Close()

	notPEM := filepath.Join(dir, "not-a-ca.txt")
	os.WriteFile(notPEM, []byte("hello"), 0o644)
	for _, bad := range []string{notPEM, filepath.Join(dir, "missing.pem")} {
		if _, err := HubHTTPClient(bad); err == nil || !strings.Contains(err.Error(), "certificate authority") && !strings.Contains(err.Error(), "no PEM certificate") {
			t.Errorf("HubHTTPClient(%s) = %v, want a plain refusal", filepath.Base(bad), err)
		}
	}
}
