package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// servedWrite is one write that reached the service.
type servedWrite struct {
	route     string
	workOrder int64
	messageId string
}

// serviceLog is every write that reached the service, in the order it
// arrived: counted at the service (a sandbox that applies every repeat),
// not in its de-duplicated state.
type serviceLog struct {
	mu     sync.Mutex
	writes []servedWrite
}

func (l *serviceLog) all() []servedWrite {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]servedWrite(nil), l.writes...)
}

func (l *serviceLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.writes)
}

// serviceFault is what the service does to one call: nothing (the
// sandbox answers), or apply it and cut the connection before the answer,
// after running then (a kill of the hub, say).
type serviceFault struct {
	loseAnswer bool
	// loseRequest cuts the connection before the service reads the call:
	// the hub cannot tell it from a lost answer, but nothing was applied.
	loseRequest bool
	then        func()
}

// logWrites puts a watch on the service: every JSON write is logged, and
// fault decides, for each call (its write's arrival number, 0 for a read),
// what the service does to it.
func (o *office) logWrites(fault func(r *http.Request, n int) serviceFault) *serviceLog {
	l := &serviceLog{}
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		n := 0
		if isWrite(r) {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			var body struct {
				MessageId   string
				WorkOrderId int64
			}
			json.Unmarshal(b, &body)
			l.mu.Lock()
			l.writes = append(l.writes, servedWrite{serve.Route(r.URL.Path), body.WorkOrderId, body.MessageId})
			n = len(l.writes)
			l.mu.Unlock()
		}
		f := fault(r, n)
		if f.loseRequest {
			panic(http.ErrAbortHandler)
		}
		if !f.loseAnswer {
			return false
		}
		o.sb.Handler().ServeHTTP(httptest.NewRecorder(), r)
		if f.then != nil {
			f.then()
		}
		panic(http.ErrAbortHandler) // the connection is cut before the answer
	})
	return l
}

// plannedWrite is one write a desktop makes, with the MessageId its outbox
// fixed for it.
type plannedWrite struct {
	name      string
	workOrder int64
	messageId string
	do        func(ctx context.Context, c *api.Client, id string) error
}

// visitPlan is what a desktop does to one New work order, in order:
// accept, schedule, check in, pause, check in again, with messages
// between.
func visitPlan(person string, wo int64) []plannedWrite {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(wo%1000) * time.Minute)
	msg := func(n int) func(context.Context, *api.Client, string) error {
		return func(ctx context.Context, c *api.Client, id string) error {
			return c.SendMessage(ctx, &api.MessageRequest{WorkOrderId: wo, Text: fmt.Sprintf("%s on %d: note %d", person, wo, n),
				Envelope: api.Envelope{MessageId: id}})
		}
	}
	visit := func(call func(*api.Client, context.Context, *api.VisitRequest) error) func(context.Context, *api.Client, string) error {
		return func(ctx context.Context, c *api.Client, id string) error {
			return call(c, ctx, &api.VisitRequest{WorkOrderId: wo, Envelope: api.Envelope{MessageId: id}})
		}
	}
	steps := []struct {
		name string
		do   func(context.Context, *api.Client, string) error
	}{
		{"accept", func(ctx context.Context, c *api.Client, id string) error {
			return c.Accept(ctx, &api.AcceptRequest{WorkOrderId: wo, Envelope: api.Envelope{MessageId: id}})
		}},
		{"schedule", func(ctx context.Context, c *api.Client, id string) error {
			return c.UpdateAppointment(ctx, &api.AppointmentRequest{WorkOrderId: wo, ScheduledStart: start, Envelope: api.Envelope{MessageId: id}})
		}},
		{"message 1", msg(1)},
		{"check in", visit((*api.Client).CheckIn)},
		{"message 2", msg(2)},
		{"pause", visit((*api.Client).Pause)},
		{"check in again", visit((*api.Client).CheckIn)},
		{"message 3", msg(3)},
	}
	out := make([]plannedWrite, len(steps))
	for i, s := range steps {
		out[i] = plannedWrite{name: s.name, workOrder: wo, messageId: uuid.NewString(), do: s.do}
	}
	return out
}

// sendUntilAnswered is a desktop's outbox for one work order: each write
// in order, sent again with its MessageId after any failure that is not
// the service's refusal, until answered, as long as ctx lasts. It returns
// the writes answered 200.
func sendUntilAnswered(ctx context.Context, t *testing.T, c *api.Client, plan []plannedWrite) []plannedWrite {
	var done []plannedWrite
	for _, w := range plan {
		for {
			err := w.do(api.WithMessageId(ctx, w.messageId), c, w.messageId)
			if err == nil {
				done = append(done, w)
				break
			}
			if api.IsBusiness(err) || ctx.Err() != nil {
				t.Errorf("%s of %d (%s): %v", w.name, w.workOrder, w.messageId, err)
				return done
			}
			// The outbox's back-off: how soon it tries again, not an order of events.
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	return done
}

// checkSentOnce holds what reached the service to the desktops' plans:
// every write once, none missing, and each work order's in the order its
// desktop sent them.
func checkSentOnce(t *testing.T, plans [][]plannedWrite, served []servedWrite) {
	t.Helper()
	seen := map[string]int{}
	order := map[int64][]string{}
	for _, s := range served {
		seen[s.messageId]++
		if seen[s.messageId] == 1 {
			order[s.workOrder] = append(order[s.workOrder], s.messageId)
		}
	}
	total := 0
	for _, plan := range plans {
		var want []string
		for _, w := range plan {
			total++
			if n := seen[w.messageId]; n != 1 {
				t.Errorf("%s of work order %d reached the service %d times, want once", w.name, w.workOrder, n)
			}
			want = append(want, w.messageId)
		}
		if got := order[plan[0].workOrder]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("work order %d: the service took its writes in another order than they were sent", plan[0].workOrder)
		}
	}
	if len(served) != total {
		t.Errorf("%d writes reached the service for %d sent", len(served), total)
	}
}

// checkRecorded holds that each write answered 200 has its audit row
// (status 200) and its event.
func checkRecorded(t *testing.T, o *office, answered []plannedWrite) {
	t.Helper()
	ctx := context.Background()
	for _, w := range answered {
		var audits, events int
		if err := o.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit WHERE message_id = $1 AND status = 200`, w.messageId).Scan(&audits); err != nil {
			t.Fatal(err)
		}
		if err := o.db.Pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE message_id = $1`, w.messageId).Scan(&events); err != nil {
			t.Fatal(err)
		}
		if audits != 1 || events != 1 {
			t.Errorf("%s of %d, answered 200: %d audit rows and %d events, want one of each", w.name, w.workOrder, audits, events)
		}
	}
}
