package viewtest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// demo is the replica holding the first sync of the demo world (seed 1),
// synced once per test binary into a folder Main removes; demoDir is that
// folder ("" until the first DemoReplica).
var (
	demoOnce sync.Once
	demoPath string
	demoErr  error
	demoDir  string
)

// DemoReplica is a replica of its own holding the demo world as the
// window's demo mode syncs it (seed 1, the sandbox's clock at now; the
// first call's now serves the whole test binary), its clock at now.
func DemoReplica(tb testing.TB, now func() time.Time) *storage.Store {
	tb.Helper()
	demoOnce.Do(func() { demoPath, demoErr = syncDemo(now) })
	if demoErr != nil {
		tb.Fatalf("the first sync of the demo world: %v", demoErr)
	}
	b, err := os.ReadFile(demoPath)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "replica.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tb.Fatal(err)
	}
	store, err := storage.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	store.SetClock(now) // what is late or due soon, as of the demo world's now
	return store
}

// syncDemo syncs the demo world into a replica file of its own.
func syncDemo(now func() time.Time) (string, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "workdesk-view-test-")
	if err != nil {
		return "", err
	}
	demoDir = dir
	sb, err := sandbox.New(sandbox.Options{Seed: 1, Now: now})
	if err != nil {
		return "", err
	}
	defer sb.Close()
	srv := httptest.NewServer(sb.Handler())
	defer srv.Close()
	info := sb.InfoFor(srv.URL + "/")
	path := filepath.Join(dir, "replica.db")
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{
		Connection: api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret},
		Now:        now,
		ManualSend: true,
	})
	if err != nil {
		return "", err
	}
	defer eng.Close() // folds the WAL into the file: the replica is one file
	return path, eng.SyncNow(ctx, nil)
}

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
