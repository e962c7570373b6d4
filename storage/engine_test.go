package storage

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// TestEngineSendsAndHears runs the engine as the window does: its own
// sender delivers a queued accept with nobody stepping it, and a customer's
// NTE change reaches the replica and the listeners through its receiver.
func TestEngineSendsAndHears(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := sandboxtest.New(t, sandboxtest.RealClock())
	wo := sb.NewWorkOrder()
	info := sb.Info
	eng, err := OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), EngineOptions{Connection: api.Connection{
		BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	v, err := api.NewVerifier(info.CertPEM)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := eng.Listen("127.0.0.1:0", "/notify", eng.Receiver(v, api.ReceiverOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	sb.SetNotifyURL("http://" + addr.String() + "/notify")
	if got := eng.ReceiverStatus(); got != "on "+addr.String() {
		t.Fatalf("receiver status %q", got)
	}
	heard := make(chan api.Event, 16)
	eng.OnEvent(func(ev api.Event) { heard <- ev })

	if _, err := eng.Store.Accept(ctx, wo.WorkOrderId, ""); err != nil {
		t.Fatal(err)
	}
	// The row is done once the service accepted it; the replica follows
	// when the sender has re-read the work order, a moment later.
	waitUntil(t, "the accept to reach the service and the replica", func() bool {
		rows, _ := eng.Store.OutboxRows(ctx, wo.WorkOrderId)
		got, _ := eng.Store.WorkOrder(ctx, wo.WorkOrderId)
		return len(rows) == 1 && rows[0].State == OutboxDone && got.Status == api.StatusAccepted
	})

	if err := sb.SetNte(wo.WorkOrderId, decimal.RequireFromString("98765")); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-heard:
		if ev.Header.WorkOrderId != wo.WorkOrderId || ev.Header.Action != api.ActionNteChanged {
			t.Fatalf("heard %s on %d", ev.Header.Action, ev.Header.WorkOrderId)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notification reached the listeners")
	}
	if got, _ := eng.Store.WorkOrder(ctx, wo.WorkOrderId); !got.Nte.Amount.Amount.Equal(decimal.RequireFromString("98765")) {
		t.Fatalf("the replica's NTE is %s after NteChanged", got.Nte.Amount.Format())
	}
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
