package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestReceiveCommand drives `workdesk receive`'s handler with notifications
// signed the way the service signs them (by the sandbox's key): accepted
// events become JSON lines and change the replica; a forged one is refused
// with 401 and a reason on stderr.
func TestReceiveCommand(t *testing.T) {
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	store, err := storage.Open(ctx, filepath.Join(t.TempDir(), "replica.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	wo := api.WorkOrder{WorkOrderId: 4242, WorkOrderNumber: "WN4242", Status: api.StatusAccepted, Currency: "USD",
		Customer: api.Customer{Id: 1, Name: "Northwind Retail"}, Nte: api.Nte{Amount: api.MustMoney("500", "USD")}}
	if err := store.PutWorkOrders(ctx, []api.WorkOrder{wo}); err != nil {
		t.Fatal(err)
	}
	v := api.NewVerifierFromKey(&sb.Key().PublicKey)
	var out, errOut bytes.Buffer
	srv := httptest.NewServer(newReceiveHandler(store, v, false, &out, &errOut))
	defer srv.Close()

	post := func(token string, body []byte, action string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Event-Type", action)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	id := uuid.NewString()
	body, _ := api.MarshalEvent(api.EventHeader{WorkOrderId: 4242, Action: api.ActionNteChanged, ActionDate: time.Now().UTC(), MessageId: id},
		api.NteChangedEvent{Amount: api.MustMoney("900", "USD")})
	token, _ := api.MintToken(sb.Key(), api.SHA1, api.NewClaims("client", time.Now(), 20*time.Minute))

	if got := post(token, body, api.ActionNteChanged); got != http.StatusOK {
		t.Fatalf("a signed NteChanged got HTTP %d (stderr %q)", got, errOut.String())
	}
	var line struct {
		Action      string `json:"action"`
		WorkOrderId int64  `json:"work_order_id"`
		MessageId   string `json:"message_id"`
	}
	if err := json.Unmarshal(out.Bytes(), &line); err != nil || line.Action != api.ActionNteChanged || line.WorkOrderId != 4242 || line.MessageId != id {
		t.Fatalf("stdout %q, want one JSON line for the event", out.String())
	}
	got, _ := store.WorkOrder(ctx, 4242)
	if got.Nte.Amount.Format() != "$900.00" {
		t.Fatalf("the replica's NTE is %s after NteChanged, want $900.00", got.Nte.Amount.Format())
	}

	forged := strings.Replace(token, token[len(token)-6:], "AAAAAA", 1)
	if got := post(forged, body, api.ActionNteChanged); got != http.StatusUnauthorized {
		t.Fatalf("a forged token got HTTP %d, want 401", got)
	}
	if !strings.Contains(errOut.String(), "refused (HTTP 401)") || strings.Contains(errOut.String(), forged) {
		t.Fatalf("stderr %q should say why, without the token", errOut.String())
	}
}
