package storage

import (
	"context"
	"encoding/json"
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

// TestApplyNotificationTakesTheRereadNotTheBody: the apply path the hub's
// events use. The replica changes as the re-read record says, never as
// the notification's body says; a record older than the replica is not
// taken; a refusal with 3005 shows the work order as recalled; a
// redelivery changes nothing; the facts only the body carries are kept as
// the customer's notification.
func TestApplyNotificationTakesTheRereadNotTheBody(t *testing.T) {
	later := testNow.Add(time.Minute)
	msgs := []api.Message{{Id: 1, WorkOrderId: 1, Text: "Please call the front desk", MessageVisibility: api.VisibilityAll}}
	reread := func(mod func(*api.WorkOrder)) *api.WorkOrder {
		w := mkWO(woSpec{id: 1, number: "WO-1", status: api.StatusAccepted, nte: "500", currency: "EUR", updated: later})
		mod(&w)
		return &w
	}
	for _, tc := range []struct {
		name    string
		action  string
		body    any
		rr      *Reread
		applied bool
		check   func(t *testing.T, s *Store)
	}{
		{name: "the body alone changes nothing", action: api.ActionNteChanged,
			body: api.NteChangedEvent{Amount: api.MustMoney("1", "EUR")},
			check: func(t *testing.T, s *Store) {
				if wo, _ := s.WorkOrder(context.Background(), 1); wo.Nte.Amount.Amount.String() != "500" {
					t.Fatalf("NTE %s taken from the body", wo.Nte.Amount.Format())
				}
			}},
		{name: "the re-read, not the body", action: api.ActionNteChanged,
			body:    api.NteChangedEvent{Amount: api.MustMoney("1", "EUR")},
			rr:      &Reread{WorkOrder: reread(func(w *api.WorkOrder) { w.Nte.Amount = api.MustMoney("950.5", "EUR") })},
			applied: true,
			check: func(t *testing.T, s *Store) {
				if wo, _ := s.WorkOrder(context.Background(), 1); wo.Nte.Amount.Amount.String() != "950.5" || wo.Nte.Amount.Currency != "EUR" {
					t.Fatalf("NTE %s, want the re-read's 950.5 EUR", wo.Nte.Amount.Format())
				}
			}},
		{name: "a status only from the re-read", action: api.ActionPutOnHold,
			body:    api.StatusChangedEvent{Status: api.StatusRecalled, Comment: "a body that lies"},
			rr:      &Reread{WorkOrder: reread(func(w *api.WorkOrder) { w.Status = api.StatusOnHold })},
			applied: true,
			check: func(t *testing.T, s *Store) {
				if wo, _ := s.WorkOrder(context.Background(), 1); wo.Status != api.StatusOnHold {
					t.Fatalf("status %s, want the re-read's OnHold", wo.Status)
				}
			}},
		{name: "a re-read older than the replica", action: api.ActionNteChanged,
			rr: &Reread{WorkOrder: reread(func(w *api.WorkOrder) {
				w.Nte.Amount = api.MustMoney("1", "EUR")
				w.LastUpdate = testNow.Add(-3 * time.Hour)
			})},
			check: func(t *testing.T, s *Store) {
				if wo, _ := s.WorkOrder(context.Background(), 1); wo.Nte.Amount.Amount.String() != "500" {
					t.Fatalf("an older re-read overwrote the replica: NTE %s", wo.Nte.Amount.Format())
				}
			}},
		{name: "refused with 3005", action: api.ActionRecalled, rr: &Reread{Gone: true}, applied: true,
			check: func(t *testing.T, s *Store) {
				if wo, _ := s.WorkOrder(context.Background(), 1); wo.Status != api.StatusRecalled || wo.Can(api.CheckIn) == nil {
					t.Fatalf("status %s after the service said the work order is no longer ours", wo.Status)
				}
			}},
		{name: "the thread", action: api.ActionMessageSent, body: api.MessageSentEvent{Text: "hi"},
			rr: &Reread{Messages: &msgs}, applied: true,
			check: func(t *testing.T, s *Store) {
				if got, _ := s.Messages(context.Background(), 1); len(got) != 1 || got[0].Text != msgs[0].Text {
					t.Fatalf("thread %+v", got)
				}
			}},
		{name: "the invoice, and what only the notification says", action: api.ActionInvoiceStatusChanged,
			body: api.InvoiceStatusChangedEvent{Status: api.InvoicePaid, CheckNumber: "10442", PaidDate: tp(later),
				Amount: &api.Money{Amount: api.MustMoney("1240", "").Amount}},
			rr:      &Reread{Invoice: &api.Invoice{WorkOrderId: 1, Status: api.InvoiceAuthorized, Currency: "EUR"}},
			applied: true,
			check: func(t *testing.T, s *Store) {
				ctx := context.Background()
				if inv, _ := s.Invoice(ctx, 1); inv.Status != api.InvoiceAuthorized || inv.CheckNumber != "" {
					t.Fatalf("invoice %+v: the status or the check number came from the body", inv)
				}
				n, err := s.InvoiceNotice(ctx, 1)
				if err != nil || n == nil || n.CheckNumber != "10442" || n.Status != api.InvoicePaid || !n.Amount.Amount.Equal(api.MustMoney("1240", "").Amount) {
					t.Fatalf("notice %+v, %v", n, err)
				}
			}},
		{name: "a work order not in the replica yet", action: api.ActionNteChanged,
			rr:      &Reread{WorkOrder: &[]api.WorkOrder{mkWO(woSpec{id: 2, number: "WO-2", status: api.StatusNew, updated: later})}[0]},
			applied: true,
			check: func(t *testing.T, s *Store) {
				if wo, err := s.WorkOrder(context.Background(), 2); err != nil || wo.Status != api.StatusNew {
					t.Fatalf("work order 2: %+v, %v", wo, err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openTest(t)
			ctx := context.Background()
			put(t, s, woSpec{id: 1, number: "WO-1", status: api.StatusAccepted, nte: "500", currency: "EUR"})
			woID := int64(1)
			if tc.rr != nil && tc.rr.WorkOrder != nil {
				woID = tc.rr.WorkOrder.WorkOrderId
			}
			ev := event(t, woID, tc.action, "m-"+tc.name, later, tc.body)
			out, err := s.ApplyNotification(ctx, ev, tc.rr)
			if err != nil || !out.Fresh || out.Applied != tc.applied {
				t.Fatalf("ApplyNotification: %+v, %v; want fresh, applied %v", out, err, tc.applied)
			}
			tc.check(t, s)
			again, err := s.ApplyNotification(ctx, ev, &Reread{Gone: true})
			if err != nil || again.Fresh || again.Applied {
				t.Fatalf("a redelivery: %+v, %v", again, err)
			}
			tc.check(t, s)
		})
	}
}

// TestHubEventWithItsRereadCallsNobody: an event the hub streams with its
// re-read record is applied as it is, without a single call to the hub's
// API (nor the service's); one without is read again through the hub.
func TestHubEventWithItsRereadCallsNobody(t *testing.T) {
	ctx := context.Background()
	rr := Reread{WorkOrder: &[]api.WorkOrder{mkWO(woSpec{id: 1, number: "WO-1", status: api.StatusOnHold, nte: "900", currency: "JPY",
		updated: testNow.Add(time.Hour)})}[0]}
	raw, err := api.MarshalEvent(api.EventHeader{WorkOrderId: 1, Action: api.ActionPutOnHold, ActionDate: testNow, MessageId: "hold-1"},
		api.StatusChangedEvent{Status: api.StatusOnHold, Comment: "Waiting for parts"})
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	json.Unmarshal(raw, &fields)
	fields["Reread"], _ = json.Marshal(rr)
	data, _ := json.Marshal(fields)
	var apiCalls atomic.Int64
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/oauth/token":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"access_token":"tok","token_type":"bearer","expires_in":1200}`)
		case r.URL.Path == "/api/hub/events":
			w.Header().Set("Content-Type", "text/event-stream")
			if r.Header.Get("Last-Event-ID") == "" {
				fmt.Fprintf(w, "id: 1\ndata: %s\n\n", strings.ReplaceAll(string(data), "\n", ""))
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			apiCalls.Add(1)
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
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if last, _, _ := eng.Store.Setting(ctx, settingLastEventID); last == "1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hub's event was never applied")
		}
	}
	wo, err := eng.Store.WorkOrder(ctx, 1)
	if err != nil || wo.Status != api.StatusOnHold || wo.Nte.Amount.Format() != "¥900" {
		t.Fatalf("the re-read record was not applied: %+v, %v", wo, err)
	}
	if n := apiCalls.Load(); n != 0 {
		t.Fatalf("%d calls to the hub's API for an event that carried its re-read", n)
	}
}
