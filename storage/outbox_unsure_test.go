package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// serviceMessages is every message the sandbox holds for a work order,
// whatever its visibility (its control API; GET /api/messages lists only
// visibility All), with text.
func serviceMessages(t *testing.T, svc *service, woID int64, text string) int {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("%s/_sandbox/state?workOrderId=%d", svc.srv.URL, woID))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct{ Messages []api.Message }
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return countText(st.Messages, text)
}

// TestUnlistedMessageWithLostAnswerAsksThePerson: the service lists only
// messages of visibility All, so when the answer to a crew-only message is
// lost nothing can tell whether it arrived. It is neither posted again
// blindly nor dropped: it waits as "may have been sent" until the person
// sends it again or discards it. A message of visibility All is checked
// against the thread, and not posted twice.
func TestUnlistedMessageWithLostAnswerAsksThePerson(t *testing.T) {
	for _, tc := range []struct {
		name   string
		vis    api.MessageVisibility
		unsure bool
	}{{"crew only", api.VisibilityCruOnly, true}, {"subcontractors", api.VisibilityCruSubs, true}, {"everyone", api.VisibilityAll, false}} {
		t.Run(tc.name, func(t *testing.T) {
			svc := newService(t, 80)
			s := syncedStore(t, svc)
			ctx := context.Background()
			wo := pick(t, s, status(api.StatusAccepted))
			text := "Bring the ladder: " + tc.name
			row := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, text, tc.vis))
			var first atomic.Bool
			svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
				if r.Method == http.MethodPost && strings.EqualFold(r.URL.Path, "/api/messages") && first.CompareAndSwap(false, true) {
					return dropAfter
				}
				return pass
			})
			x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
			sendAll(t, x)
			sendAll(t, x)
			got := rowState(t, s, row.Id)
			if n := serviceMessages(t, svc, wo.WorkOrderId, text); n != 1 {
				t.Fatalf("the service holds the message %d times after the lost answer; want once", n)
			}
			if !tc.unsure {
				if got.State != OutboxDone {
					t.Fatalf("a message everyone sees, its answer lost: %s %q; want done (found in the thread)", got.State, got.Error)
				}
				return
			}
			if !got.MayHaveBeenSent() || !strings.Contains(got.Error, "cannot tell") {
				t.Fatalf("the row is %s (code %d) %q; want it waiting as may have been sent", got.State, got.ErrorCode, got.Error)
			}
			pending, failed := s.OutboxSummary(ctx)
			if pending != 0 || failed != 1 {
				t.Fatalf("outbox summary %d waiting, %d asking; want the row asking the person", pending, failed)
			}
			// The person says: it did not arrive, send it again.
			if _, err := s.Retry(ctx, row.Id); err != nil {
				t.Fatal(err)
			}
			sendAll(t, x)
			if got := rowState(t, s, row.Id); got.State != OutboxDone {
				t.Fatalf("sent again: %s %q", got.State, got.Error)
			}
			if n := serviceMessages(t, svc, wo.WorkOrderId, text); n != 2 {
				t.Fatalf("the service holds the message %d times after Send again; want 2 (the person's choice)", n)
			}
		})
	}
}

// TestHubOutcomeUnknownAsksThePerson: the office hub answers 409 "outcome
// unknown" to a write it cannot tell landed; the desktop treats it as a
// lost answer nothing can check: the row waits as "may have been sent".
func TestHubOutcomeUnknownAsksThePerson(t *testing.T) {
	var mu sync.Mutex
	var posted []string // the MessageId of each post
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/oauth/token":
			fmt.Fprint(w, `{"access_token":"tok","token_type":"bearer","expires_in":1200}`)
		case "/api/messages":
			body, _ := io.ReadAll(r.Body)
			var req struct{ MessageId string }
			json.Unmarshal(body, &req)
			mu.Lock()
			posted = append(posted, req.MessageId)
			mu.Unlock()
			// The hub's answer, as hub.outcomeUnknownBody writes it.
			w.WriteHeader(http.StatusConflict)
			fmt.Fprintf(w, `{"Code":0,"Message":%q,"MessageId":%q}`, api.OutcomeUnknown+
				": this write may have reached the service already, and nothing the service offers can tell", req.MessageId)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(hub.Close)
	s, _ := openTest(t)
	ctx := context.Background()
	put(t, s, woSpec{id: 1, number: "WO-1", status: api.StatusAccepted})
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: hub.URL + "/oauth/token", ClientID: "ana", ClientSecret: "x"})
	c, err := api.NewClient(hub.URL+"/", nil, tokens)
	if err != nil {
		t.Fatal(err)
	}
	row := mustRow(t)(s.SendMessage(ctx, 1, "Crew: the gate code changed", api.VisibilityCruOnly))
	x := NewSender(s, c, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	got := rowState(t, s, row.Id)
	mu.Lock()
	n := len(posted)
	mu.Unlock()
	if !got.MayHaveBeenSent() || !strings.Contains(got.Error, "nothing the service offers can tell") || n != 1 {
		t.Fatalf("after the hub's 409: %s (code %d) %q, %d posts; want one post and the row asking the person", got.State, got.ErrorCode, got.Error, n)
	}
	// Send again is a new request: the hub never sends the old MessageId again.
	if _, err := s.Retry(ctx, row.Id); err != nil {
		t.Fatal(err)
	}
	sendAll(t, x)
	mu.Lock()
	ids := slices.Clone(posted)
	mu.Unlock()
	if len(ids) != 2 || ids[0] == ids[1] || ids[0] == "" {
		t.Fatalf("sent again under MessageIds %q; want a new one", ids)
	}
	if got := rowState(t, s, row.Id); !got.MayHaveBeenSent() {
		t.Fatalf("the hub answered 409 again: %s %q; want the row asking the person again", got.State, got.Error)
	}
	if err := s.Discard(ctx, row.Id); err != nil {
		t.Fatalf("discarding it: %v", err)
	}
}

// TestUnlistedSentMessageStaysInTheThread: the service never lists a
// message of another visibility than All, so once sent it stays in the
// thread from the outbox, once, where it was written.
func TestUnlistedSentMessageStaysInTheThread(t *testing.T) {
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "Crew: parts arrive Tuesday", api.VisibilityCruLeads))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	if err := NewSyncer(s, svc.client, SyncOptions{}).Refresh(ctx, a.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	th, err := s.Thread(ctx, a.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range th {
		if m.Text == "Crew: parts arrive Tuesday" {
			n++
			if m.Row == nil || m.Row.State != OutboxDone || m.MessageVisibility != api.VisibilityCruLeads {
				t.Errorf("the sent message reads %+v", m)
			}
		}
	}
	if n != 1 {
		t.Fatalf("the sent crew message is in the thread %d times; want once", n)
	}
}

// TestNeverSentNeedsNoReconciling: an attempt that never left this
// computer (nothing answers at the address) cannot have reached the
// service, so the next attempt simply sends, a crew-only message included:
// only an answer lost on the way back leaves the person a question.
func TestNeverSentNeedsNoReconciling(t *testing.T) {
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	row := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, "Crew: the van is in the garage", api.VisibilityCruOnly))
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // its port refuses connections now
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: down.URL + "/oauth/token", ClientID: "x", ClientSecret: "y"})
	offline, err := api.NewClient(down.URL+"/", nil, tokens)
	if err != nil {
		t.Fatal(err)
	}
	sendAll(t, NewSender(s, offline, SenderOptions{Backoff: noWait}))
	if got := rowState(t, s, row.Id); got.State != OutboxPending || got.MaybeSent {
		t.Fatalf("after a refused connection: %s, maybe sent %v", got.State, got.MaybeSent)
	}
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	if got := rowState(t, s, row.Id); got.State != OutboxDone {
		t.Fatalf("once the service answers: %s (code %d) %q; want done", got.State, got.ErrorCode, got.Error)
	}
	if n := serviceMessages(t, svc, wo.WorkOrderId, "Crew: the van is in the garage"); n != 1 {
		t.Fatalf("the service holds it %d times", n)
	}
}
