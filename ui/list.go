package ui

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

type column struct {
	title string
	width float32
	sort  storage.Column
}

// The first column holds the bulk-selection check boxes and does not sort.
var columns = []column{
	{"", 34, -1},
	{"Number", 96, storage.SortNumber},
	{"Customer", 150, storage.SortCustomer},
	{"Status", 112, storage.SortStatus},
	{"NTE", 100, storage.SortNte},
	{"Cur", 46, storage.SortCurrency},
	{"Quote", 98, storage.SortQuoteStatus},
	{"Next deadline", 190, storage.SortNextDeadline},
	{"Scheduled", 128, storage.SortScheduledStart},
	{"Site", 200, storage.SortSite},
}

// Column indexes, most telling first so they fit beside the detail view.
const (
	colSelect = iota
	colNumber
	colCustomer
	colStatus
	colNte
	colCurrency
	colQuote
	colDeadline
	colScheduled
	colSite
)

var (
	openRowFill      = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0x38}
	attentionRowFill = color.NRGBA{R: 0xd9, G: 0x7a, B: 0x06, A: 0x1c}
)

// pageSize rows are read from the replica at a time; the table asks only
// for the rows it shows, so a keystroke costs a count and one page however
// many work orders match.
const (
	pageSize = 50
	maxPages = 60
)

// listView is the left pane: search, filters, bulk actions and the table.
type listView struct {
	store *storage.Store
	prefs fyne.Preferences

	query     storage.ListQuery
	shown     storage.ListQuery // the query whose rows the table shows
	lister    *lister
	all       int                   // work orders in the replica
	total     int                   // rows matching the query
	pages     map[int][]storage.Row // page number → its rows, read on demand
	pageOrder []int                 // least recently read first
	selected  map[int64]bool        // ticked for bulk actions
	openID    int64
	readErr   error // the last failed page read, reported once
	// marks are the work orders a colleague changed lately (office mode),
	// read once per reload by loadMarks: a cell only looks its row up.
	marks     map[int64]storage.ColleagueChange
	loadMarks func() map[int64]storage.ColleagueChange

	table     *woTable
	search    *searchEntry
	statusSel *widget.Select
	attention *widget.Check
	count     *widget.Label
	empty     *widget.Label // says why the table is empty
	bulkHint  *widget.Label
	acceptBtn *widget.Button
	rejectBtn *widget.Button

	onOpen       func(id int64)
	onBulkAccept func(ids []int64)
	onBulkReject func(ids []int64)
	onError      func(error)
	// onReadError reports that rows could not be read (nil: they can be
	// again), once per failure however many cells asked.
	onReadError func(error)
}

func newListView(store *storage.Store, prefs fyne.Preferences, background, do func(func())) *listView {
	v := &listView{store: store, prefs: prefs, selected: map[int64]bool{}, pages: map[int][]storage.Row{},
		lister: newLister(store, background, do)}
	v.query.Sort = storage.Column(prefs.IntWithFallback("list.sort", int(storage.SortNextDeadline)))
	v.query.Desc = prefs.Bool("list.desc")

	v.search = newSearchEntry()
	v.search.onEnter = func() {
		if r, ok := v.rowAt(0); ok {
			v.open(r.Id)
		}
	}
	v.search.onDown = func() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(v.table); c != nil {
			c.Focus(v.table)
		}
	}
	v.search.onFocus = v.lister.warm
	v.search.SetPlaceHolder("Search number, customer, site or description  (Ctrl+F)")
	v.search.OnChanged = func(s string) { v.query.Search = s; v.lister.run(v.query, v.show(v.query)) }

	v.statusSel = widget.NewSelect(statusOptions(nil), nil)
	v.statusSel.PlaceHolder = widestOption(v.statusSel.Options) // a Select is as wide as its placeholder
	v.statusSel.SetSelectedIndex(0)
	// Option 0 is every status, option i the status api.AllStatuses[i-1];
	// the labels carry counts that change, so the index is what is read.
	v.statusSel.OnChanged = func(string) {
		v.query.Statuses = nil
		if i := v.statusSel.SelectedIndex(); i > 0 {
			v.query.Statuses = []api.WorkOrderStatus{api.AllStatuses[i-1]}
		}
		v.requery()
	}
	v.attention = widget.NewCheck("Needs attention", func(on bool) { v.query.NeedsAttention = on; v.requery() })

	v.count = widget.NewLabel("")
	v.count.TextStyle.Italic = true
	v.empty = widget.NewLabel("")
	v.empty.Alignment = fyne.TextAlignCenter
	v.empty.Wrapping = fyne.TextWrapWord
	v.empty.Hide()
	v.bulkHint = widget.NewLabel("Tick rows to accept or reject together")
	v.bulkHint.Importance = widget.LowImportance
	v.bulkHint.Alignment = fyne.TextAlignTrailing
	v.bulkHint.Truncation = fyne.TextTruncateEllipsis
	v.acceptBtn = widget.NewButtonWithIcon("Accept", theme.ConfirmIcon(), func() { v.onBulkAccept(v.selectedIDs()) })
	v.rejectBtn = widget.NewButtonWithIcon("Reject", theme.CancelIcon(), func() { v.onBulkReject(v.selectedIDs()) })

	v.table = newWOTable()
	v.table.Length = func() (int, int) { return v.total, len(columns) }
	v.table.CreateCell = func() fyne.CanvasObject { return newCell() }
	v.table.UpdateCell = v.updateCell
	v.table.ShowHeaderRow = true
	v.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		b.Alignment = widget.ButtonAlignLeading
		return b
	}
	v.table.UpdateHeader = v.updateHeader
	v.table.OnSelected = func(id widget.TableCellID) {
		if r, ok := v.rowAt(id.Row); ok && id.Col != colSelect {
			v.open(r.Id)
		}
		v.table.UnselectAll() // the open row is shown by its background, not a cell focus
	}
	v.table.onEnter = func(row int) {
		if r, ok := v.rowAt(row); ok {
			v.open(r.Id)
		}
	}
	v.table.onResized = func(w map[int]float32) {
		for col, width := range w {
			prefs.SetFloat("list.col."+strconv.Itoa(col), float64(width))
		}
	}
	for i, c := range columns {
		v.table.SetColumnWidth(i, float32(prefs.FloatWithFallback("list.col."+strconv.Itoa(i), float64(c.width))))
	}
	v.updateBulk()
	return v
}

func (v *listView) content() fyne.CanvasObject {
	// The search box has a row of its own: on a narrow list it would
	// otherwise be squeezed to a few letters by the filters beside it.
	find := container.NewBorder(nil, nil, nil, v.count, v.search)
	filters := container.NewBorder(nil, nil, container.NewHBox(v.statusSel, v.attention), container.NewHBox(v.acceptBtn, v.rejectBtn), v.bulkHint)
	return container.NewBorder(container.NewVBox(find, filters), nil, nil, nil,
		container.NewStack(v.table, container.NewVBox(layout.NewSpacer(), v.empty, layout.NewSpacer())))
}

// reload re-reads the list after the replica changed: the number of work
// orders and of each status, then the rows of the current query.
func (v *listView) reload() {
	ctx := context.Background()
	if n, err := v.store.Count(ctx); err == nil {
		v.all = n
	}
	if counts, err := v.store.StatusCounts(ctx); err == nil {
		v.setStatusCounts(counts)
	}
	if v.loadMarks != nil {
		v.marks = v.loadMarks()
	}
	v.requery()
}

// statusOptions are the status filter's choices, with how many work orders
// each has when counts are known: "All statuses (72)", "New (12)".
func statusOptions(counts map[api.WorkOrderStatus]int) []string {
	label := func(s string, n int) string {
		if counts == nil {
			return s
		}
		return fmt.Sprintf("%s (%d)", s, n)
	}
	all := 0
	for _, n := range counts {
		all += n
	}
	opts := []string{label("All statuses", all)}
	for _, s := range api.AllStatuses {
		opts = append(opts, label(shortStatus(s), counts[s]))
	}
	return opts
}

// widestOption is the option that takes the most room on screen.
func widestOption(opts []string) string {
	widest, w := "", float32(0)
	for _, o := range opts {
		if ow := fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width; ow > w {
			widest, w = o, ow
		}
	}
	return widest
}

// setStatusCounts relabels the status filter, keeping the chosen status.
func (v *listView) setStatusCounts(counts map[api.WorkOrderStatus]int) {
	i := v.statusSel.SelectedIndex()
	v.statusSel.Options = statusOptions(counts)
	v.statusSel.PlaceHolder = widestOption(v.statusSel.Options) // a Select is as wide as its placeholder
	if i >= 0 && i < len(v.statusSel.Options) {
		v.statusSel.Selected = v.statusSel.Options[i] // not SetSelected: the filter itself did not change
	}
	v.statusSel.Refresh()
}

// requery reads the length and first page of the current query and shows
// them; the table then reads the other pages it shows. The open work
// order, the ticks and the scroll position stay. A keystroke in the search
// box reads them in the background instead (lister.run).
func (v *listView) requery() { v.lister.now(v.query, v.show(v.query)) }

// show puts the answer to q on screen. It runs on every keystroke, so it
// touches nothing else.
func (v *listView) show(q storage.ListQuery) func(listAnswer) {
	return func(a listAnswer) {
		if a.err != nil {
			v.onError(fmt.Errorf("reading the work order list: %w", a.err))
			return
		}
		v.shown = q
		v.total = a.total
		v.pages = map[int][]storage.Row{0: a.first}
		v.pageOrder = []int{0}
		v.table.refreshLength()
		v.updateCount()
		v.updateBulk()
	}
}

// rowAt returns the i-th row of the list, reading its page when needed.
// It stays on the main goroutine: one indexed page through the reader pool,
// which WAL runs beside the writer, so it never waits for a sync.
func (v *listView) rowAt(i int) (storage.Row, bool) {
	if i < 0 || i >= v.total {
		return storage.Row{}, false
	}
	p := i / pageSize
	rows, ok := v.pages[p]
	if !ok {
		q := v.shown
		q.Limit, q.Offset = pageSize, p*pageSize
		var err error
		if rows, err = v.store.List(context.Background(), q); err != nil {
			v.readFailed(err)
			return storage.Row{}, false
		}
		v.readFailed(nil)
		v.pages[p] = rows
		v.pageOrder = append(v.pageOrder, p)
		if len(v.pageOrder) > maxPages {
			delete(v.pages, v.pageOrder[0])
			v.pageOrder = v.pageOrder[1:]
		}
	}
	if i-p*pageSize >= len(rows) {
		return storage.Row{}, false // the replica changed under us; the next reload fixes it
	}
	return rows[i-p*pageSize], true
}

// readFailed reports a failed page read once, and that reading works again.
func (v *listView) readFailed(err error) {
	if (err == nil) == (v.readErr == nil) {
		return
	}
	v.readErr = err
	if v.onReadError != nil {
		v.onReadError(err)
	}
}

func (v *listView) updateEmpty() {
	switch {
	case v.total > 0:
		v.empty.Hide()
		return
	case v.all == 0:
		v.empty.SetText("No work orders yet. They appear after the first sync with the service.")
	case v.query.Search != "":
		v.empty.SetText(fmt.Sprintf("No work order matches “%s”.\nSearch finds a work order number by any of its digits, and customers, sites and descriptions by how their words start.", v.query.Search))
	default:
		v.empty.SetText("No work order matches these filters.")
	}
	v.empty.Show()
}

func (v *listView) updateCount() {
	v.updateEmpty()
	if v.query.Search == "" && len(v.query.Statuses) == 0 && !v.query.NeedsAttention {
		v.count.SetText(fmt.Sprintf("%d work orders", v.all))
		return
	}
	v.count.SetText(fmt.Sprintf("%d of %d work orders", v.total, v.all))
}

func (v *listView) setAttentionCount(n int) {
	v.attention.Text = fmt.Sprintf("Needs attention (%d)", n)
	v.attention.Refresh()
}

func (v *listView) open(id int64) {
	v.openID = id
	v.table.Refresh()
	v.onOpen(id)
}

// selectedIDs are the ticked work orders, in id order.
func (v *listView) selectedIDs() []int64 {
	ids := make([]int64, 0, len(v.selected))
	for id := range v.selected {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (v *listView) clearSelection() {
	v.selected = map[int64]bool{}
	v.table.Refresh()
	v.updateBulk()
}

func (v *listView) updateBulk() {
	n := len(v.selectedIDs())
	if n == 0 {
		v.bulkHint.Show()
		v.acceptBtn.Hide()
		v.rejectBtn.Hide()
		return
	}
	v.bulkHint.Hide()
	v.acceptBtn.SetText(fmt.Sprintf("Accept %d", n))
	v.rejectBtn.SetText(fmt.Sprintf("Reject %d", n))
	v.acceptBtn.Show()
	v.rejectBtn.Show()
}

func (v *listView) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*widget.Button)
	if id.Col < 0 || id.Col >= len(columns) {
		return
	}
	c := columns[id.Col]
	title := c.title
	if id.Col != colSelect && c.sort == v.query.Sort {
		if v.query.Desc {
			title += " ▼"
		} else {
			title += " ▲"
		}
	}
	b.SetText(title)
	if id.Col == colSelect {
		b.OnTapped = nil
		return
	}
	b.OnTapped = func() {
		if v.query.Sort == c.sort {
			v.query.Desc = !v.query.Desc
		} else {
			v.query.Sort, v.query.Desc = c.sort, false
		}
		v.prefs.SetInt("list.sort", int(v.query.Sort))
		v.prefs.SetBool("list.desc", v.query.Desc)
		v.requery()
	}
}

func (v *listView) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*cell)
	r, ok := v.rowAt(id.Row)
	if !ok {
		c.setText("", fyne.TextAlignLeading, false)
		c.setMark("")
		return
	}
	mark := ""
	if m, ok := v.marks[r.Id]; ok && id.Col == colNumber {
		mark = initials(m.Name)
	}
	c.setMark(mark) // cells are recycled across columns: every update sets it
	switch {
	case r.Id == v.openID:
		c.setBackground(openRowFill)
	case r.Attention:
		c.setBackground(attentionRowFill)
	default:
		c.setBackground(color.Transparent)
	}
	switch id.Col {
	case colSelect:
		rid := r.Id
		c.setCheck(v.selected[rid], func(on bool) {
			if on {
				v.selected[rid] = true
			} else {
				delete(v.selected, rid)
			}
			v.updateBulk()
		})
	case colNumber:
		c.setText(r.Number, fyne.TextAlignLeading, true)
	case colCustomer:
		c.setText(r.Customer, fyne.TextAlignLeading, false)
	case colSite:
		c.setText(orDash(r.Site), fyne.TextAlignLeading, false)
	case colStatus:
		c.setBadge(shortStatus(r.Status), statusColor(r.Status))
	case colNte:
		c.setText(nteText(r.Nte), fyne.TextAlignTrailing, false)
	case colCurrency:
		c.setText(r.Nte.Currency, fyne.TextAlignLeading, false)
	case colQuote:
		c.setBadge(string(r.QuoteStatus), quoteColor(r.QuoteStatus))
	case colScheduled:
		if r.ScheduledStart.IsZero() {
			c.setText("—", fyne.TextAlignLeading, false)
		} else {
			c.setText(localTime(r.ScheduledStart), fyne.TextAlignLeading, false)
		}
	case colDeadline:
		if r.NextDeadline.IsZero() {
			c.setText("—", fyne.TextAlignLeading, false)
		} else {
			c.setText(r.NextDeadlineLabel+" · "+timeLeft(r.NextDeadline), fyne.TextAlignLeading, r.Attention)
		}
	}
}
