package hub

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// serviceReads counts the reads that reached the service, by path.
type serviceReads struct {
	mu sync.Mutex
	n  map[string]int
}

func (o *office) countReads() *serviceReads {
	c := &serviceReads{n: map[string]int{}}
	o.setIntercept(func(_ http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet {
			c.mu.Lock()
			c.n[strings.ToLower(strings.TrimRight(r.URL.Path, "/"))]++
			c.mu.Unlock()
		}
		return false
	})
	return c
}

// total counts the reads that reached the service but those of paths
// except (the sync's own reads of work orders, say).
func (c *serviceReads) total(except ...string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p, k := range c.n {
		skip := false
		for _, e := range except {
			skip = skip || p == e
		}
		if !skip {
			n += k
		}
	}
	return n
}

// firstSyncDone waits for the leading instance among ins to finish its
// first sync, which would otherwise refresh stored answers in the middle
// of a test counting the service's calls.
func firstSyncDone(t *testing.T, ins ...*instance) {
	t.Helper()
	waitFor(t, 30*time.Second, "the first sync", func() bool {
		n := int64(0)
		for _, in := range ins {
			n += in.hub.Syncs()
		}
		return n > 0
	})
}

// direct is a client of the service itself, with the company's credentials.
func (o *office) direct() *api.Client {
	o.t.Helper()
	c, err := api.NewClient(o.info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: o.info.TokenURL, ClientID: o.info.ClientID, ClientSecret: o.info.ClientSecret}))
	if err != nil {
		o.t.Fatal(err)
	}
	return c
}

// richWorkOrder finds a work order of the generated world with something
// in each of the reads: messages, attachments, an invoice, a step with
// attachments.
func richWorkOrder(t *testing.T, o *office) (*api.WorkOrder, api.StepRef) {
	t.Helper()
	ctx := context.Background()
	svc := o.direct()
	found, err := svc.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(found); start += api.MaxReadBatch {
		var ids []int64
		for _, w := range found[start:min(start+api.MaxReadBatch, len(found))] {
			ids = append(ids, w.WorkOrderId)
		}
		wos, err := svc.GetWorkOrders(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		for i := range wos {
			wo := &wos[i]
			if !wo.InvoiceVisible() || len(wo.Procedures()) == 0 {
				continue
			}
			for _, p := range wo.Procedures() {
				for _, st := range p.Steps {
					ref := api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: st.Id}
					if atts, err := svc.ListStepAttachments(ctx, ref); err == nil && len(atts) > 0 {
						return wo, ref
					}
				}
			}
		}
	}
	t.Fatal("no work order with step attachments and an invoice in the world")
	return nil, api.StepRef{}
}

// readPaths are the reads answered from PostgreSQL, as a desktop's client asks them.
func readPaths(wo *api.WorkOrder, ref api.StepRef) []string {
	id := strconv.FormatInt(wo.WorkOrderId, 10)
	return []string{
		"api/messages?workOrderId=" + id,
		"api/attachments?workOrderId=" + id,
		"api/invoice?workOrderId=" + id,
		"api/invoice/pricelist?workOrderId=" + id,
		"api/invoice/attachments?workOrderId=" + id,
		"api/procedure/step/attachments?" + url.Values{"workOrderId": {id},
			"procedureId": {strconv.FormatInt(ref.ProcedureId, 10)}, "stepId": {strconv.FormatInt(ref.StepId, 10)}}.Encode(),
		"api/customerSettings?customerId=" + strconv.FormatInt(wo.Customer.Id, 10),
	}
}

// getJSON reads base+path with a bearer token and messageId=m.
func getJSON(t *testing.T, base, path, tok, m string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, strings.TrimRight(base, "/")+"/"+path+"&messageId="+m, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("GET %s: HTTP %d, not JSON: %v", path, resp.StatusCode, err)
	}
	return resp.StatusCode, out
}

func companyToken(t *testing.T, o *office) string {
	t.Helper()
	tok, err := api.NewClientCredentials(api.CredentialsConfig{TokenURL: o.info.TokenURL, ClientID: o.info.ClientID,
		ClientSecret: o.info.ClientSecret}).Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// Messages, attachment lists, the invoice, the price list, step
// attachments and customer settings reach a desktop through the hub as the
// service gives them; the service is asked once, and once it is down the
// hub still answers them. A read never fetched is a 503 then, and so is a
// download link: those are never stored.
func TestStoredReadsAnswerWithoutTheService(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	firstSyncDone(t, a)
	_, creds := o.person(a, "Ana Ruiz")
	wo, ref := richWorkOrder(t, o)
	hubTok, svcTok := token(t, a, creds), companyToken(t, o)
	calls := o.countReads()
	want := map[string]map[string]any{}
	for _, p := range readPaths(wo, ref) {
		status, fromSvc := getJSON(t, o.info.BaseURL, p, svcTok, "m-direct")
		if status != http.StatusOK {
			t.Fatalf("the service answers %s with HTTP %d", p, status)
		}
		delete(fromSvc, "MessageId")
		want[p] = fromSvc
	}
	direct := calls.total("/api/workorder")
	for round := range 2 {
		for _, p := range readPaths(wo, ref) {
			status, got := getJSON(t, a.srv.URL, p, hubTok, "m-hub")
			if status != http.StatusOK || got["MessageId"] != "m-hub" {
				t.Fatalf("round %d, %s through the hub: HTTP %d, MessageId %v", round, p, status, got["MessageId"])
			}
			delete(got, "MessageId")
			if !reflect.DeepEqual(got, want[p]) {
				t.Fatalf("round %d, %s through the hub:\n got %v\nwant %v", round, p, got, want[p])
			}
		}
	}
	if n := calls.total("/api/workorder") - direct; n != len(want) {
		t.Fatalf("two rounds of %d reads through the hub cost the service %d calls, want one each", len(want), n)
	}

	o.svc.Close()
	for _, p := range readPaths(wo, ref) {
		status, got := getJSON(t, a.srv.URL, p, hubTok, "m-down")
		delete(got, "MessageId")
		if status != http.StatusOK || !reflect.DeepEqual(got, want[p]) {
			t.Fatalf("%s with the service down: HTTP %d %v", p, status, got)
		}
	}
	other := "api/messages?workOrderId=" + strconv.FormatInt(wo.WorkOrderId+1, 10)
	if status, _ := getJSON(t, a.srv.URL, other, hubTok, "m-never"); status != http.StatusServiceUnavailable {
		t.Fatalf("a read never fetched, with the service down: HTTP %d, want 503", status)
	}
	link := "api/attachments/downloadUrl?workOrderId=" + strconv.FormatInt(wo.WorkOrderId, 10) + "&attachmentId=a1"
	if status, _ := getJSON(t, a.srv.URL, link, hubTok, "m-link"); status != http.StatusServiceUnavailable {
		t.Fatalf("a download link with the service down: HTTP %d, want 503", status)
	}
}

// What a desktop reads after a write, a notification or a sync shows the
// change, and keeps showing it with the service down: the hub refreshed
// its stored answer then, not when asked.
func TestStoredReadsFollowWritesNotificationsAndSyncs(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	firstSyncDone(t, a, b)
	ana, _ := o.person(a, "Ana Ruiz")
	bo, _ := o.person(b, "Bo Chen")
	ctx := context.Background()
	id := newWorkOrder(t, o)
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	texts := func(c *api.Client) []string {
		t.Helper()
		msgs, err := c.ListMessages(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range msgs {
			out = append(out, m.Text)
		}
		return out
	}
	has := func(list []string, text string) bool {
		for _, s := range list {
			if s == text {
				return true
			}
		}
		return false
	}
	texts(bo) // stored now, through instance B
	calls := o.countReads()

	// A write through A refreshes what B serves.
	if err := ana.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "through the hub"}); err != nil {
		t.Fatal(err)
	}
	before := calls.total("/api/workorder")
	if got := texts(bo); !has(got, "through the hub") {
		t.Fatalf("messages read through B after Ana's message through A: %q", got)
	}
	if n := calls.total("/api/workorder") - before; n != 0 {
		t.Fatalf("reading the messages after the write cost the service %d calls, want none", n)
	}

	// A change the hub did not make: the service's notification about it.
	svc := o.direct()
	if err := svc.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "behind the hub's back"}); err != nil {
		t.Fatal(err)
	}
	if got := texts(bo); has(got, "behind the hub's back") {
		t.Fatal("the stored answer changed before anything told the hub")
	}
	postNotification(t, o, a, id)
	if got := texts(bo); !has(got, "behind the hub's back") {
		t.Fatalf("messages after a notification about the work order: %q", got)
	}

	// And one that only a sync sees.
	if err := svc.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "seen by the sync"}); err != nil {
		t.Fatal(err)
	}
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	o.svc.Close()
	if got := texts(bo); !has(got, "seen by the sync") || !has(got, "through the hub") {
		t.Fatalf("messages after a sync, the service down: %q", got)
	}
}

// A fetch that began before another never overwrites the other's answer:
// a slow read from before a write cannot undo the refresh that followed it.
func TestAnOlderFetchNeverOverwritesANewerAnswer(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	ctx := context.Background()
	if err := o.db.StoreWorkOrders(ctx, []api.WorkOrder{{WorkOrderId: 42, LastUpdate: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	ref, _ := refOf("/api/messages", url.Values{"workOrderId": {"42"}})
	older, err := o.db.nextReadVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	newer, _ := o.db.nextReadVersion(ctx)
	if err := o.db.storeRead(ctx, ref, newer, 200, []byte(`{"Messages":[{"Text":"new"}]}`)); err != nil {
		t.Fatal(err)
	}
	if err := o.db.storeRead(ctx, ref, older, 200, []byte(`{"Messages":[]}`)); err != nil {
		t.Fatal(err)
	}
	if err := o.db.markReadStale(ctx, ref, older); err != nil {
		t.Fatal(err)
	}
	got, found, err := o.db.storedRead(ctx, ref)
	if err != nil || !found || got.stale || !strings.Contains(string(got.body), "new") {
		t.Fatalf("stored after an older fetch: %s (stale %v), %v", got.body, got.stale, err)
	}
}
