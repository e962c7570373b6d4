package storage

import (
	"context"
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
