package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// serviceCalls counts every call that reaches the service (the token
// endpoint's too), and the ids each GET /api/workOrder asked for.
type serviceCalls struct {
	n       atomic.Int64
	mu      sync.Mutex
	batches []int
	// paths counts the calls by path, lower case.
	paths map[string]int
	// hold, when set, keeps each GET /api/workOrder waiting until it closes.
	hold atomic.Pointer[chan struct{}]
}

func (o *office) countCalls() *serviceCalls {
	c := &serviceCalls{paths: map[string]int{}}
	o.setIntercept(func(_ http.ResponseWriter, r *http.Request) bool {
		c.n.Add(1)
		c.mu.Lock()
		c.paths[strings.ToLower(strings.TrimRight(r.URL.Path, "/"))]++
		c.mu.Unlock()
		if r.Method == http.MethodGet && strings.EqualFold(strings.TrimRight(r.URL.Path, "/"), "/api/workOrder") {
			c.mu.Lock()
			c.batches = append(c.batches, len(r.URL.Query()["ids"]))
			c.mu.Unlock()
			if h := c.hold.Load(); h != nil {
				<-*h
			}
		}
		return false
	})
	return c
}

// byPath is how many calls reached each path.
func (c *serviceCalls) byPath() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.paths)
}

func (c *serviceCalls) readBatches() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.batches...)
}

// senderClients are HTTP clients from n loopback addresses, each of a /24
// of its own.
func senderClients(n int) []*http.Client {
	var out []*http.Client
	for i := range n {
		out = append(out, httpFrom(fmt.Sprintf("127.0.%d.1", i+1)))
	}
	return out
}

// postNotice posts a notification as notifyWith does, from any goroutine:
// a failure to post is a status of 0.
func postNotice(client *http.Client, url, tok string, body []byte) int {
	var ev struct{ Header struct{ Action string } }
	json.Unmarshal(body, &ev)
	req, _ := http.NewRequest(http.MethodPost, url+"/notify", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Event-Type", ev.Header.Action)
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// announce has the hub tell desktops of new work orders ids, as the
// customer's NewWorkOrder notifications do: until then a notification of
// one of them makes an event, since the sync that stored it told no one.
func announce(t testing.TB, o *office, in *instance, ids []int64) {
	t.Helper()
	tok := notificationToken(t, o)
	var wg sync.WaitGroup
	// At most 16 at once: one address holds only so many anonymous
	// connections (a few hundred at once would be refused).
	limit := make(chan struct{}, 16)
	for _, id := range ids {
		wg.Add(1)
		limit <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-limit }()
			if status := postNotice(nil, in.srv.URL, tok, notice(t, id, api.ActionNewWorkOrder, nil)); status != http.StatusOK {
				t.Errorf("announcing work order %d: HTTP %d", id, status)
			}
		}()
	}
	wg.Wait()
}

// notice is a signed notification of action about id (0: a header
// only), with body's fields.
func notice(t testing.TB, id int64, action string, body any) []byte {
	t.Helper()
	b, err := api.MarshalEvent(api.EventHeader{WorkOrderId: id, Action: action, ActionDate: time.Now().UTC(), MessageId: uuid.NewString()}, body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// eventsHeard counts what a stream hears until the test ends.
func eventsHeard(ch <-chan sseEvent) (count func() int, all func() []HubEvent) {
	var mu sync.Mutex
	var got []HubEvent
	go func() {
		for ev := range ch {
			var he HubEvent
			json.Unmarshal([]byte(ev.Data), &he)
			mu.Lock()
			got = append(got, he)
			mu.Unlock()
		}
	}()
	return func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(got)
		}, func() []HubEvent {
			mu.Lock()
			defer mu.Unlock()
			return append([]HubEvent(nil), got...)
		}
}

// warm has the hub read and keep each part a notification may touch of
// ids, as desktops opening their tabs would.
func warm(t testing.TB, in *instance, tok string, ids []int64) {
	t.Helper()
	for _, id := range ids {
		for _, p := range []string{"/api/messages", "/api/attachments", "/api/invoice", "/api/workOrder/noteHistory", "/api/procedure"} {
			req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s%s?workOrderId=%d", in.srv.URL, p, id), nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
	}
}

// 300 notifications in under 2 s under a captured token, naming five work
// orders the hub holds (with what desktops have read of them) and whose
// records did not change, and an unknown one, under every documented
// action, with forged invoice facts: each is answered 200, and all of them
// cost at most 60 calls at the service and stream no event at all (at
// most 60 is the target). /metrics counts what was folded together.
func TestSecurityForgedNotificationFloodCostsLittle(t *testing.T) {
	// Not parallel: its 2 s are counted.
	f := forgedFlood(t, 5, true, 300, 1500*time.Millisecond)
	if f.refused > 0 {
		t.Errorf("%d of 300 notifications under a token the service signed were not answered 200", f.refused)
	}
	t.Logf("300 sent in %v, all answered in %v: %d calls at the service (GET /api/workOrder with %v ids), %d events",
		f.sent, f.answered, f.calls, f.batches, len(f.events))
	if f.calls > 60 {
		t.Errorf("300 notifications cost %d calls at the service, want at most 60", f.calls)
	}
	if len(f.events) > 0 {
		t.Errorf("300 notifications of nothing new streamed %d events, want none: %+v", len(f.events), f.events)
	}
	if folded, _ := metricValue(f.metrics, "workdesk_hub_notifications_coalesced_total"); folded < 200 {
		t.Errorf("/metrics counts %v notifications folded into another's re-read, want most of 300", folded)
	}
	if unknown, _ := metricValue(f.metrics, `workdesk_hub_notification_rereads_total{result="unknown"}`); unknown < 1 {
		t.Errorf("/metrics counts %v re-reads of a work order the service does not know, want at least 1", unknown)
	}
}

// 300 notifications in under 2 s under a captured token, naming 20 or
// 300 work orders the hub holds (with what desktops have read of them)
// whose records did not change, every documented action in turn: the
// service has no read of a part (messages, invoice, ...) of many work
// orders, so each part of a work order a notification names costs a call
// of its own, and no fewer is honest (a real message must still be
// streamed). What is asked of the service is that and no more: each part
// named of each work order read at least once and at most twice (named
// again after its first re-read began), no part not named read, the work
// orders read together (up to 50 a call, a batch at most every
// noticeBatchEvery), and nothing streamed.
func TestSecurityForgedNotificationsNamingManyWorkOrdersReadWhatTheyName(t *testing.T) {
	// Not parallel: their 2 s are counted.
	for _, wos := range []int{20, 300} {
		t.Run(fmt.Sprintf("naming-%d", wos), func(t *testing.T) {
			over := 1500 * time.Millisecond
			f := forgedFlood(t, wos, true, 300, over)
			named := 0
			for _, n := range f.named {
				named += n
			}
			t.Logf("300 naming %d work orders, sent in %v, all answered in %v: %d calls at the service (%v; GET /api/workOrder with %v ids), %d parts of work orders named, %d events",
				wos, f.sent, f.answered, f.calls, f.paths, f.batches, named, len(f.events))
			if f.refused > 0 {
				t.Errorf("%d of 300 notifications under a token the service signed were not answered 200", f.refused)
			}
			if len(f.events) > 0 {
				t.Errorf("300 notifications of nothing new streamed %d events, want none: %+v", len(f.events), f.events)
			}
			for path, n := range f.named {
				if got := f.paths[path]; got < n || got > 2*n {
					t.Errorf("%s: %d calls for %d work orders named, want each read once or twice", path, got, n)
				}
			}
			for path, got := range f.paths {
				if f.named[path] == 0 && path != "/api/workorder" {
					t.Errorf("%s: %d calls, for no notification that names what it reads", path, got)
				}
			}
			// The first batch begins at once, the rest at most every
			// noticeBatchEvery while the flood lasts; once more for the
			// notifications folded into a second re-read; more only for
			// work orders past 50 a call.
			most := int(over/noticeBatchEvery) + 2 + (wos+api.MaxReadBatch-1)/api.MaxReadBatch
			if len(f.batches) > most {
				t.Errorf("%d reads of work orders (%v ids), want at most %d", len(f.batches), f.batches, most)
			}
			for _, n := range f.batches {
				if n > api.MaxReadBatch {
					t.Errorf("a read of %d work orders at once, want at most %d", n, api.MaxReadBatch)
				}
			}
			if want := int64(2*named + most); f.calls > want {
				t.Errorf("%d calls at the service, want at most %d (the parts named, twice, and the reads of work orders)", f.calls, want)
			}
		})
	}
}

// flood is what a flood of forged notifications came to.
type flood struct {
	sent, answered time.Duration
	refused        int64
	calls          int64
	batches        []int
	paths          map[string]int
	// named is, by the path that reads it, how many work orders the
	// service knows had a part named by a notification's action.
	named   map[string]int
	events  []HubEvent
	metrics string
}

// forgedFlood sends n notifications evenly over the time given, under a
// captured token, naming wos work orders the hub holds (warmed: with what
// desktops have read of them) and, one in 50, one the service does not
// know; every documented action in turn, forged invoice facts on
// InvoiceStatusChanged. It counts what reached the service and the
// stream.
func forgedFlood(t testing.TB, wos int, warmed bool, n int, over time.Duration) flood {
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	var ids []int64
	for range wos {
		ids = append(ids, newWorkOrder(t, o))
	}
	if err := a.hub.SyncNow(context.Background()); err != nil {
		t.Fatal(err)
	}
	announce(t, o, a, ids)
	if warmed {
		warm(t, a, token(t, a, creds), ids)
	}
	heard, all := eventsHeard(openStream(t, a, creds, ""))
	calls := o.countCalls()
	captured := notificationToken(t, o)
	amount := api.Money{Amount: decimal.RequireFromString("99999.99"), Currency: "USD"}
	var bodies [][]byte
	named := map[[2]string]bool{} // path, work order
	for i := range n {
		action := api.DocumentedActions[i%len(api.DocumentedActions)]
		id := ids[i%len(ids)]
		if i%50 == 7 {
			id = 987654321 // a work order the service does not know
		}
		var body any
		if action == api.ActionInvoiceStatusChanged {
			body = &api.InvoiceStatusChangedEvent{Status: api.InvoicePaid, AuthNumber: "FORGED-AUTH-1", Amount: &amount, Comment: "pay to account 1234"}
		}
		bodies = append(bodies, forged(t, id, action, body))
		for _, p := range partReads {
			if id != 987654321 && notificationParts(action)&p.part != 0 {
				named[[2]string{strings.ToLower(p.kind), strconv.FormatInt(id, 10)}] = true
			}
		}
	}
	// From six addresses (each a /24 of its own), as one address may
	// hold only so many anonymous connections at once.
	senders := senderClients(6)
	var wg sync.WaitGroup
	var refused atomic.Int64
	start := time.Now()
	for i, b := range bodies {
		time.Sleep(time.Until(start.Add(time.Duration(i) * over / time.Duration(n))))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status := postNotice(senders[i%len(senders)], a.srv.URL, captured, b); status != http.StatusOK {
				refused.Add(1)
			}
		}()
	}
	f := flood{sent: time.Since(start).Round(time.Millisecond)}
	wg.Wait()
	f.answered = time.Since(start).Round(time.Millisecond)
	time.Sleep(200 * time.Millisecond) // what is stored reaches the stream at once
	heard()
	f.refused, f.calls, f.batches, f.paths, f.events = refused.Load(), calls.n.Load(), calls.readBatches(), calls.byPath(), all()
	f.metrics = scrape(t, a.srv.URL)
	f.named = map[string]int{}
	for k := range named {
		f.named[k[0]]++
	}
	return f
}

// /notify takes the 27 documented actions (and the two other spellings
// the documentation's samples use); refuses the hub's own names (400),
// logged and with no call to the service; answers an unknown action 200
// and re-reads its work order, telling no desktop; and a notification of a
// work order the service does not know, or of a work order's action naming
// none, streams nothing. The first event any desktop hears afterwards is a
// real change's.
func TestSecurityNotifyTakesTheDocumentedActionsOnly(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	logs := &logBuffer{}
	a := o.start(func(opts *Options) { opts.Logger = logs.logger() })
	_, creds := o.person(a, "Ana Ruiz")
	documented, unknown, control := newWorkOrder(t, o), newWorkOrder(t, o), newWorkOrder(t, o)
	if err := a.hub.SyncNow(context.Background()); err != nil {
		t.Fatal(err)
	}
	announce(t, o, a, []int64{documented, unknown, control})
	stream := openStream(t, a, creds, "")
	tok := notificationToken(t, o)
	if len(api.DocumentedActions) != 27 {
		t.Fatalf("%d documented actions, want the 27 of service-facts §9.3", len(api.DocumentedActions))
	}
	warm(t, a, token(t, a, creds), []int64{documented})
	// All at once: one after another, each would wait for the re-read of
	// the one before.
	var wg sync.WaitGroup
	for _, action := range append(api.DocumentedActions, "ProcedureStepUpdated", "AdditionalFieldsDescriptorsUpdated") {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status := postNotice(nil, a.srv.URL, tok, notice(t, documented, action, nil)); status != http.StatusOK {
				t.Errorf("%s: HTTP %d, want 200", action, status)
			}
		}()
	}
	wg.Wait()
	calls := o.countCalls()
	for _, action := range []string{"AcceptedByContractor", "CheckedInByContractor", "MessageSentByContractor", "StepUpdatedByContractor", "acceptedbycontractor"} {
		if status := notifyWith(t, nil, a.srv.URL, tok, notice(t, documented, action, nil), ""); status != http.StatusBadRequest {
			t.Errorf("the hub's own %s from /notify: HTTP %d, want 400", action, status)
		}
	}
	if n := calls.n.Load(); n != 0 {
		t.Errorf("the hub's own names from /notify cost %d calls at the service, want none", n)
	}
	if err := o.sb.SetNte(unknown, decimal.NewFromInt(4321)); err != nil {
		t.Fatal(err)
	}
	if status := notifyWith(t, nil, a.srv.URL, tok, notice(t, unknown, "WorkOrderTeleported", nil), ""); status != http.StatusOK {
		t.Errorf("an unknown action: HTTP %d, want 200", status)
	}
	if got := calls.readBatches(); len(got) != 1 {
		t.Errorf("an unknown action re-read its work order %d times, want once", len(got))
	}
	if wo := storedWorkOrder(t, a, unknown); !wo.Nte.Amount.Amount.Equal(decimal.NewFromInt(4321)) {
		t.Errorf("after an unknown action the hub holds an NTE of %s, want the 4321 the service says", wo.Nte.Amount.Amount)
	}
	if status := notifyWith(t, nil, a.srv.URL, tok, notice(t, 987654321, api.ActionNteChanged, nil), ""); status != http.StatusOK {
		t.Errorf("a notification of a work order the service does not know: HTTP %d, want 200", status)
	}
	before := calls.n.Load()
	if status := notifyWith(t, nil, a.srv.URL, tok, notice(t, 0, api.ActionNteChanged, nil), ""); status != http.StatusOK {
		t.Errorf("a work order's action naming none: HTTP %d, want 200", status)
	}
	if n := calls.n.Load() - before; n != 0 {
		t.Errorf("a work order's action naming none cost %d calls at the service, want none", n)
	}
	if err := o.sb.SetNte(control, decimal.NewFromInt(999)); err != nil {
		t.Fatal(err)
	}
	if status := notifyWith(t, nil, a.srv.URL, tok, notice(t, control, api.ActionNteChanged, nil), ""); status != http.StatusOK {
		t.Fatalf("the control: HTTP %d", status)
	}
	he, _ := waitEvent(t, stream, func(HubEvent, sseEvent) bool { return true })
	if he.Header.WorkOrderId != control || he.Header.Action != api.ActionNteChanged {
		t.Errorf("the first event heard: %s of %d, want the control's NteChanged of %d (nothing before it changed)",
			he.Header.Action, he.Header.WorkOrderId, control)
	}
	a.hub.sec.flush()
	lines := logs.security(t, secNotificationRefused)
	n := 0
	for _, l := range lines {
		if strings.Contains(fmt.Sprint(l["reason"]), "only the hub names") {
			n += int(l["count"].(float64))
		}
	}
	if n != 5 || len(lines) > 2 {
		t.Errorf("the security log sums %d refusals of the hub's own names in %d lines, want 5 in at most 2: %v", n, len(lines), lines)
	}
}

// storedWorkOrder is the work order as the hub's replica holds it.
func storedWorkOrder(t *testing.T, in *instance, id int64) api.WorkOrder {
	t.Helper()
	docs, err := in.db.workOrderDocs(context.Background(), []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	var wo api.WorkOrder
	if err := json.Unmarshal([]byte(docs[id].doc), &wo); err != nil {
		t.Fatalf("work order %d as the hub holds it: %v", id, err)
	}
	return wo
}

// While a work order's re-read is at the service, ten more notifications
// of it fold into one re-read after it; notifications of sixty more work
// orders wait and are read 50 to a call. Each of the 71 is answered 200,
// each work order new to the hub makes one event, and the re-read that
// found nothing new makes none.
func TestSecurityNotificationRereadsFoldAndBatch(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	// The service's answers are held until the test has seen what waits:
	// on a loaded machine that outlasts the default refresh timeout, and
	// the held re-reads would fail (500) for it.
	a := o.start(func(opts *Options) { opts.RefreshTimeout = 5 * time.Minute })
	firstSyncDone(t, a)
	_, creds := o.person(a, "Ana Ruiz")
	heard, all := eventsHeard(openStream(t, a, creds, ""))
	busy := newWorkOrder(t, o)
	var others []int64
	for range 60 {
		others = append(others, newWorkOrder(t, o))
	}
	calls := o.countCalls()
	hold := make(chan struct{})
	calls.hold.Store(&hold)
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	tok := notificationToken(t, o)
	senders := senderClients(3)
	var wg sync.WaitGroup
	var refused atomic.Int64
	n := 0
	post := func(id int64) {
		wg.Add(1)
		body, from := notice(t, id, api.ActionNteChanged, nil), senders[n%len(senders)]
		n++
		go func() {
			defer wg.Done()
			if status := postNotice(from, a.srv.URL, tok, body); status != http.StatusOK {
				refused.Add(1)
			}
		}()
	}
	post(busy)
	waitFor(t, 10*time.Second, "the first re-read to reach the service", func() bool { return len(calls.readBatches()) == 1 })
	for range 10 {
		post(busy)
	}
	for _, id := range others {
		post(id)
	}
	waitFor(t, 10*time.Second, "the notifications to wait their turn", func() bool {
		// The busy one's next re-read and the sixty, but those the second
		// runner took (and holds at the service too).
		b := calls.readBatches()
		return a.hub.notices.folded.Load() == 9 && len(b) == 2 && a.hub.notices.waiting()+b[1] == 61
	})
	release()
	wg.Wait()
	if n := refused.Load(); n > 0 {
		t.Errorf("%d of 71 notifications not answered 200", n)
	}
	batches := calls.readBatches()
	for _, n := range batches {
		if n > 50 {
			t.Errorf("a GET /api/workOrder asked for %d ids, want at most 50", n)
		}
	}
	if len(batches) > 5 {
		t.Errorf("71 notifications of 61 work orders took %d reads (%v ids), want at most 5", len(batches), batches)
	}
	waitFor(t, 10*time.Second, "an event per work order", func() bool { return heard() >= 61 })
	time.Sleep(200 * time.Millisecond)
	seen := map[int64]int{}
	for _, he := range all() {
		seen[he.Header.WorkOrderId]++
	}
	if len(seen) != 61 || seen[busy] != 1 {
		t.Errorf("events for %d work orders (%d for the busy one), want 61, one each", len(seen), seen[busy])
	}
}

// The facts only a body carries ride on an event when its re-read bears
// them out (here: the invoice the service has is Paid, as the
// notification says), each cut to length: an authorization number of
// 10,000 characters reaches desktops as 64, a comment of 5,000 as 3,000.
// (An amount of more digits than any amount has is no notification: 400.)
// The same facts of a work order whose invoice is not Paid do not.
func TestSecurityNotificationFactsAreBounded(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	wo, err := o.sb.CreateWorkOrder(sandbox.WorkOrderSpec{Status: api.StatusCheckedOut, Invoice: api.InvoiceAuthorized})
	if err != nil {
		t.Fatal(err)
	}
	id, unpaid := wo.WorkOrderId, newWorkOrder(t, o)
	if err := a.hub.SyncNow(context.Background()); err != nil {
		t.Fatal(err)
	}
	stream := openStream(t, a, creds, "")
	if err := o.sb.SetInvoiceStatus(id, api.InvoicePaid, ""); err != nil {
		t.Fatal(err)
	}
	body := notice(t, id, api.ActionInvoiceStatusChanged, map[string]any{
		"Status": "Paid", "AuthNumber": strings.Repeat("A", 10000), "CheckNumber": strings.Repeat("é", 100),
		"Comment": strings.Repeat("x", 5000), "Amount": 1234.5,
	})
	tok := notificationToken(t, o)
	if status := notifyWith(t, nil, a.srv.URL, tok, body, ""); status != http.StatusOK {
		t.Fatalf("HTTP %d", status)
	}
	he, raw := waitEvent(t, stream, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
	n := he.Notification
	if n == nil {
		t.Fatalf("the event carries none of the notification's facts: %s", raw.Data)
	}
	if got := utf8.RuneCountInString(n.AuthNumber); got != maxFactNumber {
		t.Errorf("AuthNumber of %d characters, want %d", got, maxFactNumber)
	}
	if got := utf8.RuneCountInString(n.CheckNumber); got != maxFactNumber || !utf8.ValidString(n.CheckNumber) {
		t.Errorf("CheckNumber of %d characters (valid UTF-8: %v), want %d", got, utf8.ValidString(n.CheckNumber), maxFactNumber)
	}
	if got := utf8.RuneCountInString(n.Comment); got != maxFactComment {
		t.Errorf("Comment of %d characters, want %d", got, maxFactComment)
	}
	if string(n.Amount) != "1234.5" {
		t.Errorf("the amount, as the customer's notification said it: %s, want 1234.5", n.Amount)
	}
	if len(raw.Data) > 8<<10 {
		t.Errorf("the event is %d bytes", len(raw.Data))
	}
	huge := notice(t, id, api.ActionInvoiceStatusChanged, map[string]any{"Status": "Paid", "Amount": json.RawMessage("1" + strings.Repeat("0", 500))})
	if status := notifyWith(t, nil, a.srv.URL, tok, huge, ""); status != http.StatusBadRequest {
		t.Errorf("an amount of 501 digits: HTTP %d, want 400", status)
	}
	// A work order whose invoice is a draft: the event goes out (the hub
	// had not read the invoice), without the facts of a Paid one.
	forgedPaid := notice(t, unpaid, api.ActionInvoiceStatusChanged, map[string]any{"Status": "Paid", "AuthNumber": "FORGED-AUTH-1", "Amount": 99999.99})
	if status := notifyWith(t, nil, a.srv.URL, tok, forgedPaid, ""); status != http.StatusOK {
		t.Fatalf("HTTP %d", status)
	}
	if he, raw := waitEvent(t, stream, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == unpaid }); he.Notification != nil {
		t.Errorf("the facts of a Paid invoice the service does not have reached the stream: %s", raw.Data)
	}
}

// The minute's sync can store a change before the customer's notification
// of it arrives: the notification still tells desktops (once), though its
// re-read finds the record as the hub holds it. The same notification
// again tells nothing, nor does one naming a change the sync stored longer
// ago than notifications take.
func TestANotificationAfterTheSyncOfItsChangeStillTellsDesktops(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	firstSyncDone(t, a)
	_, creds := o.person(a, "Ana Ruiz")
	ids := []int64{newWorkOrder(t, o), newWorkOrder(t, o)}
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	announce(t, o, a, ids)
	heard, all := eventsHeard(openStream(t, a, creds, ""))
	for _, id := range ids {
		if err := o.sb.SetNte(id, decimal.NewFromInt(3210)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	// The second's change was stored an hour ago, as far as anyone knows.
	if _, err := o.db.Pool.Exec(ctx, `UPDATE work_orders SET synced_unannounced = now() - interval '1 hour' WHERE id = $1`, ids[1]); err != nil {
		t.Fatal(err)
	}
	tok := notificationToken(t, o)
	for _, id := range []int64{ids[0], ids[0], ids[1]} {
		if status := postNotice(nil, a.srv.URL, tok, notice(t, id, api.ActionNteChanged, nil)); status != http.StatusOK {
			t.Fatalf("HTTP %d", status)
		}
	}
	time.Sleep(200 * time.Millisecond)
	got := all()
	if heard() != 1 || got[0].Header.WorkOrderId != ids[0] || got[0].Reread == nil || !strings.Contains(string(got[0].Reread.WorkOrder), "3210") {
		t.Errorf("heard %d events (%+v), want one: the first work order's change, re-read", heard(), got)
	}
}
