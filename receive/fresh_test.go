package receive

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestReceiveOnAFreshMachine runs `workdesk receive` as an integrator
// would on a fresh machine, against a started sandbox that sends real
// notifications: a valid QuoteChanged and NteChanged about a work order
// the (empty) replica does not hold are each printed once. With the
// connection in the environment, the next one is also re-read: the
// replica then holds the work order as the service has it.
func TestReceiveOnAFreshMachine(t *testing.T) {
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	info, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.pem")
	if err := sb.WriteCert(cert); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "fresh.db")
	for _, k := range []string{"WORKDESK_BASE_URL", "WORKDESK_TOKEN_URL", "WORKDESK_CLIENT_ID", "WORKDESK_CLIENT_SECRET", "WORKDESK_CERT"} {
		t.Setenv(k, "")
	}

	// A work order whose customer takes quotes, found through the API.
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret})
	c, err := api.NewClient(info.BaseURL, nil, tokens)
	if err != nil {
		t.Fatal(err)
	}
	found, err := c.SearchWorkOrders(ctx, api.SearchParameters{Statuses: []api.WorkOrderStatus{api.StatusAccepted}})
	if err != nil || len(found) == 0 {
		t.Fatalf("search: %d, %v", len(found), err)
	}

	run := func(act func(id int64) int64) (stdout string) {
		t.Helper()
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		code, out, stderr := receiveRun(t, runCtx, []string{"--addr", "127.0.0.1:0", "--cert", cert, "--db", db}, func(addr net.Addr) {
			sb.SetNotifyURL("http://" + addr.String() + "/")
			go func() {
				defer stop()
				want := act(0)
				for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
					if st := sb.NotifyStats(); st.Queued == 0 && st.Delivered >= int(want) {
						return
					}
				}
				t.Error("the sandbox's notifications were not delivered")
			}()
		})
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return out
	}
	var woID int64
	out := run(func(int64) int64 {
		for _, wo := range found {
			if sb.Act(wo.WorkOrderId, api.ActionQuoteChanged, sandbox.ActOptions{}) == nil {
				woID = wo.WorkOrderId
				break
			}
		}
		if err := sb.Act(woID, api.ActionNteChanged, sandbox.ActOptions{}); err != nil {
			t.Error(err)
		}
		return 2
	})
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var line struct {
			Action      string `json:"action"`
			WorkOrderId int64  `json:"work_order_id"`
		}
		if json.Unmarshal([]byte(l), &line) != nil || line.WorkOrderId != woID {
			t.Fatalf("stdout %q: a line that is not about work order %d", out, woID)
		}
		got = append(got, line.Action)
	}
	if strings.Join(got, ",") != api.ActionQuoteChanged+","+api.ActionNteChanged {
		t.Fatalf("printed %v, want QuoteChanged then NteChanged", got)
	}

	t.Setenv("WORKDESK_BASE_URL", info.BaseURL)
	t.Setenv("WORKDESK_TOKEN_URL", info.TokenURL)
	t.Setenv("WORKDESK_CLIENT_ID", info.ClientID)
	t.Setenv("WORKDESK_CLIENT_SECRET", info.ClientSecret)
	out = run(func(int64) int64 {
		if err := sb.Act(woID, api.ActionNteChanged, sandbox.ActOptions{}); err != nil {
			t.Error(err)
		}
		return 3
	})
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("stdout %q, want one line", out)
	}
	store, err := storage.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	wo, err := store.WorkOrder(ctx, woID)
	if err != nil {
		t.Fatalf("the re-read did not bring the work order into the replica: %v", err)
	}
	want, _ := c.GetWorkOrder(ctx, woID)
	if !wo.Nte.Amount.Amount.Equal(want.Nte.Amount.Amount) {
		t.Fatalf("the replica's NTE is %s, the service's %s", wo.Nte.Amount.Format(), want.Nte.Amount.Format())
	}
}
