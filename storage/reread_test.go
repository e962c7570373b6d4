package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
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

// streamed is one event as the office hub streams it (hub.HubEvent): the
// header, and beside it who acted through the hub, the facts only a
// notification's body carries, and what the hub re-read. None of the
// notification's body is passed on.
func streamed(t *testing.T, h api.EventHeader, performer string, notification map[string]any, rr *Reread) string {
	t.Helper()
	ev := map[string]any{"Header": h}
	if performer != "" {
		ev["PerformedBy"] = map[string]string{"Name": performer}
	}
	if notification != nil {
		ev["Notification"] = notification
	}
	if rr != nil {
		ev["Reread"] = rr
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHubEventWithItsRereadCallsNobody: the events the hub streams, in the
// hub's own shape, are applied from their re-read records without a single
// call to the hub's API (nor the service's): a customer's notification
// with the facts only its body carried under "Notification" (Activity and
// the invoice read them as the customer's notification said them), an
// event the desktop cannot read (skipped: the stream goes on past it), and
// colleagues' writes under the hub's own names ("CheckedInByContractor",
// a bulk acceptance's events sharing one MessageId), whose names come only
// from the hub.
func TestHubEventWithItsRereadCallsNobody(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	hold := mkWO(woSpec{id: 1, number: "WO-1", status: api.StatusOnHold, nte: "900", currency: "JPY", updated: testNow.Add(time.Hour)})
	paid := &api.Invoice{WorkOrderId: 1, Status: api.InvoicePaid, Currency: "JPY"}
	checkedIn := mkWO(woSpec{id: 1, number: "WO-1", status: api.StatusCheckedIn, nte: "900", currency: "JPY", updated: testNow.Add(2 * time.Hour)})
	accepted := mkWO(woSpec{id: 2, number: "WO-2", status: api.StatusAccepted, currency: "JPY", updated: testNow.Add(2 * time.Hour)})
	header := func(woID int64, action, msgID string) api.EventHeader {
		return api.EventHeader{WorkOrderId: woID, Action: action, ActionDate: testNow, MessageId: msgID}
	}
	events := []string{
		streamed(t, header(1, api.ActionPutOnHold, "hold-1"), "", map[string]any{"Comment": "Waiting for parts"}, &Reread{WorkOrder: &hold}),
		streamed(t, header(1, api.ActionInvoiceStatusChanged, "paid-1"), "",
			map[string]any{"CheckNumber": "10442", "PaidDate": testNow.Add(-24 * time.Hour), "Amount": json.Number("124000")},
			&Reread{Invoice: paid}),
		`{"Header": {"WorkOrderId": 1, "Action": "NteChanged", "MessageId": "broken"`,
		streamed(t, header(1, "CheckedInByContractor", "visit-1"), "Ana Ruiz", nil, &Reread{WorkOrder: &checkedIn}),
		streamed(t, header(2, "AcceptedByContractor", "bulk-1"), "Ben Okafor", nil, &Reread{WorkOrder: &accepted}),
		streamed(t, header(3, "AcceptedByContractor", "bulk-1"), "Ben Okafor", nil, nil),
	}
	var streams atomic.Int64
	var mu sync.Mutex
	var asked []string
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/oauth/token":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"access_token":"tok","token_type":"bearer","expires_in":1200}`)
		case r.URL.Path == "/api/hub/events":
			streams.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			if r.Header.Get("Last-Event-ID") == "" {
				for i, data := range events {
					fmt.Fprintf(w, "id: %d\ndata: %s\n\n", i+1, data)
				}
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			mu.Lock()
			asked = append(asked, r.URL.RawQuery)
			mu.Unlock()
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(hub.Close)
	path := filepath.Join(t.TempDir(), "office.db")
	s, _ := openAt(t, path)
	put(t, s, woSpec{id: 1, number: "WO-1", status: api.StatusAccepted, nte: "500", currency: "JPY"},
		woSpec{id: 2, number: "WO-2", status: api.StatusNew, currency: "JPY"})
	s.Close()
	eng, err := OpenEngine(ctx, path, EngineOptions{
		Connection: api.Connection{BaseURL: hub.URL + "/", TokenURL: hub.URL + "/oauth/token", ClientID: "bo", ClientSecret: "x"},
		ManualSend: true, Hub: true, StreamBackoff: func(int) time.Duration { return 10 * time.Millisecond },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	last := strconv.Itoa(len(events))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if id, _, _ := eng.Store.Setting(ctx, settingLastEventID); id == last {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream never got past its events (%d connections)", streams.Load())
		}
	}
	if n := streams.Load(); n != 1 {
		t.Errorf("%d connections to the stream; the unreadable event should not have dropped it", n)
	}

	// The customer's hold: the status and NTE from the re-read, the
	// reason as the customer's notification gave it.
	evs, err := eng.Store.Events(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	byAction := map[string]EventRecord{}
	for _, e := range evs {
		byAction[e.Header.Action] = e
	}
	if b, ok := byAction[api.ActionPutOnHold].Body.(*api.StatusChangedEvent); !ok || b.Comment != "Waiting for parts" || b.Status != "" {
		t.Errorf("the hold in the event log: %+v; want the customer's reason and no status taken from anyone's body", byAction[api.ActionPutOnHold].Body)
	}
	// The payment: the invoice as re-read, the check as the notification said it.
	if inv, err := eng.Store.Invoice(ctx, 1); err != nil || inv.Status != api.InvoicePaid || inv.CheckNumber != "" {
		t.Errorf("the invoice: %+v, %v; want the re-read's", inv, err)
	}
	n, err := eng.Store.InvoiceNotice(ctx, 1)
	if err != nil || n == nil || n.CheckNumber != "10442" || n.PaidDate == nil || n.Amount == nil || !n.Amount.Amount.Equal(api.MustMoney("124000", "").Amount) {
		t.Errorf("the customer's notice of payment: %+v, %v; want check 10442, paid, ¥124,000", n, err)
	}
	// Ana's check-in, named by the hub.
	wo, err := eng.Store.WorkOrder(ctx, 1)
	if err != nil || wo.Status != api.StatusCheckedIn || wo.Nte.Amount.Format() != "¥900" {
		t.Errorf("work order 1 after Ana's check-in: %+v, %v", wo, err)
	}
	if e := byAction["CheckedInByContractor"]; e.PerformedBy != "Ana Ruiz" {
		t.Errorf("the check-in's event names %q; want Ana Ruiz", e.PerformedBy)
	}
	// Ben's bulk acceptance: one event per work order under one MessageId.
	for _, id := range []int64{2, 3} {
		evs, err := eng.Store.Events(ctx, id)
		if err != nil || len(evs) != 1 || evs[0].Header.Action != "AcceptedByContractor" || evs[0].PerformedBy != "Ben Okafor" {
			t.Errorf("work order %d's events: %+v, %v; want Ben's acceptance", id, evs, err)
		}
	}
	if wo, err := eng.Store.WorkOrder(ctx, 2); err != nil || wo.Status != api.StatusAccepted {
		t.Errorf("work order 2 after Ben's acceptance: %+v, %v", wo, err)
	}
	// Every event but Ben's second carried its re-read; only that one
	// (a work order this replica does not hold) is read through the hub.
	mu.Lock()
	defer mu.Unlock()
	for _, q := range asked {
		vals, _ := url.ParseQuery(q)
		for k, v := range vals {
			if k != "messageId" && (len(v) != 1 || v[0] != "3") {
				t.Errorf("asked the hub with %s=%v; only work order 3's event came without its re-read", k, v)
			}
		}
	}
	if len(asked) == 0 {
		t.Error("the event without a re-read was not read again through the hub")
	}
}

// TestANotificationASyncOvertookStillReachesTheWindow: when a sync
// brought a newer record before a notification's re-read was written
// (the re-read is older than the replica, so it is not taken), the
// notification is still logged, and the window is told the work order
// changed, so the header and the Activity tab show what the customer said.
// Untold, they showed it only once something else changed.
func TestANotificationASyncOvertookStillReachesTheWindow(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	put(t, s, woSpec{id: 1, number: "WO-1", status: api.StatusOnHold, nte: "500", currency: "EUR"})
	var told [][]int64
	cancel := s.Subscribe(func(changed []int64) { told = append(told, changed) })
	defer cancel()
	wo, err := s.WorkOrder(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	ev := event(t, 1, api.ActionPutOnHold, "m-hold", testNow, api.StatusChangedEvent{Comment: "Waiting for the landlord's approval."})
	older := *wo // what the notification's re-read found, before the sync's newer record
	older.LastUpdate = wo.LastUpdate.Add(-time.Minute)
	out, err := s.ApplyNotification(ctx, ev, &Reread{WorkOrder: &older})
	if err != nil || !out.Fresh || out.Applied {
		t.Fatalf("ApplyNotification: %+v, %v; want logged, nothing new applied", out, err)
	}
	if len(told) != 1 || !slices.Equal(told[0], []int64{1}) {
		t.Errorf("subscribers were told %v; want work order 1 once", told)
	}
	if _, err := s.ApplyNotification(ctx, ev, &Reread{WorkOrder: &older}); err != nil || len(told) != 1 {
		t.Errorf("a redelivery told the window again: %v, %v", told, err)
	}
}
