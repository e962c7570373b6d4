package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/migrate"
)

func TestOpenAppliesMigrationsAndReopenKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub dir", "replica?.db") // odd characters must not break the DSN
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	ms, _ := migrate.Read(migrationFiles)
	want := ms[len(ms)-1].Version
	if v, err := s.SchemaVersion(ctx); err != nil || v != want {
		t.Fatalf("schema version = %d, %v; want %d", v, err, want)
	}
	var mode string
	if err := s.w.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	put(t, s, woSpec{id: 1, number: "WO-1", customer: "Acme"})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if v, _ := s2.SchemaVersion(ctx); v != want {
		t.Fatalf("schema version after reopen = %d; want %d", v, want)
	}
	wo, err := s2.WorkOrder(ctx, 1)
	if err != nil || wo.WorkOrderNumber != "WO-1" {
		t.Fatalf("work order after reopen = %+v, %v", wo, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "replica.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.w.Exec(`UPDATE schema_version SET version = 999`)
	s.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer version") {
		t.Fatalf("Open of a newer schema: %v; want a clear refusal", err)
	}
}

func TestDefaultPathSeparatesProfiles(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	demo, err := DefaultPath(DemoProfile)
	if err != nil {
		t.Fatal(err)
	}
	live, err := DefaultPath(ProfileForBaseURL("https://am-api.corrigopro.com/Direct/"))
	if err != nil {
		t.Fatal(err)
	}
	if demo == live {
		t.Fatalf("demo and live share %s", demo)
	}
	if !strings.HasSuffix(demo, filepath.Join("workdesk", "demo", "replica.db")) {
		t.Errorf("demo path %s", demo)
	}
	if got := ProfileForBaseURL("https://am-api.corrigopro.com/Direct/"); got != "am-api.corrigopro.com_Direct" {
		t.Errorf("profile = %q", got)
	}
	if ProfileForBaseURL("http://demo/") == DemoProfile {
		t.Error("a live service named demo must not share the demo replica")
	}
	for _, bad := range []string{"", "..", "a/b", `a\b`} {
		if _, err := DefaultPath(bad); err == nil {
			t.Errorf("DefaultPath(%q) accepted", bad)
		}
	}
}

// ftsQueryCases is TestFTSQuery's table and FuzzFTSQuery's seed corpus.
var ftsQueryCases = []struct{ in, want string }{
	{"WO-42", `"WO-42"*`},
	{"O'Brien", `"O'Brien"*`},
	{"a:b", `"a:b"*`},
	{`"`, ``},
	{``, ``},
	{"   ", ``},
	{`say "hi"`, `"say"* """hi"""*`},
	{"NEAR(a b)", `"NEAR(a"* "b)"*`},
	{"café", `"café"*`},
	{"0\x00", `"0"*`}, // found by FuzzFTSQuery: SQLite ends the quoted term at the NUL
}

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	for _, c := range ftsQueryCases {
		if got := FTSQuery(c.in); got != c.want {
			t.Errorf("FTSQuery(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func searchWorld(t *testing.T) *Store {
	s, _ := openTest(t)
	put(t, s,
		woSpec{id: 1, number: "WO-42", customer: "O'Brien Foods", site: "Store 12", street: "1 Main St", desc: "Leaking faucet"},
		woSpec{id: 2, number: "WO-420", customer: "Acme", site: "Warehouse", street: "9 Dock Rd", desc: "a:b ratio sensor"},
		woSpec{id: 3, number: "WO-7", customer: "Café Rouge", site: "Kitchen", street: "3 Rue X", desc: "Oven door"},
		woSpec{id: 4, number: "XY-1", customer: "Acme", site: "HQ Lobby", street: "42 Main St", desc: "Broken \"quote\" sign"},
	)
	return s
}

func TestListSearch(t *testing.T) {
	t.Parallel()
	s := searchWorld(t)
	ctx := context.Background()
	cases := []struct {
		search string
		want   []int64
	}{
		{"WO-42", []int64{1, 2}}, // prefix: WO-420 too
		{"wo-420", []int64{2}},
		{"O'Brien", []int64{1}},
		{"o'bri", []int64{1}},
		{"a:b", []int64{2}},
		{`"`, []int64{1, 2, 3, 4}}, // nothing searchable: everything
		{``, []int64{1, 2, 3, 4}},
		{`"quote`, []int64{4}},
		{"cafe", []int64{3}}, // diacritics folded
		{"main", []int64{1, 4}},
		{"acme lobby", []int64{4}}, // every term must match
		{"faucet", []int64{1}},
		{"nothing-like-this", nil},
	}
	for _, c := range cases {
		rows, err := s.List(ctx, ListQuery{Search: c.search, Sort: SortNumber})
		if err != nil {
			t.Errorf("List(%q): %v", c.search, err)
			continue
		}
		got := ids(rows)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("List(%q) = %v; want %v", c.search, got, c.want)
		}
	}
}

func TestSearchFollowsUpdates(t *testing.T) {
	t.Parallel()
	s := searchWorld(t)
	ctx := context.Background()
	// The customer renames the site; the old name must stop matching.
	w := mkWO(woSpec{id: 3, number: "WO-7", customer: "Café Rouge", site: "Bakery", desc: "Oven door"})
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{w}); err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.List(ctx, ListQuery{Search: "kitchen"}); len(rows) != 0 {
		t.Errorf("old site still matches: %v", ids(rows))
	}
	if rows, _ := s.List(ctx, ListQuery{Search: "bakery"}); !slices.Equal(ids(rows), []int64{3}) {
		t.Errorf("new site does not match: %v", ids(rows))
	}
}

func TestListSortAndFilter(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	put(t, s,
		woSpec{id: 1, number: "WO-3", status: api.StatusNew, customer: "beta", site: "b", nte: "1000", ack: 5 * time.Hour},
		woSpec{id: 2, number: "WO-1", status: api.StatusAccepted, customer: "Alpha", site: "c", nte: "900", on: 2 * time.Hour, ack: time.Hour, sched: time.Hour},
		woSpec{id: 3, number: "WO-2", status: api.StatusCheckedIn, customer: "gamma", site: "a", nte: "25.5", due: 72 * time.Hour, currency: "EUR"},
		woSpec{id: 4, number: "WO-4", status: api.StatusRejected, customer: "Delta", site: "d", nte: "0", ack: -time.Hour},
	)
	cases := []struct {
		name string
		q    ListQuery
		want []int64
	}{
		{"default: soonest deadline first, none last", ListQuery{}, []int64{2, 1, 3, 4}},
		{"number", ListQuery{Sort: SortNumber}, []int64{2, 3, 1, 4}},
		{"customer ignores case", ListQuery{Sort: SortCustomer}, []int64{2, 1, 4, 3}},
		{"nte numerically", ListQuery{Sort: SortNte}, []int64{4, 3, 2, 1}},
		{"nte desc", ListQuery{Sort: SortNte, Desc: true}, []int64{1, 2, 3, 4}},
		{"site", ListQuery{Sort: SortSite}, []int64{3, 1, 2, 4}},
		{"scheduled: unscheduled last", ListQuery{Sort: SortScheduledStart}, []int64{2, 1, 3, 4}},
		{"status filter", ListQuery{Statuses: []api.WorkOrderStatus{api.StatusNew, api.StatusCheckedIn}, Sort: SortNumber}, []int64{3, 1}},
		{"limit", ListQuery{Sort: SortNumber, Limit: 2}, []int64{2, 3}},
	}
	for _, c := range cases {
		rows, err := s.List(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := ids(rows); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v; want %v", c.name, got, c.want)
		}
	}

	rows, _ := s.List(ctx, ListQuery{Sort: SortNumber})
	byID := map[int64]Row{}
	for _, r := range rows {
		byID[r.Id] = r
	}
	// The deadline shown is the one that matters in the status.
	if r := byID[2]; r.NextDeadlineLabel != "On site by" || !r.NextDeadline.Equal(testNow.Add(2*time.Hour)) {
		t.Errorf("accepted work order deadline = %q %v", r.NextDeadlineLabel, r.NextDeadline)
	}
	if r := byID[1]; r.NextDeadlineLabel != "Acknowledge by" || !r.NextDeadline.Equal(testNow.Add(5*time.Hour)) {
		t.Errorf("new work order deadline = %q %v", r.NextDeadlineLabel, r.NextDeadline)
	}
	if r := byID[3]; r.NextDeadlineLabel != "Due" || r.Nte.Currency != "EUR" || r.Nte.Format() != "€25.50" {
		t.Errorf("checked-in row = %+v (nte %s)", r, r.Nte.Format())
	}
	if r := byID[4]; r.NextDeadlineLabel != "" || !r.NextDeadline.IsZero() {
		t.Errorf("rejected work order has a deadline: %q %v", r.NextDeadlineLabel, r.NextDeadline)
	}
	if r := byID[2]; r.Customer != "Alpha" || r.Site != "c" || r.Status != api.StatusAccepted || !r.ScheduledStart.Equal(testNow.Add(time.Hour)) {
		t.Errorf("row fields = %+v", r)
	}

	counts, err := s.StatusCounts(ctx)
	if err != nil || counts[api.StatusNew] != 1 || counts[api.StatusRejected] != 1 || len(counts) != 4 {
		t.Errorf("StatusCounts = %v, %v", counts, err)
	}
}

func TestNeedsAttention(t *testing.T) {
	t.Parallel()
	s, clk := openTest(t)
	ctx := context.Background()
	put(t, s,
		woSpec{id: 1, number: "quote-requested", status: api.StatusAccepted, quote: api.QuoteRequested, on: 72 * time.Hour},
		woSpec{id: 2, number: "ack-soon", status: api.StatusNew, ack: 3 * time.Hour},
		woSpec{id: 3, number: "overdue", status: api.StatusCheckedIn, due: -time.Hour},
		woSpec{id: 4, number: "calm", status: api.StatusAccepted, on: 72 * time.Hour, ack: time.Hour},
		woSpec{id: 5, number: "invoice-over", status: api.StatusCheckedOut, nte: "500"},
		woSpec{id: 6, number: "invoice-no-limit", status: api.StatusCheckedOut, nte: "0"},
		woSpec{id: 7, number: "outbox-failed", status: api.StatusAccepted, on: 72 * time.Hour},
		woSpec{id: 8, number: "rejected-with-requested-quote", status: api.StatusRejected, quote: api.QuoteRequested},
		woSpec{id: 9, number: "invoice-in-another-currency", status: api.StatusCheckedOut, nte: "500", currency: "GBP"},
	)
	for _, inv := range []struct {
		wo       int64
		total    string
		currency string
	}{{5, "500.01", "USD"}, {6, "99999", "USD"}, {9, "80000", "JPY"}} {
		if err := putInvoice(ctx, s.w, inv.wo, &api.Invoice{WorkOrderId: inv.wo, Status: api.InvoiceDraft,
			Currency: inv.currency, TotalAmount: api.MustMoney(inv.total, inv.currency)}, 0); err != nil {
			t.Fatal(err)
		}
	}
	row, err := s.SendMessage(ctx, 7, "hello", api.VisibilityAll)
	if err != nil {
		t.Fatal(err)
	}
	s.w.Exec(`UPDATE outbox SET state = 'failed', error = 'refused' WHERE id = ?`, row.Id)

	want := []int64{1, 2, 3, 5, 7}
	rows, err := s.List(ctx, ListQuery{NeedsAttention: true, Sort: SortNumber})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(rows)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("needs attention = %v; want %v", got, want)
	}
	all, _ := s.List(ctx, ListQuery{})
	for _, r := range all {
		if r.Attention != slices.Contains(want, r.Id) {
			t.Errorf("row %s Attention = %v", r.Number, r.Attention)
		}
	}
	if n, err := s.NeedsAttentionCount(ctx); err != nil || n != len(want) {
		t.Errorf("NeedsAttentionCount = %d, %v; want %d", n, err, len(want))
	}
	// Two days later the calm one's on-site deadline is close too.
	clk.Advance(50 * time.Hour)
	if n, _ := s.NeedsAttentionCount(ctx); n != len(want)+1 {
		t.Errorf("after 50 h NeedsAttentionCount = %d; want %d", n, len(want)+1)
	}
}

func TestSettings(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	if err := s.SetSetting(ctx, "list.sort", "deadline"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.Setting(ctx, "list.sort"); err != nil || !ok || v != "deadline" {
		t.Fatalf("Setting = %q, %v, %v; want what was stored", v, ok, err)
	}
	for _, k := range []string{"client_secret", "ClientSecret", "access_token", "password"} {
		if err := s.SetSetting(ctx, k, "x"); !errors.Is(err, ErrSecretSetting) {
			t.Errorf("SetSetting(%q) = %v; want ErrSecretSetting", k, err)
		}
	}
	if err := s.SetSetting(ctx, "token_url", "https://y/token"); err != nil {
		t.Errorf("token URL is not a secret: %v", err)
	}
	if !s.LastSync(ctx).IsZero() {
		t.Error("LastSync before any sync is not zero")
	}
}

// A replica written by the first schema (JSON inside work_orders, old FTS
// table) opens under the current one with its data and search intact.
func TestMigrationFromFirstSchemaKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "replica.db")
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := migrationFiles.ReadFile("migrations/0001_init.sql")
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER NOT NULL)`, `INSERT INTO schema_version VALUES (1)`, string(first),
		`INSERT INTO work_orders(id, number, status, customer_name, site, json) VALUES
		 (5, 'WO-5', 'New', 'Old Customer', 'Old Site', '{"WorkOrderId":5,"WorkOrderNumber":"WO-5","Status":"New","Currency":"USD","Nte":{"Amount":12.5}}')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("building a v1 replica: %v", err)
		}
	}
	db.Close()

	s, _ := openAt(t, path)
	if v, _ := s.SchemaVersion(ctx); v < 2 {
		t.Fatalf("schema version %d after open", v)
	}
	wo, err := s.WorkOrder(ctx, 5)
	if err != nil || wo.WorkOrderNumber != "WO-5" || wo.Nte.Amount.Amount.String() != "12.5" {
		t.Fatalf("work order after migration = %+v, %v", wo, err)
	}
	if rows, err := s.List(ctx, ListQuery{Search: "old cust"}); err != nil || len(rows) != 1 {
		t.Errorf("search after migration = %v, %v", rows, err)
	}
}

// TestMigrationDropsTheUTCTimeFromQueuedVisits: a check-in queued by an
// earlier version said "Check in at … UTC"; after the upgrade it reads like
// a new one, and its time still comes from the request, shown in local time.
func TestMigrationDropsTheUTCTimeFromQueuedVisits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "replica.db")
	s, _ := openAt(t, path)
	put(t, s, woSpec{id: 9, number: "WO-9", status: api.StatusAccepted})
	at := testNow.Add(-2 * time.Hour)
	row, err := s.CheckIn(ctx, 9, &at, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE outbox SET summary = 'Check in at ` + at.UTC().Format("2006-01-02 15:04") + ` UTC'`,
	} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	rewindSchema(t, s, 5)
	s.Close()

	s2, _ := openAt(t, path)
	got, err := s2.OutboxRow(ctx, row.Id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary != "Check in" || !got.ActionDate.Equal(at) {
		t.Errorf("queued check-in after the upgrade: summary %q, time %v; want \"Check in\", %v", got.Summary, got.ActionDate, at)
	}
}

// The replica computes the list's next deadline in SQL (an indexed,
// generated column); it must pick the date api's rule names in every
// status, the ones the service documents and one it does not.
func TestNextDeadlineColumnFollowsTheRule(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	statuses := append(slices.Clone(api.AllStatuses), "SomethingNew")
	var specs []woSpec
	for i, st := range statuses {
		specs = append(specs, woSpec{id: int64(i + 1), number: fmt.Sprintf("WO-%d", i), status: st,
			ack: time.Hour, on: 2 * time.Hour, due: 3 * time.Hour})
	}
	put(t, s, specs...)
	// Every one has an invoice still to submit, by a date of its own.
	invoiceBy := testNow.Add(4 * time.Hour)
	for _, sp := range specs {
		if err := putInvoice(ctx, s.w, sp.id, &api.Invoice{WorkOrderId: sp.id, Status: api.InvoiceDraft, SubmissionDeadline: &invoiceBy}, 0); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := s.List(ctx, ListQuery{Sort: SortNumber})
	if err != nil {
		t.Fatal(err)
	}
	at := map[api.Deadline]time.Time{api.AcknowledgeBy: testNow.Add(time.Hour), api.OnSiteBy: testNow.Add(2 * time.Hour),
		api.DueBy: testNow.Add(3 * time.Hour), api.InvoiceBy: invoiceBy}
	for _, r := range rows {
		want := r.Status.NextDeadline()
		if r.NextDeadlineLabel != want.Label() || !r.NextDeadline.Equal(at[want]) {
			t.Errorf("%s: the list shows %q %v; the rule says %q %v", r.Status, r.NextDeadlineLabel, r.NextDeadline, want.Label(), at[want])
		}
	}
	if len(rows) != len(statuses) {
		t.Errorf("listed %d work orders, put %d", len(rows), len(statuses))
	}
}

// TestJoinNonEmpty: the address and description columns a search reads
// join the parts that are there, blanks dropped.
func TestJoinNonEmpty(t *testing.T) {
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{nil, ""},
		{[]string{" ", ""}, ""},
		{[]string{"", " 1 Main St "}, "1 Main St"},
		{[]string{"1 Main St", "", "Springfield", " ", "IL"}, "1 Main St, Springfield, IL"},
	} {
		if got := joinNonEmpty(", ", c.parts...); got != c.want {
			t.Errorf("joinNonEmpty(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
}
