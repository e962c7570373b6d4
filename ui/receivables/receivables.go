// Package receivables is the receivables view: the invoices across work
// orders with their status, amount, dates and the customer's numbers,
// filtered by customer, status and age; totals per currency (never added
// across currencies); charts of what is outstanding per customer and age,
// per currency, and of how the SLA deadlines were kept over the last 12
// weeks. It depends only on Source, never on the window that opens it,
// so it is tested against a fake.
package receivables

import (
	"context"
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// Source is what the view reads: the replica's invoices and deadlines.
type Source interface {
	Receivables(ctx context.Context, f api.ReceivableFilter) ([]api.Receivable, error)
	ReceivableCustomers(ctx context.Context) ([]api.Customer, error)
	SlaRecords(ctx context.Context, from time.Time) ([]api.SlaRecord, error)
}

// Options are what the view needs from whoever opens it.
type Options struct {
	Now func() time.Time // nil = time.Now
	// Background runs a read off the main goroutine (nil: a goroutine);
	// Do hands its result back (nil: fyne.Do).
	Background func(func())
	Do         func(func())
	// Open shows a work order (a row's double tap); nil: rows open nothing.
	Open func(workOrderId int64)
	// OnError is told a read that failed (nil: the view's status line says it).
	OnError func(error)
	// Export is the Export… button's action: whoever opens the view writes
	// the file from Table, so the view needs no exporter. nil: no button.
	Export func()
}

// SlaWeeks is how far back the SLA chart looks.
const SlaWeeks = 12

// Age bucket colours, young to old, and the SLA's kept and missed: mid
// tones that read on light and dark backgrounds alike.
var (
	bucketColors = [4]color.Color{
		color.NRGBA{R: 0x2d, G: 0xa4, B: 0x4e, A: 0xff},
		color.NRGBA{R: 0xd4, G: 0xa7, B: 0x2c, A: 0xff},
		color.NRGBA{R: 0xe1, G: 0x6f, B: 0x24, A: 0xff},
		color.NRGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff},
	}
	keptColor   = color.NRGBA{R: 0x2d, G: 0xa4, B: 0x4e, A: 0xff}
	missedColor = color.NRGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff}
)

// View is the receivables view.
type View struct {
	src  Source
	opts Options

	filter    api.ReceivableFilter
	customers []api.Customer
	rows      []api.Receivable
	aging     []api.Aging
	sla       []api.CustomerSla
	at        time.Time // the now the rows were aged at

	customerSel *widget.Select
	statusSel   *widget.Select
	ageSel      *widget.Select
	totals      *fyne.Container
	count       *widget.Label
	table       *widget.Table
	charts      *fyne.Container
	slaChart    *xwidget.StackedBars
	status      *widget.Label
	content     fyne.CanvasObject
	widths      []float32 // the columns' widths on screen now (fitColumns)

	loading, again bool
}

// New builds the view over src; Reload reads it.
func New(src Source, opts Options) *View {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Background == nil {
		opts.Background = func(f func()) { go f() }
	}
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	v := &View{src: src, opts: opts}
	v.build()
	return v
}

// Content is the view's canvas object.
func (v *View) Content() fyne.CanvasObject { return v.content }

func (v *View) build() {
	v.customerSel = widget.NewSelect([]string{allCustomers}, func(string) { v.filterChanged() })
	v.customerSel.SetSelectedIndex(0)
	v.statusSel = widget.NewSelect(statusChoices(), func(string) { v.filterChanged() })
	v.statusSel.SetSelectedIndex(0)
	v.ageSel = widget.NewSelect(ageChoices(), func(string) { v.filterChanged() })
	v.ageSel.SetSelectedIndex(0)
	v.count = widget.NewLabel("")
	v.status = widget.NewLabel("")
	v.status.Importance = widget.LowImportance
	var filters fyne.CanvasObject = container.NewHBox(
		widget.NewLabel("Customer"), sized(v.customerSel, 220),
		widget.NewLabel("Status"), sized(v.statusSel, 190),
		widget.NewLabel("Age"), sized(v.ageSel, 130),
		v.count)
	if v.opts.Export != nil {
		export := widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), v.opts.Export)
		filters = container.NewBorder(nil, nil, nil, export, filters)
	}
	v.totals = container.NewGridWrap(fyne.NewSize(totalWidth, totalHeight(2)))
	v.widths = make([]float32, len(Columns))
	v.table = v.newTable()
	v.slaChart = xwidget.NewStackedBars(fmt.Sprintf("SLA kept and missed, last %d weeks", SlaWeeks),
		xwidget.BarSeries{Name: "Kept", Color: keptColor}, xwidget.BarSeries{Name: "Missed", Color: missedColor})
	v.slaChart.Empty = "No deadline in this period yet"
	// The charts sit under the table, as many across as fit (chartGrid):
	// the table keeps the window's width for its eleven columns, in a
	// compact theme and fitted to the width (fitColumns).
	v.charts = container.New(&chartGrid{})
	table := container.New(&fitColumns{set: v.setWidth}, container.NewThemeOverride(v.table, compactTheme{}))
	split := container.NewVSplit(table, container.NewVScroll(v.charts))
	split.Offset = 0.5
	top := container.NewVBox(filters, v.totals)
	v.content = container.NewBorder(top, v.status, nil, nil, split)
}

// totalWidth is a currency's totals' width: four fit 1024 px in a row.
const totalWidth = 250

// totalHeight is the height of a currency's totals of n lines.
func totalHeight(n int) float32 {
	return widget.NewLabel("X").MinSize().Height*float32(n) - theme.Padding()*3*float32(n-1)
}

// sized keeps a select at a width that fits its longest choice.
func sized(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
}

// Reload reads the replica again with the filters as they are. A reload
// asked for while one runs runs once more after it.
func (v *View) Reload() {
	if v.loading {
		v.again = true
		return
	}
	v.loading = true
	f := v.filter
	now := v.opts.Now()
	f.Now = now
	v.opts.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		custs, err := v.src.ReceivableCustomers(ctx)
		var rows []api.Receivable
		var recs []api.SlaRecord
		if err == nil {
			rows, err = v.src.Receivables(ctx, f)
		}
		from := now.AddDate(0, 0, -7*SlaWeeks)
		if err == nil {
			recs, err = v.src.SlaRecords(ctx, from)
		}
		var aging []api.Aging
		var sla []api.CustomerSla
		if err == nil {
			aging = api.AgingByCurrency(rows, now)
			sla = api.TallySla(onlyCustomer(recs, f.CustomerId), from, now)
		}
		v.opts.Do(func() {
			v.loading = false
			if err != nil {
				v.failed(err)
			} else {
				v.customers, v.rows, v.aging, v.sla, v.at = custs, rows, aging, sla, now
				v.show()
			}
			if v.again {
				v.again = false
				v.Reload()
			}
		})
	})
}

func onlyCustomer(rs []api.SlaRecord, id int64) []api.SlaRecord {
	if id == 0 {
		return rs
	}
	var out []api.SlaRecord
	for _, r := range rs {
		if r.Customer.Id == id {
			out = append(out, r)
		}
	}
	return out
}

func (v *View) failed(err error) {
	if v.opts.OnError != nil {
		v.opts.OnError(err)
		return
	}
	v.status.SetText("Could not read the invoices: " + err.Error())
}

// show draws what was read.
func (v *View) show() {
	v.showCustomers()
	n := len(v.rows)
	switch n {
	case 0:
		v.count.SetText("No invoice matches")
	case 1:
		v.count.SetText("1 invoice")
	default:
		v.count.SetText(fmt.Sprintf("%d invoices", n))
	}
	v.showTotals()
	v.table.Refresh()
	v.showCharts()
	// What was added changed the sizes the layout gave out: lay it out again.
	v.content.(*fyne.Container).Refresh()
	v.status.SetText(fmt.Sprintf("Ages counted to %s. The submitted date is the invoice's date; the service publishes no other.",
		v.at.Local().Format("2 Jan 2006 15:04")))
}

// showCustomers fills the customer filter, keeping the choice.
func (v *View) showCustomers() {
	opts := []string{allCustomers}
	sel := 0
	for i, c := range v.customers {
		opts = append(opts, c.Name)
		if c.Id == v.filter.CustomerId {
			sel = i + 1
		}
	}
	v.customerSel.Options = opts
	v.customerSel.Selected = opts[sel]
	v.customerSel.Refresh()
}

// showTotals writes the totals per currency: what is outstanding of all
// that was billed, each count of the invoices its figure sums; then, apart
// and never in those figures, the drafts, the invoices awaiting
// verification and those of a status we do not know. Never one figure
// across currencies.
func (v *View) showTotals() {
	v.totals.RemoveAll()
	totals := api.TotalsByCurrency(v.rows)
	lines := 2
	if len(totals) == 0 {
		v.totals.Add(widget.NewLabel("No totals: no invoice matches the filters."))
	}
	for _, t := range totals {
		out := widget.NewLabelWithStyle(fmt.Sprintf("%s  %s outstanding", t.Currency, t.Outstanding.Format()), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		parts := []fyne.CanvasObject{out, low(fmt.Sprintf("of %s billed · %s", t.Total.Format(), invoices(t.Count)))}
		if t.DraftCount > 0 {
			parts = append(parts, low(fmt.Sprintf("%s · %s, not billed", count(t.DraftCount, "draft", "drafts"), t.Drafts.Format())))
		}
		if t.PendingCount > 0 {
			parts = append(parts, low(fmt.Sprintf("%d awaiting verification · %s", t.PendingCount, t.Pending.Format())))
		}
		if t.OtherCount > 0 {
			parts = append(parts, low(fmt.Sprintf("%s · %s", count(t.OtherCount, "other status", "other statuses"), t.Other.Format())))
		}
		lines = max(lines, len(parts))
		v.totals.Add(container.New(layout.NewCustomPaddedVBoxLayout(-theme.Padding()*3), parts...))
	}
	v.totals.Layout = layout.NewGridWrapLayout(fyne.NewSize(totalWidth, totalHeight(lines)))
}

// low is a total's secondary line.
func low(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Importance = widget.LowImportance
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func invoices(n int) string { return count(n, "invoice", "invoices") }

// showCharts draws one aging chart per currency and the SLA chart.
func (v *View) showCharts() {
	v.charts.RemoveAll()
	var charts []fyne.CanvasObject
	var series []xwidget.BarSeries
	for _, b := range api.AgeBuckets {
		series = append(series, xwidget.BarSeries{Name: b.String(), Color: bucketColors[b]})
	}
	if len(v.aging) == 0 {
		empty := xwidget.NewStackedBars("Outstanding by customer and age", series...)
		empty.Empty = "Nothing outstanding among these invoices"
		charts = append(charts, empty)
	}
	for _, a := range v.aging {
		c := xwidget.NewStackedBars(fmt.Sprintf("Outstanding in %s by customer and age", a.Currency), series...)
		cur := a.Currency
		c.Tick = func(x float64) string { return compact(x, cur) }
		var rows []xwidget.BarRow
		undated := 0
		for _, ca := range a.Customers {
			vals := make([]float64, len(ca.ByBucket))
			for i, d := range ca.ByBucket {
				vals[i] = d.InexactFloat64() // a bar's length only; the figure is written exactly
			}
			rows = append(rows, xwidget.BarRow{Label: ca.Customer.Name, Values: vals, Note: ca.Total.Format()})
			undated += ca.Undated
		}
		foot := ""
		if undated > 0 {
			foot = fmt.Sprintf("%s without a date: in the total, in no age bucket", invoices(undated))
		}
		c.SetRows(rows, foot)
		charts = append(charts, c)
	}
	charts = append(charts, v.slaChart)
	v.charts.Objects = charts

	var rows []xwidget.BarRow
	unjudged := 0
	for _, c := range v.sla {
		kept, missed := api.Sum(c.Kept), api.Sum(c.Missed)
		unjudged += api.Sum(c.Unjudged)
		if kept+missed == 0 {
			rows = append(rows, xwidget.BarRow{Label: c.Customer.Name, Note: "none could be judged"})
			continue
		}
		rows = append(rows, xwidget.BarRow{Label: c.Customer.Name, Values: []float64{float64(kept), float64(missed)},
			Note: fmt.Sprintf("%d of %d kept", kept, kept+missed)})
	}
	foot := "Acknowledged, on site and completed, each by its deadline."
	switch unjudged {
	case 0:
	case 1:
		foot = "1 deadline could not be judged: no time was recorded for it."
	default:
		foot = fmt.Sprintf("%d deadlines could not be judged: no time was recorded for them.", unjudged)
	}
	v.slaChart.SetRows(rows, foot)
}

// compact writes a scale value short: "$1.5k", "¥120k", "€2M".
func compact(x float64, currency string) string {
	sym := api.Symbol(currency)
	switch {
	case x >= 1e6:
		return sym + trim(fmt.Sprintf("%.1f", x/1e6)) + "M"
	case x >= 1e3:
		return sym + trim(fmt.Sprintf("%.1f", x/1e3)) + "k"
	}
	return sym + trim(fmt.Sprintf("%.0f", x))
}

func trim(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
