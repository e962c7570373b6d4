package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/hub/pgtest"
)

// An office sets the hub up as the README says: `hub user add`, `hub
// serve` against the service, a desktop signs in and reads, the service's
// notification arrives, `hub user disable`. Afterwards neither the hub's
// output nor its database (dumped whole) holds the service's secret, the
// person's secret, an access token or a download link.
func TestHubCommandsEndToEnd(t *testing.T) {
	cl := pgtest.StartT(t)
	dbURL := cl.NewDB(t)
	sb := sandboxtest.New(t, sandboxtest.RealClock())
	info := sb.Info
	cert := filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(cert, info.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WORKDESK_CLIENT_SECRET", info.ClientSecret)
	ctx := context.Background()

	var addOut, cmdErr bytes.Buffer
	if rc := hubCommand(ctx, []string{"user", "add", "--db", dbURL, "--name", "Ana Ruiz"}, &addOut, &cmdErr, nil); rc != 0 {
		t.Fatalf("user add: exit %d: %s", rc, cmdErr.String())
	}
	var creds struct{ ClientId, ClientSecret string }
	if err := json.Unmarshal(addOut.Bytes(), &creds); err != nil || creds.ClientId == "" || creds.ClientSecret == "" {
		t.Fatalf("user add printed %q, want one JSON object with ClientId and ClientSecret", addOut.String())
	}

	serveCtx, stop := context.WithCancel(ctx)
	defer stop()
	var serveOut, serveErr bytes.Buffer
	addrs := make(chan net.Addr, 1)
	done := make(chan int, 1)
	go func() {
		done <- hubCommand(serveCtx, []string{"serve", "--db", dbURL, "--addr", "127.0.0.1:0",
			"--base-url", info.BaseURL, "--token-url", info.TokenURL, "--client-id", info.ClientID, "--cert", cert},
			&serveOut, &serveErr, func(a net.Addr) { addrs <- a })
	}()
	var base string
	select {
	case a := <-addrs:
		base = "http://" + a.String() + "/"
	case rc := <-done:
		t.Fatalf("hub serve exited %d: %s", rc, serveErr.String())
	}
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: base + "oauth/token", ClientID: creds.ClientId, ClientSecret: creds.ClientSecret})
	desk, err := api.NewClient(base, nil, tokens)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokens.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found []api.WorkOrder
	deadline := time.Now().Add(15 * time.Second)
	// The first sync stores the work orders a batch at a time: wait for all.
	for len(found) < sb.WorkOrderCount() && time.Now().Before(deadline) {
		found, err = desk.SearchWorkOrders(ctx, api.SearchParameters{})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(found) != sb.WorkOrderCount() {
		t.Fatalf("the desktop sees %d work orders through the hub, the service has %d", len(found), sb.WorkOrderCount())
	}
	id := found[0].WorkOrderId
	att, err := desk.UploadAttachment(ctx, id, api.Upload{Name: "note.txt", Content: strings.NewReader("hello")})
	if err != nil {
		t.Fatal(err)
	}
	link, err := desk.AttachmentDownloadURL(ctx, id, att.AttachmentId)
	if err != nil || link.URL == "" {
		t.Fatalf("download link: %+v, %v", link, err)
	}
	// The attachment list is stored in the hub's database; the link, asked
	// for again after it, never.
	if list, err := desk.ListAttachments(ctx, id); err != nil || len(list) == 0 {
		t.Fatalf("attachments through the hub: %+v, %v", list, err)
	}
	again, err := desk.AttachmentDownloadURL(ctx, id, att.AttachmentId)
	if err != nil || again.URL == "" {
		t.Fatalf("download link again: %v", err)
	}
	sb.SetNotifyURL(base + "notify")
	wo, err := sb.DispatchWorkOrder()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; {
		if _, err := desk.GetWorkOrder(ctx, wo.WorkOrderId); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the notified work order never reached the hub's replica")
		}
		time.Sleep(50 * time.Millisecond)
	}

	var listOut, disableOut bytes.Buffer
	if rc := hubCommand(ctx, []string{"user", "disable", "--db", dbURL, "Ana Ruiz"}, &disableOut, &cmdErr, nil); rc != 0 {
		t.Fatalf("user disable: exit %d: %s", rc, cmdErr.String())
	}
	if rc := hubCommand(ctx, []string{"user", "list", "--db", dbURL}, &listOut, &cmdErr, nil); rc != 0 || !strings.Contains(listOut.String(), "Ana Ruiz") || !strings.Contains(listOut.String(), "disabled") {
		t.Fatalf("user list: exit %d: %s", rc, listOut.String())
	}
	stop()
	if rc := <-done; rc != 0 {
		t.Fatalf("hub serve exited %d: %s", rc, serveErr.String())
	}
	if !strings.Contains(serveOut.String(), base+"notify") {
		t.Fatalf("hub serve did not print the notification URL: %s", serveOut.String())
	}

	_, linkSig, _ := strings.Cut(link.URL, "?")
	dump := cl.Dump(t, dbURL)
	if !bytes.Contains(dump, []byte("Ana Ruiz")) || !bytes.Contains(dump, []byte(att.AttachmentId)) {
		t.Fatal("the dump does not hold the data it should (a person, a stored attachment list): the search below would prove nothing")
	}
	for what, secret := range map[string]string{
		"the service's client secret": info.ClientSecret, "the person's secret": creds.ClientSecret,
		"the person's access token": tok, "a download link": link.URL, "a download link's signature": linkSig,
		"the download link asked for after the list": again.URL,
	} {
		for where, text := range map[string][]byte{"the database": dump, "the hub's output": serveOut.Bytes(), "the hub's log": serveErr.Bytes(),
			"user list": listOut.Bytes(), "user disable": disableOut.Bytes()} {
			if secret != "" && bytes.Contains(text, []byte(secret)) {
				t.Errorf("%s is in %s", what, where)
			}
		}
	}
}
