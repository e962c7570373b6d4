package storage

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func event(t *testing.T, woID int64, action, msgID string, at time.Time, body any) api.Event {
	t.Helper()
	raw, err := api.MarshalEvent(api.EventHeader{WorkOrderId: woID, Action: action, ActionDate: at, MessageId: msgID}, body)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := api.ParseEvent(raw)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestHandleEventAppliesAndDeduplicates(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	w := mkWO(woSpec{id: 1, number: "WO-1", status: api.StatusNew, nte: "500", currency: "EUR"})
	w.WorkDetails = &api.WorkDetails{Procedures: []api.Procedure{{Id: 9, Name: "Safety"}}}
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{w}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var heard []int64
	cancel := s.Subscribe(func(changed []int64) {
		mu.Lock()
		heard = append(heard, changed...)
		mu.Unlock()
	})
	defer cancel()

	later := testNow.Add(time.Minute)
	apply := func(ev api.Event) {
		t.Helper()
		if err := s.HandleEvent(ctx, ev); err != nil {
			t.Fatalf("HandleEvent(%s): %v", ev.Header.Action, err)
		}
	}
	get := func() *api.WorkOrder {
		t.Helper()
		wo, err := s.WorkOrder(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		return wo
	}

	apply(event(t, 1, api.ActionQuoteChanged, "m1", later, api.QuoteChangedEvent{Quote: api.Quote{
		Amount: api.MustMoney("800", "EUR"), QuoteStatus: api.QuoteSubmitted, Comment: "more pipe"}}))
	if wo := get(); wo.Nte.Quote == nil || wo.Nte.Quote.QuoteStatus != api.QuoteSubmitted || wo.Nte.Amount.Amount.String() != "500" {
		t.Errorf("after quote submitted: %+v", wo.Nte)
	}
	apply(event(t, 1, api.ActionQuoteChanged, "m2", later, api.QuoteChangedEvent{Quote: api.Quote{
		Amount: api.MustMoney("800", "EUR"), QuoteStatus: api.QuoteApproved}}))
	if wo := get(); wo.Nte.Amount.Amount.String() != "800" || wo.Nte.Amount.Currency != "EUR" {
		t.Errorf("approval did not raise the NTE: %+v", wo.Nte.Amount)
	}
	rows, _ := s.List(ctx, ListQuery{Sort: SortNte})
	if rows[0].Nte.Amount.String() != "800" || rows[0].QuoteStatus != api.QuoteApproved {
		t.Errorf("list row after approval = %+v", rows[0])
	}

	apply(event(t, 1, api.ActionNteChanged, "m3", later, api.NteChangedEvent{Amount: api.MustMoney("950.5", "EUR")}))
	if wo := get(); wo.Nte.Amount.Amount.String() != "950.5" {
		t.Errorf("NteChanged: %v", wo.Nte.Amount)
	}
	start := testNow.Add(30 * time.Hour).UTC()
	apply(event(t, 1, api.ActionAppointmentInfoChanged, "m4", later, api.AppointmentInfoChangedEvent{
		Appointment: api.Schedule{ScheduledStart: &start, Pte: "CallFirst"}}))
	if wo := get(); !wo.ScheduledStart().Equal(start) || wo.Schedule.Pte != "CallFirst" {
		t.Errorf("AppointmentInfoChanged: %+v", wo.Schedule)
	}
	apply(event(t, 1, api.ActionProcedureMarked, "m5", later, api.ProcedureMarkedEvent{ProcedureId: 9, IsMarkedNa: true}))
	if wo := get(); !wo.Procedures()[0].IsMarkedNa {
		t.Error("ProcedureMarked not applied")
	}
	apply(event(t, 1, api.ActionInvoiceStatusChanged, "m6", later, api.InvoiceStatusChangedEvent{
		Status: api.InvoiceAuthorized, AuthNumber: "A-77"}))
	if inv, err := s.Invoice(ctx, 1); err != nil || inv.Status != api.InvoiceAuthorized || inv.AuthNumber != "A-77" || inv.Currency != "EUR" {
		t.Errorf("InvoiceStatusChanged: %+v, %v", inv, err)
	}
	apply(event(t, 1, api.ActionRejected, "m7", later, api.RejectedEvent{Status: api.StatusRejected, Comment: "no"}))
	if wo := get(); wo.Status != api.StatusRejected {
		t.Errorf("Rejected: status %s", wo.Status)
	}

	// A redelivery changes nothing and is not an error, even if the replica moved on.
	apply(event(t, 1, api.ActionNteChanged, "m3", later, api.NteChangedEvent{Amount: api.MustMoney("950.5", "EUR")}))
	apply(event(t, 1, api.ActionNteChanged, "m8", later, api.NteChangedEvent{Amount: api.MustMoney("1", "EUR")}))
	apply(event(t, 1, api.ActionNteChanged, "m8", later, api.NteChangedEvent{Amount: api.MustMoney("2", "EUR")}))
	if wo := get(); wo.Nte.Amount.Amount.String() != "1" {
		t.Errorf("duplicate MessageId was applied again: NTE %v", wo.Nte.Amount)
	}

	// Unknown actions are logged only.
	apply(event(t, 1, "SomethingNew", "m9", later, map[string]any{"X": 1}))

	evs, err := s.Events(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range evs {
		actions = append(actions, e.Header.Action)
	}
	want := []string{"QuoteChanged", "QuoteChanged", "NteChanged", "AppointmentInfoChanged", "ProcedureMarked",
		"InvoiceStatusChanged", "Rejected", "NteChanged", "SomethingNew"}
	if !slices.Equal(actions, want) {
		t.Errorf("event log = %v; want %v", actions, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 8 { // every applied event, not the duplicates nor the unknown one
		t.Errorf("subscribers heard %d changes; want 8", len(heard))
	}
}

func TestHandleEventNewWorkOrderAndUnknownWorkOrder(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	nw := mkWO(woSpec{id: 77, number: "WO-77", customer: "Dispatch Co", site: "Depot", ack: time.Hour})
	if err := s.HandleEvent(ctx, event(t, 77, api.ActionNewWorkOrder, "n1", testNow, api.NewWorkOrderEvent{Details: nw})); err != nil {
		t.Fatal(err)
	}
	rows, err := s.List(ctx, ListQuery{Search: "depot"})
	if err != nil || len(rows) != 1 || rows[0].Number != "WO-77" || !rows[0].Attention {
		t.Fatalf("new work order in list = %+v, %v", rows, err)
	}
	// An event about a work order not synced yet is kept, not an error.
	if err := s.HandleEvent(ctx, event(t, 555, api.ActionNteChanged, "n2", testNow, api.NteChangedEvent{Amount: api.MustMoney("5", "USD")})); err != nil {
		t.Fatalf("event for unknown work order: %v", err)
	}
	if _, err := s.WorkOrder(ctx, 555); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown work order created from a partial event: %v", err)
	}
	if evs, _ := s.Events(ctx, 555); len(evs) != 1 {
		t.Errorf("event for unknown work order not logged: %d", len(evs))
	}
}

func TestHandleEventIgnoresStaleRedelivery(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	// The replica already holds a version synced after the event happened.
	put(t, s, woSpec{id: 1, number: "WO-1", nte: "700", updated: testNow})
	old := event(t, 1, api.ActionNteChanged, "late", testNow.Add(-time.Hour), api.NteChangedEvent{Amount: api.MustMoney("300", "USD")})
	if err := s.HandleEvent(ctx, old); err != nil {
		t.Fatal(err)
	}
	if wo, _ := s.WorkOrder(ctx, 1); wo.Nte.Amount.Amount.String() != "700" {
		t.Errorf("a stale event overwrote newer data: NTE %v", wo.Nte.Amount)
	}
}
