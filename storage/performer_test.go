package storage

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestOutboxWritesNamePerformedBy: what the outbox sends for the person
// carries their name, whatever was stored when it was queued: the JSON
// writes as PerformedBy, an upload as its form field.
func TestOutboxWritesNamePerformedBy(t *testing.T) {
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	svc.client.SetPerformedBy("Ana Ruiz")
	accepted := pick(t, s, status(api.StatusAccepted))
	mustRow(t)(s.CheckIn(ctx, accepted.WorkOrderId, nil, ""))
	other := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusCheckedIn && wo.WorkOrderId != accepted.WorkOrderId
	})
	mustRow(t)(s.SendMessage(ctx, other.WorkOrderId, "On my way", api.VisibilityAll))
	mustRow(t)(s.AttachFile(ctx, other.WorkOrderId, tempFile(t, "site.jpg", "\xff\xd8 photo"), api.VisibilityAll))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	for _, c := range []struct{ method, path string }{
		{http.MethodPut, "/api/workorder/checkin"}, {http.MethodPost, "/api/messages"}, {http.MethodPost, "/api/attachments"},
	} {
		calls := svc.wire.calls(c.method, c.path)
		if len(calls) == 0 {
			t.Fatalf("no %s %s was sent", c.method, c.path)
		}
		body := calls[0].Body
		var named struct{ PerformedBy *api.Sender }
		switch {
		case c.path == "/api/attachments":
			if !strings.Contains(string(body), `name="PerformedBy.Name"`+"\r\n\r\nAna Ruiz") {
				t.Errorf("the upload does not name the person:\n%.400s", body)
			}
		case json.Unmarshal(body, &named) != nil || named.PerformedBy == nil || named.PerformedBy.Name != "Ana Ruiz":
			t.Errorf("%s %s: PerformedBy %+v in %s", c.method, c.path, named.PerformedBy, body)
		}
	}
}

// TestANoteNamesWhoWroteIt: the internal note's history says who wrote
// each version; an edit queued and sent from the desktop carries the
// person the client acts for (as every write does), so the history names
// them, not the API's own user.
func TestANoteNamesWhoWroteIt(t *testing.T) {
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	svc.client.SetPerformedBy("Ana Ruiz")
	wo := pick(t, s, status(api.StatusAccepted))
	mustRow(t)(s.SetNote(ctx, wo.WorkOrderId, "Gate code 4471; park behind the dock.", ""))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	calls := svc.wire.calls(http.MethodPut, "/api/workorder/note")
	if len(calls) == 0 {
		t.Fatal("no PUT /api/workOrder/note was sent")
	}
	var named struct{ PerformedBy *api.Sender }
	if err := json.Unmarshal(calls[0].Body, &named); err != nil || named.PerformedBy == nil || named.PerformedBy.Name != "Ana Ruiz" {
		t.Errorf("the note's write names %+v: %s", named.PerformedBy, calls[0].Body)
	}
	h, err := svc.client.NoteHistory(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if cur := api.CurrentNote(h); cur.InternalNote != "Gate code 4471; park behind the dock." || cur.UpdatedBy != "Ana Ruiz" {
		t.Errorf("the service's history has %+v; want the note by Ana Ruiz", cur)
	}
}
