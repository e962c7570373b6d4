package storage

import (
	"context"
	"sync"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestARefreshThatFindsNothingNewTellsNobody: opening a work order reads
// it and its details again; when the service says what the replica
// already holds, the window is not told (it drew the work order twice and
// re-read the list on every open); when it says something new, it is.
func TestARefreshThatFindsNothingNewTellsNobody(t *testing.T) {
	t.Parallel()
	svc := newService(t, 40)
	s := syncedStore(t, svc)
	ctx := context.Background()
	y := NewSyncer(s, svc.client, SyncOptions{})
	wo := pick(t, s, func(wo *api.WorkOrder) bool { return wo.Status == api.StatusCheckedOut })

	var mu sync.Mutex
	var told [][]int64
	defer s.Subscribe(func(ids []int64) { mu.Lock(); told = append(told, ids); mu.Unlock() })()
	heard := func() int { mu.Lock(); defer mu.Unlock(); n := len(told); told = nil; return n }

	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil { // the first read of its details
		t.Fatal(err)
	}
	if heard() == 0 {
		t.Fatalf("the first read of %s's details told nobody", wo.WorkOrderNumber)
	}
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	if n := heard(); n != 0 {
		t.Errorf("a refresh of %s that found nothing new told the window %d times", wo.WorkOrderNumber, n)
	}

	if err := svc.client.SendMessage(ctx, &api.MessageRequest{WorkOrderId: wo.WorkOrderId, Text: "Parts arrive Tuesday"}); err != nil {
		t.Fatal(err)
	}
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	if heard() == 0 {
		t.Errorf("a refresh of %s that found a new message told nobody", wo.WorkOrderNumber)
	}
}
