package storage

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// serviceApplied: the service applied the request and the app dies before
// the answer reaches it (the parent kills the child from the wire).
const serviceApplied = "service-applied"

// crashKind is an action that must be applied exactly once whatever the
// moment the app dies: applied reports whether the service shows its effect
// and fails the test if it shows it more than once.
type crashKind struct {
	name    string
	pick    func(*api.WorkOrder) bool
	queue   func(ctx context.Context, s *Store, wo *api.WorkOrder) (*OutboxRow, error)
	applied func(t *testing.T, svc *service, s *Store, wo *api.WorkOrder) (atService, inReplica bool)
}

func countText(msgs []api.Message, text string) int {
	n := 0
	for _, m := range msgs {
		if m.Text == text {
			n++
		}
	}
	return n
}

var crashKinds = []crashKind{
	{
		name: "message",
		pick: status(api.StatusAccepted),
		queue: func(ctx context.Context, s *Store, wo *api.WorkOrder) (*OutboxRow, error) {
			return s.SendMessage(ctx, wo.WorkOrderId, "crash point: the gate code is 4711", api.VisibilityAll)
		},
		applied: func(t *testing.T, svc *service, s *Store, wo *api.WorkOrder) (bool, bool) {
			msgs, err := svc.client.ListMessages(context.Background(), wo.WorkOrderId)
			if err != nil {
				t.Fatal(err)
			}
			n := countText(msgs, "crash point: the gate code is 4711")
			if n > 1 {
				t.Errorf("the service holds the message %d times", n)
			}
			cached, _ := s.Messages(context.Background(), wo.WorkOrderId)
			return n > 0, countText(cached, "crash point: the gate code is 4711") == 1
		},
	},
	{
		// Sent twice without the service's de-duplication, a check-in is
		// refused (3001: already CheckedIn) and the row would fail.
		name: "checkIn",
		pick: status(api.StatusAccepted),
		queue: func(ctx context.Context, s *Store, wo *api.WorkOrder) (*OutboxRow, error) {
			return s.CheckIn(ctx, wo.WorkOrderId, nil, "")
		},
		applied: func(t *testing.T, svc *service, s *Store, wo *api.WorkOrder) (bool, bool) {
			local, _ := s.WorkOrder(context.Background(), wo.WorkOrderId)
			return svc.remote(t, wo.WorkOrderId).Status == api.StatusCheckedIn, local.Status == api.StatusCheckedIn
		},
	},
	{
		// Likewise a second quote submit is refused (a quote is already Submitted).
		name: "quoteSubmit",
		pick: func(wo *api.WorkOrder) bool {
			return wo.Can(api.SubmitQuote) == nil && wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == api.QuoteRequested
		},
		queue: func(ctx context.Context, s *Store, wo *api.WorkOrder) (*OutboxRow, error) {
			amount := api.Money{Amount: wo.Nte.Amount.Amount.Add(decimal.NewFromInt(300)), Currency: wo.Currency}
			return s.SubmitQuote(ctx, wo.WorkOrderId, amount, "a second technician is needed", nil)
		},
		applied: func(t *testing.T, svc *service, s *Store, wo *api.WorkOrder) (bool, bool) {
			want := wo.Nte.Amount.Amount.Add(decimal.NewFromInt(300))
			sent := func(w *api.WorkOrder) bool {
				q := w.Nte.Quote
				return q != nil && q.QuoteStatus == api.QuoteSubmitted && q.Amount.Amount.Equal(want)
			}
			local, _ := s.WorkOrder(context.Background(), wo.WorkOrderId)
			return sent(svc.remote(t, wo.WorkOrderId)), sent(local)
		},
	},
}

// TestCrashAtEachPointLosesNothingAndAppliesOnce kills the app at each
// moment of a send (before the request leaves; after the service applied it
// but before the answer arrives; after the answer arrives but before the
// outcome is committed), reopens the replica and replays. Each action, and
// the one queued behind it, reaches the service exactly once, with the
// MessageId fixed when it was queued.
func TestCrashAtEachPointLosesNothingAndAppliesOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, point := range []string{beforeSend, serviceApplied, answerReceived} {
		for _, k := range crashKinds {
			t.Run(point+"/"+k.name, func(t *testing.T) {
				t.Parallel()
				svc := newService(t, 80)
				ctx := context.Background()
				path := filepath.Join(t.TempDir(), "replica.db")
				s, _ := openAt(t, path)
				s.now = svc.sb.Clock().Now
				if err := NewSyncer(s, svc.client, SyncOptions{}).SyncNow(ctx); err != nil {
					t.Fatal(err)
				}
				wo := pick(t, s, k.pick)
				target := mustRow(t)(k.queue(ctx, s, wo))
				afterText := "crash point: queued behind " + k.name
				after := mustRow(t)(s.SendMessage(ctx, wo.WorkOrderId, afterText, api.VisibilityAll))
				s.Close()

				carries := func(r *http.Request, body []byte) bool {
					return bytes.Contains(body, []byte(target.MessageId)) || strings.Contains(r.URL.RawQuery, target.MessageId)
				}
				var applied <-chan struct{} // stays nil (never ready) but at serviceApplied
				if point == serviceApplied {
					applied = hangWhen(svc, carries)
				}
				svc.wire.reset()

				cmd, out := startCrashChild(t, svc, path, crashPointEnv+"="+point, crashTargetEnv+"="+target.MessageId)
				exited := make(chan struct{})
				go func() { cmd.Wait(); close(exited) }()
				select {
				case <-applied: // serviceApplied: power cut now
					cmd.Process.Kill()
					<-exited
				case <-exited:
					if !strings.Contains(out.String(), crashMarker) {
						t.Fatalf("the child ended without reaching its kill point:\n%s", out.String())
					}
				case <-time.After(60 * time.Second):
					cmd.Process.Kill()
					<-exited
					t.Fatalf("the child never reached its kill point:\n%s", out.String())
				}
				svc.wire.setFault(nil)

				// Counted where requests reach the service, which applies
				// every one (no de-duplication by MessageId).
				sentWith := func() (n int) {
					for _, c := range svc.sb.Requests() {
						if c.MessageId == target.MessageId {
							n++
						}
					}
					return n
				}
				wantBefore := 1
				if point == beforeSend {
					wantBefore = 0
				}
				if n := sentWith(); n != wantBefore {
					t.Fatalf("before the replay the service saw the action %d times; want %d", n, wantBefore)
				}

				s2, _ := openAt(t, path)
				s2.now = svc.sb.Clock().Now
				if r := rowState(t, s2, target.Id); r.State != OutboxSending {
					t.Fatalf("the interrupted row is %s; the child should have died with it sending", r.State)
				}
				if r := rowState(t, s2, after.Id); r.State != OutboxPending {
					t.Fatalf("the row behind it is %s; want still pending", r.State)
				}
				if atService, _ := k.applied(t, svc, s2, wo); atService != (point != beforeSend) {
					t.Fatalf("before the replay the service shows the action: %v; want %v", atService, point != beforeSend)
				}

				if _, err := NewSender(s2, svc.client, SenderOptions{Backoff: noWait}).SendReady(ctx); err != nil {
					t.Fatal(err)
				}
				for _, r := range []*OutboxRow{target, after} {
					if got := rowState(t, s2, r.Id); got.State != OutboxDone {
						t.Errorf("%s row after the replay = %s (code %d) %q; want done", got.Kind, got.State, got.ErrorCode, got.Error)
					}
				}
				// Where the service had applied it, the replay finds its effect
				// and does not send it again (de-duplication by MessageId is
				// not documented): in all, the action goes out exactly once.
				if n := sentWith(); n != 1 {
					t.Errorf("in all the service saw the action %d times with its MessageId; want once", n)
				}
				if atService, inReplica := k.applied(t, svc, s2, wo); !atService || !inReplica {
					t.Errorf("after the replay the action shows at the service: %v, in the replica: %v; want both", atService, inReplica)
				}
				msgs, err := svc.client.ListMessages(ctx, wo.WorkOrderId)
				if err != nil {
					t.Fatal(err)
				}
				if n := countText(msgs, afterText); n != 1 {
					t.Errorf("the service holds the action queued behind %d times; want once", n)
				}
			})
		}
	}
}
