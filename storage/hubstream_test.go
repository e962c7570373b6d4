package storage

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// An event the replica refuses (an amount its work order's currency cannot
// hold) is skipped, as the receiver refuses it: the stream goes on to the
// next one and remembers it, instead of stopping at the refused event and
// being sent it again on every reconnection. The hub here is httptest
// speaking the hub's token and event stream endpoints.
func TestHubStreamSkipsAnEventTheReplicaRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := func(msgID, amount string) string {
		raw, err := api.MarshalEvent(api.EventHeader{WorkOrderId: 1, Action: api.ActionNteChanged, ActionDate: testNow, MessageId: msgID},
			api.NteChangedEvent{Amount: api.MustMoney(amount, "")})
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(raw), "\n", "")
	}
	var streams atomic.Int64
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/oauth/token":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"access_token":"tok","token_type":"bearer","expires_in":1200}`)
		case "/api/hub/events":
			streams.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			if r.Header.Get("Last-Event-ID") == "" {
				fmt.Fprintf(w, "id: 1\ndata: %s\n\nid: 2\ndata: %s\n\n", data("yen-decimals", "900.5"), data("fine", "900"))
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(hub.Close)
	path := filepath.Join(t.TempDir(), "office.db")
	s, _ := openAt(t, path)
	put(t, s, woSpec{id: 1, number: "WO-1", status: api.StatusAccepted, nte: "500", currency: "JPY"})
	s.Close()
	eng, err := OpenEngine(ctx, path, EngineOptions{
		Connection: api.Connection{BaseURL: hub.URL + "/", TokenURL: hub.URL + "/oauth/token", ClientID: "bo", ClientSecret: "x"},
		ManualSend: true, Hub: true, StreamBackoff: func(int) time.Duration { return 10 * time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if last, _, _ := eng.Store.Setting(ctx, settingLastEventID); last == "2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream never got past the refused event (%d connections)", streams.Load())
		}
	}
	wo, err := eng.Store.WorkOrder(ctx, 1)
	if err != nil || wo.Nte.Amount.Format() != "¥900" {
		t.Fatalf("the event after the refused one was not applied: %+v, %v", wo, err)
	}
	if n := streams.Load(); n != 1 {
		t.Fatalf("%d connections to the stream; the refused event should not have dropped it", n)
	}
}
