package storage

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Reads that show one thing from two queries must take them from one
// state of the replica: a sync writing between them would otherwise show
// a mix of before and after.

// TestPendingReadsTheWorkOrderOnce: with nothing queued, the status shown
// is never marked as one queued actions will give, however the syncs
// writing the work order meanwhile fall between the reads.
func TestPendingReadsTheWorkOrderOnce(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	spec := woSpec{id: 7, number: "WO-7", customer: "Northwind Retail", status: api.StatusAccepted}
	put(t, s, spec)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			spec.status = api.StatusAccepted
			if i%2 == 1 {
				spec.status = api.StatusCheckedIn
			}
			if err := s.PutWorkOrders(ctx, []api.WorkOrder{mkWO(spec)}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		p, err := s.Pending(ctx, spec.id)
		if err != nil {
			t.Fatal(err)
		}
		if p.StatusQueued() {
			t.Fatalf("nothing is queued, yet the status %s shows as queued over the replica's %s", p.Expected.Status, p.Replica.Status)
		}
	}
}

// TestThreadShowsASentMessageOnce: a message of ours that went out is
// shown from the outbox until a read of the thread holds it, and then from
// the thread: once either way, whichever read of the thread the window
// meets.
func TestThreadShowsASentMessageOnce(t *testing.T) {
	t.Parallel()
	svc := newService(t, 40)
	s := syncedStore(t, svc)
	ctx := context.Background()
	a := pick(t, s, status(api.StatusAccepted))
	const text = "Technician on site at 10"
	row := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, text, api.VisibilityAll))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	sent := rowState(t, s, row.Id)
	if sent.State != OutboxDone {
		t.Fatalf("the message is %s", sent.State)
	}
	before, after := []api.Message{}, []api.Message{{WorkOrderId: a.WorkOrderId, Text: text, MessageVisibility: api.VisibilityAll}}
	sentAt := sent.Updated.UnixMilli()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// A read of the thread from before the message went out, then one after.
			msgs, at := before, sentAt-1
			if i%2 == 1 {
				msgs, at = after, sentAt+1
			}
			if err := putMessages(ctx, s.w, a.WorkOrderId, msgs, at); err != nil {
				t.Error(err)
				return
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		th, err := s.Thread(ctx, a.WorkOrderId)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range th {
			if m.Text == text {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the sent message is in the thread %d times", n)
		}
	}
}
