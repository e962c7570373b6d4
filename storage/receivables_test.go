package storage

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func invoiceCalls(svc *service) []recorded {
	return svc.wire.calls(http.MethodGet, "/api/invoice")
}

// finished counts the work orders whose invoices the background fetch is for.
func finished(t *testing.T, s *Store) []int64 {
	t.Helper()
	rows, err := s.List(context.Background(), ListQuery{Sort: SortNumber})
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, r := range rows {
		if r.Status == api.StatusCheckedOut || r.Status == api.StatusVerified {
			out = append(out, r.Id)
		}
	}
	return out
}

// The first sync reads work orders only; the invoices of finished work
// come afterwards, a few calls at a time, and a second run fetches none
// of those it already holds.
func TestReceivablesFirstSyncFetchesNoInvoice(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s, _ := openTest(t)
	s.now = svc.sb.Clock().Now
	y := NewSyncer(s, svc.client, SyncOptions{})
	ctx := context.Background()
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(invoiceCalls(svc)); n != 0 {
		t.Fatalf("the first sync read %d invoices; want none", n)
	}
	if rs, _ := s.Receivables(ctx, api.ReceivableFilter{}); len(rs) != 0 {
		t.Fatalf("receivables before the background fetch = %d", len(rs))
	}
	want := finished(t, s)
	slices.Sort(want)
	if len(want) < 10 {
		t.Fatalf("the world has only %d finished work orders", len(want))
	}
	stored, err := y.FetchInvoices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, c := range invoiceCalls(svc) {
		if id, ok := queryID(c); ok {
			got = append(got, id)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) || stored != len(want) {
		t.Errorf("fetched invoices of %v (stored %d); want the finished work orders %v", got, stored, want)
	}
	if peak := svc.wire.peakInFlight(http.MethodGet, "/api/invoice"); peak > invoiceFetchParallel {
		t.Errorf("%d invoice calls at once; want at most %d", peak, invoiceFetchParallel)
	}
	rs, err := s.Receivables(ctx, api.ReceivableFilter{})
	if err != nil || len(rs) == 0 {
		t.Fatalf("receivables after the fetch: %d, %v", len(rs), err)
	}
	svc.wire.reset()
	if n, err := y.FetchInvoices(ctx); n != 0 || err != nil || len(invoiceCalls(svc)) != 0 {
		t.Errorf("a second run fetched %d (%v), %d calls; want none", n, err, len(invoiceCalls(svc)))
	}
}

func queryID(c recorded) (int64, bool) {
	q, err := url.ParseQuery(c.Query)
	if err != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(q.Get("workOrderId"), 10, 64)
	return id, err == nil
}

// The window's engine: SyncNow returns when the work orders are stored;
// the invoices follow, every one after the sync's last work order call.
func TestReceivablesEngineFetchesAfterTheSync(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	ctx := context.Background()
	eng, err := OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), EngineOptions{
		Connection: svc.sb.Connection(), HTTPClient: svc.srv.Client(), FetchInvoices: true, ManualSend: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	want := len(finished(t, eng.Store))
	if !waitFor(30*time.Second, func() bool { return len(invoiceCalls(svc)) >= want }) {
		t.Fatalf("%d of %d invoices fetched in the background", len(invoiceCalls(svc)), want)
	}
	svc.wire.mu.Lock()
	lastWO, firstInv := -1, -1
	for i, c := range svc.wire.log {
		switch {
		case c.Method == http.MethodGet && c.Path == "/api/workorder":
			lastWO = i
		case c.Method == http.MethodGet && c.Path == "/api/invoice" && firstInv < 0:
			firstInv = i
		}
	}
	svc.wire.mu.Unlock()
	if lastWO < 0 || firstInv < lastWO {
		t.Errorf("an invoice was read (request %d) before the sync's last work order (request %d)", firstInv, lastWO)
	}
}

// putInvoiceOf stores a work order and its invoice.
func putInvoiceOf(t *testing.T, s *Store, id int64, customer api.Customer, currency, amount string, st api.InvoiceStatus, date *time.Time) {
	t.Helper()
	wo := mkWO(woSpec{id: id, number: "WO" + string(rune('A'+id%26)), status: api.StatusCheckedOut, currency: currency, customer: customer.Name})
	wo.Customer = customer
	if err := s.PutWorkOrders(context.Background(), []api.WorkOrder{wo}); err != nil {
		t.Fatal(err)
	}
	inv := api.Invoice{WorkOrderId: id, Status: st, Currency: currency, TotalAmount: api.MustMoney(amount, currency), InvoiceDate: date}
	if err := putInvoice(context.Background(), s.w, id, &inv, s.now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
}

func daysAgo(n int) *time.Time { return tp(testNow.AddDate(0, 0, -n)) }

// What the view filters by, and its totals: per currency, never summed
// across; a paid invoice is no longer outstanding; the filters by
// customer, status and age; the numbers only a notification carried.
func TestReceivablesFiltersAndTotals(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	north := api.Customer{Id: 1, Name: "Northwind"}
	sakura := api.Customer{Id: 2, Name: "Sakura"}
	putInvoiceOf(t, s, 1, north, "USD", "100.50", api.InvoiceSubmitted, daysAgo(10))
	putInvoiceOf(t, s, 2, north, "USD", "200.25", api.InvoicePaid, daysAgo(45))
	putInvoiceOf(t, s, 3, sakura, "JPY", "15000", api.InvoiceAuthorized, daysAgo(75))
	putInvoiceOf(t, s, 4, sakura, "JPY", "5000", api.InvoiceDisputed, daysAgo(120))
	putInvoiceOf(t, s, 5, north, "EUR", "80", api.InvoiceSubmitted, daysAgo(31))
	putInvoiceOf(t, s, 6, north, "USD", "0", api.InvoiceDraft, nil) // an empty draft: nothing to show
	paid := testNow.AddDate(0, 0, -40)
	ev := api.Event{Header: api.EventHeader{WorkOrderId: 2, Action: api.ActionInvoiceStatusChanged, ActionDate: paid, MessageId: "m-paid"},
		Body: &api.InvoiceStatusChangedEvent{Status: api.InvoicePaid, CheckNumber: "CHK-77", AuthNumber: "AUTH-9", PaidDate: &paid}}
	if _, err := s.ApplyNotification(ctx, ev, nil); err != nil {
		t.Fatal(err)
	}

	all, err := s.Receivables(ctx, api.ReceivableFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var order []int64
	for _, r := range all {
		order = append(order, r.WorkOrderId)
	}
	if !slices.Equal(order, []int64{4, 3, 2, 5, 1}) {
		t.Errorf("receivables = %v; want the five with an amount, oldest first", order)
	}
	if r := all[2]; r.CheckNumber != "CHK-77" || r.AuthNumber != "AUTH-9" || r.PaidDate == nil || !r.PaidDate.Equal(paid) {
		t.Errorf("paid invoice = %+v; want the notification's check and auth numbers and paid date", r)
	}
	if d, _ := all[2].Age(testNow); d != 5 {
		t.Errorf("a paid invoice's age = %d days; want 5 (its date to its payment)", d)
	}

	totals := api.TotalsByCurrency(all)
	want := []struct{ cur, total, out string }{{"EUR", "80", "80"}, {"JPY", "20000", "20000"}, {"USD", "300.75", "100.5"}}
	if len(totals) != len(want) {
		t.Fatalf("totals = %+v", totals)
	}
	for i, w := range want {
		g := totals[i]
		if g.Currency != w.cur || g.Total.Amount.String() != w.total || g.Outstanding.Amount.String() != w.out ||
			g.Total.Currency != w.cur || g.Outstanding.Currency != w.cur {
			t.Errorf("total %d = %s %s outstanding %s; want %+v", i, g.Currency, g.Total.Amount, g.Outstanding.Amount, w)
		}
	}

	bucket := func(b api.AgeBucket) *api.AgeBucket { return &b }
	cases := []struct {
		name string
		f    api.ReceivableFilter
		want []int64
	}{
		{"customer", api.ReceivableFilter{CustomerId: sakura.Id}, []int64{4, 3}},
		{"status", api.ReceivableFilter{Statuses: []api.InvoiceStatus{api.InvoiceSubmitted, api.InvoiceDisputed}}, []int64{4, 5, 1}},
		{"age 0–30", api.ReceivableFilter{Age: bucket(api.Age0to30)}, []int64{2, 1}},
		{"age 31–60", api.ReceivableFilter{Age: bucket(api.Age31to60)}, []int64{5}},
		{"age 61–90", api.ReceivableFilter{Age: bucket(api.Age61to90)}, []int64{3}},
		{"age 90+", api.ReceivableFilter{Age: bucket(api.AgeOver90)}, []int64{4}},
		{"customer and status", api.ReceivableFilter{CustomerId: north.Id, Statuses: []api.InvoiceStatus{api.InvoicePaid}}, []int64{2}},
	}
	for _, c := range cases {
		got, err := s.Receivables(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		var g []int64
		for _, r := range got {
			g = append(g, r.WorkOrderId)
		}
		if !slices.Equal(g, c.want) {
			t.Errorf("%s: %v; want %v", c.name, g, c.want)
		}
	}
	custs, err := s.ReceivableCustomers(ctx)
	if err != nil || len(custs) != 2 || custs[0] != north || custs[1] != sakura {
		t.Errorf("customers with invoices = %v, %v", custs, err)
	}
}

// A notification changes the invoice as the hub's or the receiver's
// re-read says; the receivables read it at once.
func TestReceivablesFollowTheInvoiceReread(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	c := api.Customer{Id: 1, Name: "Northwind"}
	putInvoiceOf(t, s, 1, c, "GBP", "99.99", api.InvoiceSubmitted, daysAgo(3))
	inv := api.Invoice{WorkOrderId: 1, Status: api.InvoiceAuthorized, Currency: "GBP", TotalAmount: api.MustMoney("99.99", "GBP"),
		InvoiceDate: daysAgo(3), AuthNumber: "AUTH-1"}
	ev := api.Event{Header: api.EventHeader{WorkOrderId: 1, Action: api.ActionInvoiceStatusChanged, ActionDate: testNow, MessageId: "m1"},
		Body: &api.InvoiceStatusChangedEvent{Status: api.InvoiceAuthorized, AuthNumber: "AUTH-1"}}
	if _, err := s.ApplyNotification(ctx, ev, &Reread{Invoice: &inv}); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Receivables(ctx, api.ReceivableFilter{})
	if err != nil || len(rs) != 1 || rs[0].Status != api.InvoiceAuthorized || rs[0].AuthNumber != "AUTH-1" {
		t.Errorf("after the re-read: %+v, %v", rs, err)
	}
}

// The SLA's recorded moments: a notification's ActionDate, and our own
// check-in, when it was tapped, once the service took it; a deadline without one is there to be
// judged as "could not judge".
func TestReceivablesSlaRecords(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	now := svc.sb.Now()
	a := pick(t, s, status(api.StatusAccepted))
	before := now.Add(-time.Minute)
	ev := api.Event{Header: api.EventHeader{WorkOrderId: a.WorkOrderId, Action: api.ActionAccepted, ActionDate: before, MessageId: "acc-1"},
		Body: &api.StatusChangedEvent{Status: api.StatusAccepted}}
	if _, err := s.ApplyNotification(ctx, ev, nil); err != nil {
		t.Fatal(err)
	}
	tapFrom := svc.sb.Now().Truncate(time.Millisecond)
	if _, err := s.CheckIn(ctx, a.WorkOrderId, nil, ""); err != nil {
		t.Fatal(err)
	}
	tapTo := svc.sb.Now()
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))

	recs, err := s.SlaRecords(ctx, now.AddDate(0, 0, -84))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(recs, func(r api.SlaRecord) bool { return r.WorkOrderId == a.WorkOrderId })
	if i < 0 {
		t.Fatalf("work order %d with deadlines in the period is missing", a.WorkOrderId)
	}
	r := recs[i]
	if got := r.Met[api.AcknowledgeBy]; !got.Equal(before.Truncate(time.Millisecond)) {
		t.Errorf("acknowledged at %v; want the notification's %v", got, before)
	}
	if got := r.Met[api.OnSiteBy]; got.Before(tapFrom) || got.After(tapTo) {
		t.Errorf("on site at %v; want when the check-in was tapped (%v to %v)", got, tapFrom, tapTo)
	}
	if _, ok := r.Met[api.DueBy]; ok {
		t.Error("completion recorded for a work order nobody checked out")
	}
	if r.Customer.Name == "" || r.Sla == nil || r.Sla.OnSiteBy == nil {
		t.Errorf("record = %+v; want its customer and deadlines", r)
	}
}

// The fetch says how far it is, and one that stopped (here the service
// refused the eleventh invoice) goes on where it stopped: the invoices
// read before the stop are kept, and the next run reads only the rest.
func TestInvoiceFetchShowsProgressAndResumes(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s, _ := openTest(t)
	s.now = svc.sb.Clock().Now
	var mu sync.Mutex
	var told [][2]int
	y := NewSyncer(s, svc.client, SyncOptions{InvoiceProgress: func(done, total int) {
		mu.Lock()
		told = append(told, [2]int{done, total})
		mu.Unlock()
	}})
	ctx := context.Background()
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	all := finished(t, s)
	var calls atomic.Int32
	svc.wire.setFault(func(r *http.Request, _ []byte) faultKind {
		if r.URL.Path == "/api/invoice" && calls.Add(1) > 10 {
			return serverRefusal
		}
		return pass
	})
	first, err := y.FetchInvoices(ctx)
	if err == nil || first == 0 || first > 10 {
		t.Fatalf("the first run stored %d invoices (%v); want up to the 10 read before the refusal, and its error", first, err)
	}
	mu.Lock()
	if len(told) < 2 || told[0] != [2]int{0, len(all)} || told[len(told)-1] != [2]int{len(all), len(all)} {
		t.Errorf("the first run told %v; want 0 of %d first and, stopped, %d of %d last", told, len(all), len(all), len(all))
	}
	told = nil
	mu.Unlock()
	svc.wire.setFault(nil)
	svc.wire.reset()
	second, err := y.FetchInvoices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first+second != len(all) || len(invoiceCalls(svc)) != len(all)-first {
		t.Errorf("the second run stored %d with %d calls after %d stored; want the other %d of %d",
			second, len(invoiceCalls(svc)), first, len(all)-first, len(all))
	}
	mu.Lock()
	defer mu.Unlock()
	rest := len(all) - first
	if len(told) < 2 || told[0] != [2]int{0, rest} || told[len(told)-1] != [2]int{rest, rest} {
		t.Errorf("the second run told %v; want 0 of %d first and %d of %d last", told, rest, rest, rest)
	}
}

// An invoice whose status this client does not know (the draft, submitted
// and disputed names are guesses) stays in the receivables, as "other (its
// name)": in the list, in its currency's totals apart from what is billed,
// and under the "other" filter; a filter of known statuses leaves it out.
func TestReceivablesKeepStatusesWeDoNotKnow(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	north := api.Customer{Id: 1, Name: "Northwind"}
	putInvoiceOf(t, s, 1, north, "USD", "100", api.InvoiceSubmitted, daysAgo(10))
	putInvoiceOf(t, s, 2, north, "USD", "40", "Returned", daysAgo(20))
	putInvoiceOf(t, s, 3, north, "USD", "15", "", daysAgo(5))
	all, err := s.Receivables(ctx, api.ReceivableFilter{})
	if err != nil {
		t.Fatal(err)
	}
	words := map[int64]string{}
	for _, r := range all {
		words[r.WorkOrderId] = r.Status.StatusWords()
	}
	if want := map[int64]string{1: "Submitted", 2: "other (Returned)", 3: "other (no status)"}; !maps.Equal(words, want) {
		t.Errorf("the receivables read %v; want %v", words, want)
	}
	totals := api.TotalsByCurrency(all)
	if len(totals) != 1 || totals[0].Count != 1 || totals[0].OtherCount != 2 || totals[0].Other.Amount.String() != "55" ||
		totals[0].Outstanding.Amount.String() != "100" || totals[0].Other.Currency != "USD" {
		t.Errorf("totals: %+v; want 100 billed and outstanding in 1 invoice, and 55 USD in 2 invoices of other statuses", totals)
	}
	for name, c := range map[string]struct {
		f    api.ReceivableFilter
		want []int64
	}{
		"other":                {api.ReceivableFilter{Other: true}, []int64{2, 3}},
		"submitted and other":  {api.ReceivableFilter{Other: true, Statuses: []api.InvoiceStatus{api.InvoiceSubmitted}}, []int64{2, 1, 3}},
		"submitted":            {api.ReceivableFilter{Statuses: []api.InvoiceStatus{api.InvoiceSubmitted}}, []int64{1}},
		"a status of its name": {api.ReceivableFilter{Statuses: []api.InvoiceStatus{"Returned"}}, []int64{2}},
	} {
		got, err := s.Receivables(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		var g []int64
		for _, r := range got {
			g = append(g, r.WorkOrderId)
		}
		if !slices.Equal(g, c.want) {
			t.Errorf("%s: %v; want %v", name, g, c.want)
		}
	}
}
