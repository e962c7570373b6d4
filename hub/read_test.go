package hub

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// After a sync, a desktop's search and reads through the hub give what the
// service gives, and keep working while the service is down: they are
// answered from PostgreSQL.
func TestReadsComeFromTheReplica(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{WorkOrders: 120})
	a := o.start(nil)
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	direct, err := api.NewClient(o.info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: o.info.TokenURL, ClientID: o.info.ClientID, ClientSecret: o.info.ClientSecret}))
	if err != nil {
		t.Fatal(err)
	}
	want, err := direct.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(want))
	for i, w := range want {
		ids[i] = w.WorkOrderId
	}
	wantFull, err := direct.GetWorkOrders(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}

	ana, _ := o.person(a, "Ana Ruiz")
	o.svc.Close() // the service is gone: reads must not need it
	got, err := ana.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("search through the hub: %d work orders, the service has %d", len(got), len(want))
	}
	for i := range want {
		if got[i].WorkOrderId != want[i].WorkOrderId || !got[i].LastUpdate.Equal(want[i].LastUpdate) || got[i].Status != want[i].Status {
			t.Fatalf("search item %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	gotFull, err := ana.GetWorkOrders(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	for i := range wantFull {
		if string(gotFull[i].RawJSON()) != string(wantFull[i].RawJSON()) {
			t.Fatalf("work order %d differs:\n hub %s\nwant %s", wantFull[i].WorkOrderId, gotFull[i].RawJSON(), wantFull[i].RawJSON())
		}
	}

	// Filters behave as the service's: by status, by number, by LastUpdate.
	st := want[0].Status
	byStatus, err := ana.SearchWorkOrders(ctx, api.SearchParameters{Statuses: []api.WorkOrderStatus{st}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range want {
		if w.Status == st {
			n++
		}
	}
	if len(byStatus) != n {
		t.Fatalf("status %s: %d work orders, want %d", st, len(byStatus), n)
	}
	one, err := ana.SearchWorkOrders(ctx, api.SearchParameters{WorkOrderNumber: strings.ToLower(want[3].WorkOrderNumber)})
	if err != nil || len(one) != 1 || one[0].WorkOrderId != want[3].WorkOrderId {
		t.Fatalf("by number: %+v, %v", one, err)
	}
	from := want[len(want)-1].LastUpdate
	recent, err := ana.SearchWorkOrders(ctx, api.SearchParameters{LastUpdate: &api.DateRange{From: &from}})
	if err != nil || len(recent) == 0 || recent[len(recent)-1].WorkOrderId != want[len(want)-1].WorkOrderId {
		t.Fatalf("by LastUpdate: %d, %v", len(recent), err)
	}
}

// A malformed request gets the service's error body and nothing else.
func TestMalformedReadsGetTheServiceErrorBody(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPost, "/api/workOrder/search", `{"Parameters":`},
		{http.MethodPost, "/api/workOrder/search", `{"Parameters":{"Statuses":["Nope"]}}`},
		{http.MethodGet, "/api/workOrder?ids=abc", ""},
		{http.MethodGet, "/api/workOrder", ""},
		{http.MethodGet, "/api/workOrder?ids=" + strings.Repeat("1,", 50) + "1", ""},
	} {
		req, _ := http.NewRequest(c.method, a.srv.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e api.Error
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || err != nil || e.Code != api.CodeInvalidModel || e.MessageId == "" {
			t.Errorf("%s %s: HTTP %d %+v (%v), want 400 with code 2100", c.method, c.path, resp.StatusCode, e, err)
		}
	}
}

// The syncing instance is killed (SIGKILL: no goodbye to the database):
// another takes the sync over at its next try (every LeaderPoll, 5 s by
// default: within 15 s), the killed one's lock gone with its session.
func TestSyncMovesToAnotherInstanceWhenOneIsKilled(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.startChild(t)
	b := o.start(func(opts *Options) { opts.SyncEvery = 200 * time.Millisecond; opts.LeaderPoll = 200 * time.Millisecond })
	waitFor(t, 10*time.Second, "instance B trying for the sync lock", func() bool { return b.hub.leadTries.Load() > 0 })
	// B cannot take the lock while A lives.
	if conn := b.hub.tryLead(context.Background()); conn != nil {
		conn.Close(context.Background())
		t.Fatal("a second instance took the sync lock while the first holds it")
	}
	if b.hub.Leading() || b.hub.Syncs() != 0 {
		t.Fatal("two instances sync at once")
	}
	if err := a.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	died := time.Now()
	waitFor(t, 10*time.Second, "instance B taking over the sync", func() bool { return b.hub.Syncs() > 0 })
	t.Logf("sync resumed on B %v after A was killed", time.Since(died).Round(time.Millisecond))
}

func waitFor(t testing.TB, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	// The limit only tells a hang from a wait: on a loaded machine
	// (several test processes on two cores) writes and sign-ins have taken
	// well over 10 s, so none is shorter than a minute.
	limit = max(limit, time.Minute)
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
