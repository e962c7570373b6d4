package hub

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// testCA is an office's own certificate authority, as an admin makes one
// for a hub no public authority vouches for.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// file holds its certificate, the file a desktop is given (--hub-ca).
	file string
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Office test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	file := filepath.Join(t.TempDir(), "office-ca.pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, file: file}
}

// issue writes a certificate for the hub on loopback, with serial, and its
// key, into dir as hub.crt and hub.key, each replaced whole (written aside,
// then renamed), as a renewal does.
func (ca *testCA) issue(t *testing.T, dir string, serial int64) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "hub.office.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	replace := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p+".new", body, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".new", p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyFile = replace("hub.key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	certFile = replace("hub.crt", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	return certFile, keyFile
}

// servedSerial is the serial number of the certificate the server at url
// presents now, trusting ca.
func servedSerial(t *testing.T, ca *testCA, url string) int64 {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	conn, err := tls.Dial("tcp", strings.TrimPrefix(url, "https://"), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatalf("TLS handshake with the hub: %v", err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

// A desktop (its real engine: sync, outbox, event stream) works against a
// hub serving HTTPS (workdesk-hub --tls-cert --tls-key) with a certificate
// of the office's own CA, given to the desktop as its CA file; a desktop
// without that file refuses the hub's certificate.
func TestDesktopWorksAgainstAnHTTPSHubWithTheOfficesCA(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	ca := newTestCA(t)
	cert, key := ca.issue(t, t.TempDir(), 2)
	hc, err := storage.HubHTTPClient(ca.file)
	if err != nil {
		t.Fatal(err)
	}
	id := newWorkOrder(t, o) // in the hub's first sync
	hub := o.startHub(t, childConfig{Args: []string{"--tls-cert", cert, "--tls-key", key}, HTTP: hc}, 60*time.Second)
	if !strings.HasPrefix(hub.url, "https://") {
		t.Fatalf("workdesk-hub --tls-cert says desktops connect to %s, want https://", hub.url)
	}
	ctx := context.Background()
	creds, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	conn := api.Connection{BaseURL: hub.url + "/", TokenURL: hub.url + "/oauth/token", ClientID: creds.ClientId, ClientSecret: creds.ClientSecret}
	open := func(hc *storage.EngineOptions) *storage.Engine {
		eng, err := storage.OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), *hc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(eng.Close)
		return eng
	}
	without, err := storage.HubHTTPClient("")
	if err != nil {
		t.Fatal(err)
	}
	stranger := open(&storage.EngineOptions{Hub: true, Connection: conn, HTTPClient: without, ManualSend: true, Sync: storage.SyncOptions{Logger: quietLogger()}})
	if err := stranger.SyncNow(ctx, nil); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a desktop without the office's CA synced from the hub: %v", err)
	}

	desk := open(&storage.EngineOptions{Hub: true, Connection: conn, HTTPClient: hc, ManualSend: true, Sync: storage.SyncOptions{Logger: quietLogger()}})
	if err := desk.SyncNow(ctx, nil); err != nil {
		t.Fatalf("syncing from the HTTPS hub: %v", err)
	}
	accept, err := desk.Store.Accept(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := desk.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if row, _ := desk.Store.OutboxRow(ctx, accept.Id); row.State != storage.OutboxDone {
		t.Fatalf("the accept sent through the HTTPS hub: %+v", row)
	}
	deadline := time.Now().Add(15 * time.Second)
	for desk.StreamStatus() != storage.StreamConnected {
		if time.Now().After(deadline) {
			t.Fatalf("the desktop's event stream over HTTPS is %q after 15 s", desk.StreamStatus())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The certificate is renewed on disk (certbot, the office's CA): the hub
// serves the new one from the next connection, without a restart, and no
// handshake fails meanwhile (the key is replaced before its certificate:
// a pair that does not load yet leaves the old one served).
func TestRenewedCertificateIsServedWithoutARestart(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	ca := newTestCA(t)
	dir := t.TempDir()
	cert, key := ca.issue(t, dir, 2)
	hc, err := storage.HubHTTPClient(ca.file)
	if err != nil {
		t.Fatal(err)
	}
	hub := o.startHub(t, childConfig{Args: []string{"--tls-cert", cert, "--tls-key", key}, HTTP: hc, Follower: true}, 60*time.Second)
	if got := servedSerial(t, ca, hub.url); got != 2 {
		t.Fatalf("the hub serves certificate %d, want 2", got)
	}
	ca.issue(t, dir, 3)
	deadline := time.Now().Add(10 * time.Second)
	for servedSerial(t, ca, hub.url) != 3 {
		if time.Now().After(deadline) {
			t.Fatal("the hub still serves the old certificate 10 s after it was renewed on disk")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := get(hc, hub.url+"/healthz"); got != "ok\n" {
		t.Fatalf("GET /healthz over the renewed certificate: %q", got)
	}
	select {
	case <-hub.dead:
		t.Fatal("the hub's process ended")
	default:
	}
}
