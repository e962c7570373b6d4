package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// TestReconnectReadsTheReplacedCertificate: the customer regenerated the
// integration's certificate and the person saved the new file over the old
// one. Saving the settings reconnects (TestSavingLiveSettingsReconnects in
// ui/settings); the reconnected receiver must verify with the new certificate, read
// from the file again, not the one read at start.
func TestReconnectReadsTheReplacedCertificate(t *testing.T) {
	ctx := context.Background()
	service := sandboxtest.New(t, sandboxtest.Seed(5), sandboxtest.RealClock())
	info := service.Info
	// The certificate before the change: another key's.
	old := sandboxtest.New(t, sandboxtest.With(func(o *sandbox.Options) { o.Key = nil }))
	certPath := filepath.Join(t.TempDir(), "integration-cert.pem")
	if err := os.WriteFile(certPath, old.Info.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	conn := api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID,
		ClientSecret: info.ClientSecret, CertPath: certPath}
	dataDir := t.TempDir()
	token, err := api.MintToken(service.Key(), api.SHA1, api.NewClaims("notifier", time.Now(), 20*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	deliver := func(b *backend) int {
		t.Helper()
		addr := strings.TrimPrefix(b.ReceiverStatus(), "on ")
		body, _ := api.MarshalEvent(api.EventHeader{WorkOrderId: 1, Action: api.ActionNteChanged, ActionDate: time.Now().UTC(), MessageId: uuid.NewString()},
			api.NteChangedEvent{Amount: api.MustMoney("900", "USD")})
		code, err := postEvent("http://"+addr+"/notify", token, api.ActionNteChanged, body)
		if err != nil {
			t.Fatal(err)
		}
		return code
	}

	b, err := startLive(ctx, dataDir, conn, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	if code := deliver(b); code != http.StatusUnauthorized {
		t.Fatalf("signed with the new key, verified with the old certificate: HTTP %d, want 401", code)
	}
	b.Close()

	if err := os.WriteFile(certPath, info.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	b, err = startLive(ctx, dataDir, conn, "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if code := deliver(b); code != http.StatusOK {
		t.Fatalf("after the certificate file was replaced and the connection reopened: HTTP %d, want 200", code)
	}
}

// postEvent posts body as a notification of type action with token, as the
// service does.
func postEvent(url, token, action string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Event-Type", action)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
