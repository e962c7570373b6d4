package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// attentionGrid puts a work order of each combination of the rule's facts
// (every status and one the service does not document; a requested quote
// or none; no deadline, a passed one, one in 5 h, one in 3 days; a refused
// action; an invoice over the NTE), each described in its customer's name
// so that one search finds them all, and returns what the rule says of each.
func attentionGrid(t *testing.T, s *Store) map[int64]api.Attention {
	t.Helper()
	ctx := context.Background()
	statuses := append(slices.Clone(api.AllStatuses), "Escalated")
	deadlines := []time.Duration{0, -2 * time.Hour, 5 * time.Hour, 72 * time.Hour}
	want := map[int64]api.Attention{}
	var specs []woSpec
	type extra struct {
		id               int64
		deadline         time.Duration
		refused, overNte bool
	}
	var extras []extra
	id := int64(0)
	for _, st := range statuses {
		for _, quote := range []api.QuoteStatus{"", api.QuoteRequested} {
			for _, d := range deadlines {
				for _, refused := range []bool{false, true} {
					for _, overNte := range []bool{false, true} {
						id++
						sp := woSpec{id: id, number: fmt.Sprintf("G%04d", id), status: st, quote: quote, nte: "100",
							customer: "Grid Foods", ack: d, on: d, due: d}
						specs = append(specs, sp)
						extras = append(extras, extra{id, d, refused, overNte})
						facts := api.AttentionFacts{Status: st, QuoteStatus: quote, Refused: refused, InvoiceOverNte: overNte}
						if d != 0 && (st.NextDeadline() != api.NoDeadline) {
							facts.Deadline = testNow.Add(d)
						}
						want[id] = facts.Of(testNow)
					}
				}
			}
		}
	}
	put(t, s, specs...)
	for _, e := range extras {
		total := "50"
		if e.overNte {
			total = "200"
		}
		inv := &api.Invoice{WorkOrderId: e.id, Status: api.InvoiceDraft, Currency: "USD", TotalAmount: api.MustMoney(total, "USD")}
		if e.deadline != 0 {
			inv.SubmissionDeadline = tp(testNow.Add(e.deadline))
		}
		if err := putInvoice(ctx, s.w, e.id, inv, 0); err != nil {
			t.Fatal(err)
		}
		if e.refused {
			// As the sender leaves an action the service refused.
			res, err := s.w.ExecContext(ctx, `INSERT INTO outbox(kind, work_order_id, message_id, request, state, created_at, updated_at, error)
 VALUES ('message', ?, ?, '{}', 'failed', 0, 0, 'refused')`, e.id, fmt.Sprintf("m-%d", e.id))
			if err != nil {
				t.Fatal(err)
			}
			row, _ := res.LastInsertId()
			if _, err := s.w.ExecContext(ctx, `INSERT INTO outbox_targets(outbox_id, work_order_id) VALUES (?, ?)`, row, e.id); err != nil {
				t.Fatal(err)
			}
		}
	}
	return want
}

// TestAttentionFollowsTheRule: the list's reason on every row, the "Needs
// attention" filter, its count, and the same filter under a search (in the
// in-memory index and through FTS5) all agree with api's rule.
func TestAttentionFollowsTheRule(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	want := attentionGrid(t, s)
	var needing []int64
	for id, a := range want {
		if a != api.NoAttention {
			needing = append(needing, id)
		}
	}
	slices.Sort(needing)

	rows, err := s.List(ctx, ListQuery{Sort: SortNumber})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Why != want[r.Id] || r.Attention != (want[r.Id] != api.NoAttention) {
			t.Errorf("%s (%s, quote %q, deadline %v): the list says %q, the rule %q", r.Number, r.Status, r.QuoteStatus,
				r.NextDeadline, r.Why.Word(), want[r.Id].Word())
		}
	}
	listed := func(q ListQuery) []int64 {
		t.Helper()
		q.Sort = SortNumber
		rows, n, err := s.ListAndCount(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got := ids(rows)
		slices.Sort(got)
		if n != len(got) {
			t.Errorf("%+v: counted %d, listed %d", q, n, len(got))
		}
		return got
	}
	if got := listed(ListQuery{NeedsAttention: true}); !slices.Equal(got, needing) {
		t.Errorf("needs attention lists %d work orders, the rule %d: %v", len(got), len(needing), diff(got, needing))
	}
	if n, err := s.NeedsAttentionCount(ctx); err != nil || n != len(needing) {
		t.Errorf("NeedsAttentionCount = %d, %v; the rule says %d", n, err, len(needing))
	}
	// Searching under the filter, through FTS5 and then the in-memory index.
	search := ListQuery{Search: "grid", NeedsAttention: true, Limit: 1000}
	if got := listed(search); !slices.Equal(got, needing) {
		t.Errorf("a search through FTS5 under needs attention: %v", diff(got, needing))
	}
	<-s.WarmSearch()
	if got := listed(search); !slices.Equal(got, needing) {
		t.Errorf("a search in memory under needs attention: %v", diff(got, needing))
	}
}

func diff(got, want []int64) string {
	var extra, missing []int64
	for _, id := range got {
		if !slices.Contains(want, id) {
			extra = append(extra, id)
		}
	}
	for _, id := range want {
		if !slices.Contains(got, id) {
			missing = append(missing, id)
		}
	}
	return fmt.Sprintf("listed but not needing %v, needing but not listed %v", extra, missing)
}

// TestInvoiceDeadlineInTheList: a checked-out work order's next deadline is
// its invoice's submission date ("Invoice by"), sorted with the SLA dates,
// until the invoice is submitted.
func TestInvoiceDeadlineInTheList(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	put(t, s,
		woSpec{id: 1, number: "on-site-in-2-days", status: api.StatusAccepted, on: 48 * time.Hour},
		woSpec{id: 2, number: "invoice-in-29-days", status: api.StatusCheckedOut},
		woSpec{id: 3, number: "invoice-in-1-day", status: api.StatusVerified},
	)
	by := func(d time.Duration) *time.Time { return tp(testNow.Add(d)) }
	for id, d := range map[int64]time.Duration{2: 29 * 24 * time.Hour, 3: 24 * time.Hour} {
		if err := putInvoice(ctx, s.w, id, &api.Invoice{WorkOrderId: id, Status: api.InvoiceDraft, SubmissionDeadline: by(d)}, 0); err != nil {
			t.Fatal(err)
		}
	}
	order := func() (out []string) {
		rows, err := s.List(ctx, ListQuery{Sort: SortNextDeadline})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			out = append(out, r.Number+" "+r.NextDeadlineLabel)
		}
		return out
	}
	want := []string{"invoice-in-1-day Invoice by", "on-site-in-2-days On site by", "invoice-in-29-days Invoice by"}
	if got := order(); !slices.Equal(got, want) {
		t.Errorf("by next deadline: %q, want %q", got, want)
	}
	// Submitted: nothing more is due on it.
	if err := putInvoice(ctx, s.w, 3, &api.Invoice{WorkOrderId: 3, Status: api.InvoiceSubmitted, SubmissionDeadline: by(24 * time.Hour)}, 0); err != nil {
		t.Fatal(err)
	}
	want = []string{"on-site-in-2-days On site by", "invoice-in-29-days Invoice by", "invoice-in-1-day "}
	if got := order(); !slices.Equal(got, want) {
		t.Errorf("after submitting: %q, want %q", got, want)
	}
	// The sync rewrites the work order; the invoice's date stays.
	put(t, s, woSpec{id: 2, number: "invoice-in-29-days", status: api.StatusCheckedOut})
	if got := order(); !slices.Equal(got, want) {
		t.Errorf("after a sync: %q, want %q", got, want)
	}
}

// TestFilteredSearchInMemoryAgreesWithSQL: a search under a status filter,
// with the work order the person acted on kept in view, finds the same
// work orders in the same order in memory as through FTS5 and SQL.
func TestFilteredSearchInMemoryAgreesWithSQL(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	attentionGrid(t, s)
	queries := []ListQuery{
		{Search: "grid", Statuses: []api.WorkOrderStatus{api.StatusNew}},
		{Search: "grid", Statuses: []api.WorkOrderStatus{api.StatusNew, api.StatusCheckedOut}, NeedsAttention: true},
		// G0001 is a New one with nothing to do: kept though filtered out.
		{Search: "grid", Statuses: []api.WorkOrderStatus{api.StatusAccepted}, Keep: []int64{1}},
		{Search: "grid", NeedsAttention: true, Keep: []int64{1}, Sort: SortNextDeadline, Desc: true},
		{Search: "g00", Statuses: []api.WorkOrderStatus{api.StatusPaused}, Sort: SortStatus},
		// The filters alone, as when the person clears the search box.
		{Statuses: []api.WorkOrderStatus{api.StatusNew, api.StatusCheckedOut}},
		{NeedsAttention: true},
		{NeedsAttention: true, Keep: []int64{1}, Sort: SortNextDeadline, Desc: true},
		{Statuses: []api.WorkOrderStatus{api.StatusPaused}, NeedsAttention: true, Sort: SortCustomer},
		{NeedsAttention: true, Held: []int64{2, 3}, Sort: SortNumber},
	}
	page := func(q ListQuery) []int64 {
		t.Helper()
		q.Limit = 40
		rows, n, err := s.ListAndCount(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return append(ids(rows), int64(-n))
	}
	var before [][]int64
	for _, q := range queries {
		before = append(before, page(q))
	}
	<-s.WarmSearch()
	for i, q := range queries {
		if got := page(q); !slices.Equal(got, before[i]) {
			t.Errorf("%+v: in memory %v, through SQL %v", q, got, before[i])
		}
	}
	s.searchMu.Lock()
	inMemory := 0
	for _, e := range s.searchSets {
		if e.match == "" && len(e.numbers) == 0 && e.mem != nil {
			inMemory++
		}
	}
	s.searchMu.Unlock()
	if inMemory == 0 {
		t.Error("the filters without a search were not answered by the in-memory index")
	}
	kept := page(queries[2])
	if !slices.Contains(kept, 1) {
		t.Errorf("the kept work order is not listed under a filter it fails: %v", kept)
	}
	// Without a search too.
	if got := page(ListQuery{Statuses: []api.WorkOrderStatus{api.StatusAccepted}, Keep: []int64{1}}); !slices.Contains(got, 1) {
		t.Errorf("the kept work order is not listed under a status filter: %v", got)
	}
}

// TestTheDeadlineOrderAndAttentionReadTheIndex: the list sorted by its
// deadline (the default) and the "needs attention" count find their rows
// through the deadline's index, whatever the replica's size: through the
// new column without it, each read every work order (90 ms at 50,000).
func TestTheDeadlineOrderAndAttentionReadTheIndex(t *testing.T) {
	s, _ := openTest(t)
	attentionGrid(t, s)
	if plan := queryPlan(t, s, ListQuery{Sort: SortNextDeadline}); !strings.Contains(plan, "work_orders_deadline") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("the list by deadline reads %q", plan)
	}
	rows, err := s.r.QueryContext(context.Background(), `EXPLAIN QUERY PLAN SELECT COUNT(*) FROM work_orders WHERE id IN (`+attentionIdsSQL+`)`, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "USING INDEX work_orders_deadline") {
		t.Errorf("the attention count reads %q", p)
	}
}

// TestTheInMemoryAttentionFollowsChanges: the in-memory "Needs attention"
// list, whose judgement is kept between keystrokes, agrees with SQL's
// after each thing that changes who needs attention: a work order
// written, an action refused, and time bringing deadlines within a day.
func TestTheInMemoryAttentionFollowsChanges(t *testing.T) {
	s, clk := openTest(t)
	ctx := context.Background()
	attentionGrid(t, s)
	<-s.WarmSearch()
	agree := func(when string) []int64 {
		t.Helper()
		q := ListQuery{NeedsAttention: true, Limit: 1000}
		mem, n, err := s.ListAndCount(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		sql, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(mem), ids(sql)) || n != len(sql) {
			t.Errorf("%s: in memory %d work orders %v, through SQL %d %v", when, n, ids(mem), len(sql), ids(sql))
		}
		return ids(sql)
	}
	agree("at first")
	// A New one with its acknowledgement 2 hours late, written anew.
	put(t, s, woSpec{id: 9001, number: "LATE1", status: api.StatusNew, customer: "Grid Foods", nte: "100", ack: -2 * time.Hour})
	if !slices.Contains(agree("after a write"), 9001) {
		t.Error("the late one is not listed")
	}
	// A refusal of an action on a work order that needed nothing.
	calm := woSpec{id: 9002, number: "CALM1", status: api.StatusAccepted, customer: "Grid Foods", nte: "100"}
	put(t, s, calm)
	if slices.Contains(agree("after a calm one"), 9002) {
		t.Fatal("the calm one needs attention before anything was refused")
	}
	res, err := s.w.ExecContext(ctx, `INSERT INTO outbox(kind, work_order_id, message_id, request, state, created_at, updated_at, error)
 VALUES ('message', 9002, 'm-9002', '{}', 'failed', 0, 0, 'refused')`)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := res.LastInsertId()
	if _, err := s.w.ExecContext(ctx, `INSERT INTO outbox_targets(outbox_id, work_order_id) VALUES (?, 9002)`, row); err != nil {
		t.Fatal(err)
	}
	refused := agree("after a refusal")
	if !slices.Contains(refused, 9002) {
		t.Error("the refused one is not listed")
	}
	// Two days on: the deadlines three days ahead are due within a day.
	clk.Advance(50 * time.Hour)
	if later := agree("two days on"); len(later) <= len(refused) {
		t.Errorf("two days on, %d need attention; %d did before", len(later), len(refused))
	}
}
