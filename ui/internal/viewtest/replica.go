package viewtest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// GeneratedReplica writes n generated work orders straight into a replica
// (PutWorkOrders in batches of 1,000, as sync does), without the sandbox
// and HTTP: 50,000 through a real first sync takes minutes on two cores.
func GeneratedReplica(tb testing.TB, n int) *storage.Store {
	tb.Helper()
	ctx := context.Background()
	store, err := storage.Open(ctx, filepath.Join(tb.TempDir(), "replica.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	statuses := []api.WorkOrderStatus{api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusCheckedOut, api.StatusVerified}
	currencies := []string{"USD", "EUR", "GBP", "JPY"}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	batch := make([]api.WorkOrder, 0, 1000)
	for i := 0; i < n; i++ {
		cur := currencies[i%len(currencies)]
		created := base.Add(time.Duration(i) * time.Minute)
		ack, due := created.Add(4*time.Hour), created.Add(7*24*time.Hour)
		batch = append(batch, api.WorkOrder{
			WorkOrderId:         int64(1_000_000 + i),
			WorkOrderNumber:     fmt.Sprintf("WO-%06d", 100000+i),
			Status:              statuses[i%len(statuses)],
			Created:             created,
			LastUpdate:          created.Add(time.Hour),
			AccompanyingMessage: "Walk-in freezer not holding temperature",
			Currency:            cur,
			Customer:            api.Customer{Id: int64(4100 + i%7), Name: fmt.Sprintf("Customer %d", i%7)},
			Nte:                 api.Nte{Amount: api.MustMoney(fmt.Sprint(i%5000), cur)},
			ServiceLocation:     &api.ServiceLocation{SpaceName: fmt.Sprintf("Store #%d", i%900)},
			Sla:                 &api.Sla{AcknowledgeBy: &ack, DueDate: &due},
		})
		if len(batch) == cap(batch) || i == n-1 {
			if err := store.PutWorkOrders(ctx, batch); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return store
}
