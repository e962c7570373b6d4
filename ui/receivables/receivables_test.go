package receivables

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// fake is the view's Source: invoices and deadlines in memory, and the
// filters the view asked with.
type fake struct {
	mu      sync.Mutex
	rows    []api.Receivable
	sla     []api.SlaRecord
	filters []api.ReceivableFilter
}

func (f *fake) Receivables(_ context.Context, flt api.ReceivableFilter) ([]api.Receivable, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.filters = append(f.filters, flt)
	var out []api.Receivable
	for _, r := range f.rows {
		if flt.Keeps(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fake) ReceivableCustomers(context.Context) ([]api.Customer, error) {
	var out []api.Customer
	for _, r := range f.rows {
		if !slices.Contains(out, r.Customer) {
			out = append(out, r.Customer)
		}
	}
	slices.SortFunc(out, func(a, b api.Customer) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func (f *fake) SlaRecords(_ context.Context, from time.Time) ([]api.SlaRecord, error) {
	return f.sla, nil
}

var (
	now     = time.Date(2026, 12, 9, 15, 0, 0, 0, time.UTC)
	north   = api.Customer{Id: 4101, Name: "Northwind Retail"}
	sakura  = api.Customer{Id: 4104, Name: "Sakura Mart Japan"}
	rhein   = api.Customer{Id: 4105, Name: "Rheinland Offices"}
	kensing = api.Customer{Id: 4103, Name: "Kensington Foods UK"}
)

func ago(d int) *time.Time { t := now.AddDate(0, 0, -d).Truncate(24 * time.Hour); return &t }
func h(n int) *time.Time   { t := now.Add(time.Duration(n) * time.Hour); return &t }

func world() *fake {
	inv := func(id int64, num string, c api.Customer, st api.InvoiceStatus, amt, cur string, age int) api.Receivable {
		return api.Receivable{WorkOrderId: id, WorkOrderNumber: num, Customer: c, Status: st, InvoiceNumber: "INV-" + num,
			Amount: api.MustMoney(amt, cur), Submitted: ago(age)}
	}
	paid := inv(3, "NWR73103", north, api.InvoicePaid, "1180.00", "USD", 50)
	paid.AuthNumber, paid.CheckNumber, paid.PaidDate = "AUTH-1001", "CHK-2001", ago(20)
	auth := inv(2, "NWR73102", north, api.InvoiceAuthorized, "640.50", "USD", 40)
	auth.AuthNumber = "AUTH-1002"
	disputed := inv(5, "SMJ73105", sakura, api.InvoiceDisputed, "48000", "JPY", 95)
	disputed.Comment = "Trip charge billed twice"
	return &fake{
		rows: []api.Receivable{
			inv(1, "NWR73101", north, api.InvoiceSubmitted, "1250.00", "USD", 12),
			auth, paid,
			inv(4, "SMJ73104", sakura, api.InvoiceSubmitted, "120000", "JPY", 70),
			disputed,
			inv(6, "RHO73106", rhein, api.InvoiceSubmitted, "980.00", "EUR", 33),
			inv(7, "KFU73107", kensing, api.InvoiceAuthorized, "455.20", "GBP", 8),
		},
		sla: []api.SlaRecord{
			{Customer: north, Status: api.StatusVerified, Sla: &api.Sla{AcknowledgeBy: h(-300), OnSiteBy: h(-290), DueDate: h(-200)},
				Met: map[api.Deadline]time.Time{api.AcknowledgeBy: *h(-301), api.OnSiteBy: *h(-280), api.DueBy: *h(-210)}},
			{Customer: sakura, Status: api.StatusNew, Sla: &api.Sla{AcknowledgeBy: h(-5)}},
			{Customer: rhein, Status: api.StatusCheckedOut, Sla: &api.Sla{AcknowledgeBy: h(-100), OnSiteBy: h(-90)}},
		},
	}
}

// open shows the view in a test window of size, read once.
func open(t *testing.T, f *fake, size fyne.Size) (*View, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	v := New(f, Options{Now: func() time.Time { return now }, Background: func(g func()) { g() }, Do: func(g func()) { g() }})
	w := test.NewTempWindow(t, v.Content())
	w.Resize(size)
	v.Reload()
	return v, w
}

func numbers(v *View) []string {
	_, rows := v.Table()
	var out []string
	for _, r := range rows {
		out = append(out, r[0].(string))
	}
	return out
}

// The table lists every invoice; the totals are one per currency, the
// outstanding part without the paid invoice; a chart per currency.
func TestViewShowsInvoicesAndTotalsPerCurrency(t *testing.T) {
	v, _ := open(t, world(), fyne.NewSize(1280, 800))
	if got := len(numbers(v)); got != 7 {
		t.Fatalf("%d rows; want 7", got)
	}
	var totals []string
	for _, o := range v.totals.Objects {
		var words []string
		for _, l := range o.(*fyne.Container).Objects {
			words = append(words, l.(*widget.Label).Text)
		}
		totals = append(totals, strings.Join(words, " "))
	}
	want := []string{
		"EUR  €980.00 outstanding of €980.00 billed · 1 invoice",
		"GBP  £455.20 outstanding of £455.20 billed · 1 invoice",
		"JPY  ¥168,000 outstanding of ¥168,000 billed · 2 invoices",
		"USD  $1,890.50 outstanding of $3,070.50 billed · 3 invoices",
	}
	if !slices.Equal(totals, want) {
		t.Errorf("totals:\n%s\nwant:\n%s", strings.Join(totals, "\n"), strings.Join(want, "\n"))
	}
	var titles []string
	for _, o := range charts(v) {
		titles = append(titles, o.Title)
	}
	if len(titles) != 5 || !strings.Contains(titles[2], "JPY") || !strings.HasPrefix(titles[4], "SLA") {
		t.Errorf("aging charts %v; want one per currency", titles)
	}
}

// The filters: a status, an age bucket, a customer, each asked of the
// source and shown; the totals follow.
func TestViewFilters(t *testing.T) {
	f := world()
	v, _ := open(t, f, fyne.NewSize(1280, 800))
	v.statusSel.SetSelected("Disputed")
	if got := numbers(v); !slices.Equal(got, []string{"SMJ73105"}) {
		t.Errorf("disputed: %v", got)
	}
	v.statusSel.SetSelected(outstanding)
	v.ageSel.SetSelected(api.Age61to90.String())
	if got := numbers(v); !slices.Equal(got, []string{"SMJ73104"}) {
		t.Errorf("outstanding, 61–90 days: %v", got)
	}
	v.ageSel.SetSelected(anyAge)
	v.customerSel.SetSelected(north.Name)
	if got := numbers(v); !slices.Equal(got, []string{"NWR73101", "NWR73102"}) {
		t.Errorf("Northwind, outstanding: %v", got)
	}
	last := f.filters[len(f.filters)-1]
	if last.CustomerId != north.Id || len(last.Statuses) != 3 || last.Age != nil {
		t.Errorf("the source was asked %+v", last)
	}
	if n := len(charts(v)); n != 2 {
		t.Errorf("%d aging charts for one customer in one currency", n)
	}
	v.statusSel.SetSelected("Paid")
	v.customerSel.SetSelected(sakura.Name)
	if v.count.Text != "No invoice matches" || len(v.totals.Objects) != 1 {
		t.Errorf("nothing matches: count %q, %d totals", v.count.Text, len(v.totals.Objects))
	}
}

// Table is the filtered rows as typed values: money as api.Money, dates
// as time.Time, ages as days, nil where there is none.
func TestViewTableIsTyped(t *testing.T) {
	v, _ := open(t, world(), fyne.NewSize(1280, 800))
	v.customerSel.SetSelected(north.Name)
	cols, rows := v.Table()
	if len(cols) != 11 || cols[4].Type != Money || cols[6].Type != Date || cols[7].Type != Days {
		t.Fatalf("columns %+v", cols)
	}
	var paid []any
	for _, r := range rows {
		if r[0] == "NWR73103" {
			paid = r
		}
	}
	if paid == nil {
		t.Fatal("the paid invoice is not among the rows")
	}
	if m, ok := paid[4].(api.Money); !ok || m.Format() != "$1,180.00" {
		t.Errorf("amount %#v", paid[4])
	}
	if d, ok := paid[10].(time.Time); !ok || !d.Equal(*ago(20)) {
		t.Errorf("paid date %#v", paid[10])
	}
	if paid[7] != 30 || paid[9] != "CHK-2001" || paid[2] != "Paid" {
		t.Errorf("age %v, check %v, status %v", paid[7], paid[9], paid[2])
	}
	for _, r := range rows {
		if r[0] == "NWR73101" && r[10] != nil {
			t.Errorf("an unpaid invoice's paid date is %v", r[10])
		}
	}
}

// The SLA chart counts per customer what was judged and says how many
// deadlines could not be.
func TestViewSlaChart(t *testing.T) {
	v, _ := open(t, world(), fyne.NewSize(1280, 800))
	c := v.slaChart
	var notes []string
	for _, r := range c.Rows {
		notes = append(notes, r.Label+": "+r.Note)
	}
	want := []string{"Northwind Retail: 2 of 3 kept", "Rheinland Offices: none could be judged", "Sakura Mart Japan: 0 of 1 kept"}
	if !slices.Equal(notes, want) {
		t.Errorf("SLA rows %v; want %v", notes, want)
	}
	if c.Footnote != "2 deadlines could not be judged: no time was recorded for them." {
		t.Errorf("footnote %q", c.Footnote)
	}
}

// The whole view at 1280x800.
func TestViewGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	_, w := open(t, world(), fyne.NewSize(1280, 800))
	test.AssertImageMatches(t, "receivables_1280x800.png", w.Canvas().Capture())
}

func charts(v *View) []*xwidget.StackedBars {
	var out []*xwidget.StackedBars
	for _, o := range v.charts.Objects {
		out = append(out, o.(*xwidget.StackedBars))
	}
	return out
}

// notYetBilled is world with a draft, an invoice awaiting verification
// and one of a status this client does not know, all in dollars and dated.
func notYetBilled() *fake {
	f := world()
	add := func(id int64, num string, st api.InvoiceStatus, amt string) {
		f.rows = append(f.rows, api.Receivable{WorkOrderId: id, WorkOrderNumber: num, Customer: north, Status: st,
			InvoiceNumber: "INV-" + num, Amount: api.MustMoney(amt, "USD"), Submitted: ago(15)})
	}
	add(8, "NWR73108", api.InvoiceDraft, "942.59")
	add(9, "NWR73109", api.InvoicePendingVerification, "800.00")
	add(10, "NWR73110", "Returned", "40.00")
	return f
}

func totalTexts(v *View) []string {
	var out []string
	for _, o := range v.totals.Objects {
		var words []string
		for _, l := range o.(*fyne.Container).Objects {
			words = append(words, l.(*widget.Label).Text)
		}
		out = append(out, strings.Join(words, " | "))
	}
	return out
}

// "of $3,070.50 billed · 3 invoices" counts the three it sums: the draft,
// the one awaiting verification and the one of an unknown status are
// counted and summed apart; a draft and one awaiting verification show no
// submitted date nor age (A08). The unknown status reads "other (its
// name)", has its own filter entry and its own total.
func TestViewCountsWhatItSumsAndShowsDraftsApart(t *testing.T) {
	v, _ := open(t, notYetBilled(), fyne.NewSize(1280, 800))
	want := "USD  $1,890.50 outstanding | of $3,070.50 billed · 3 invoices | 1 draft · $942.59, not billed | " +
		"1 awaiting verification · $800.00 | 1 other status · $40.00"
	if got := totalTexts(v); len(got) != 4 || got[3] != want {
		t.Errorf("totals:\n%s\nwant the last:\n%s", strings.Join(got, "\n"), want)
	}
	if v.count.Text != "10 invoices" {
		t.Errorf("the count says %q", v.count.Text)
	}
	_, rows := v.Table()
	seen := map[string]bool{}
	for _, r := range rows {
		switch r[0] {
		case "NWR73108", "NWR73109":
			seen[r[2].(string)] = true
			if r[6] != nil || r[7] != nil {
				t.Errorf("%s (%s) shows submitted %v, age %v", r[0], r[2], r[6], r[7])
			}
		case "NWR73110":
			seen[r[2].(string)] = true
			if r[6] == nil {
				t.Errorf("the invoice of an unknown status hides its date")
			}
		}
	}
	if !seen["Draft"] || !seen["Awaiting verification"] || !seen["other (Returned)"] {
		t.Errorf("the statuses read %v", seen)
	}

	v.statusSel.SetSelected(otherStatus)
	if got := numbers(v); !slices.Equal(got, []string{"NWR73110"}) {
		t.Errorf("Other statuses lists %v", got)
	}
	if got := totalTexts(v); len(got) != 1 || got[0] != "USD  $0.00 outstanding | of $0.00 billed · 0 invoices | 1 other status · $40.00" {
		t.Errorf("Other statuses' totals: %q", got)
	}
	if v.Narrowed() != " (status Other statuses)" {
		t.Errorf("Narrowed = %q", v.Narrowed())
	}
}

// At 1024x700 every column is in the window with its title whole, more
// than five rows show, and the charts are two across, each as wide as its
// title and legend need (A12).
func TestViewAt1024x700(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	v, w := open(t, notYetBilled(), fyne.NewSize(1024, 700))
	pad := theme.Padding()
	right := float32(0)
	for i, width := range v.widths {
		right += width
		if i > 0 {
			right += pad
		}
		title := v.header(i)
		if need := fyne.MeasureText(title, theme.TextSize(), fyne.TextStyle{Bold: true}).Width + theme.InnerPadding(); need > width {
			t.Errorf("column %q is %.0f wide; its title needs %.0f", title, width, need)
		}
	}
	if tw := v.table.Size().Width; right > tw || tw > 1024 {
		t.Errorf("the columns end at %.0f in a table %.0f wide, in a window 1024 wide", right, tw)
	}
	rowH := cellLayout{}.MinSize([]fyne.CanvasObject{widget.NewLabel("X")}).Height + pad
	if rows := int((v.table.Size().Height - rowH) / rowH); rows <= 5 {
		t.Errorf("the table shows %d rows (%.0f high)", rows, v.table.Size().Height)
	}
	for _, c := range charts(v) {
		title := fyne.MeasureText(c.Title, theme.TextSize()*1.15, fyne.TextStyle{Bold: true}).Width + 2*theme.Padding()*2
		if c.Size().Width < title || c.Size().Width < chartWidth {
			t.Errorf("the chart %q is %.0f wide; its title needs %.0f", c.Title, c.Size().Width, title)
		}
	}
	if cs := charts(v); cs[1].Position().Y != cs[0].Position().Y || cs[2].Position().Y == cs[0].Position().Y {
		t.Errorf("the charts are not two across")
	}
	test.AssertImageMatches(t, "receivables_1024x700.png", w.Canvas().Capture())
}
