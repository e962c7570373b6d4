package list

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// pageSize rows are read from the replica at a time; the table asks only
// for the rows it shows, so a keystroke costs a count and one page however
// many work orders match.
const (
	pageSize = 50
	maxPages = 60
)

// View is the left pane: search, filters, bulk actions and the table.
type View struct {
	store Replica
	prefs fyne.Preferences
	win   Window

	query     storage.ListQuery
	shown     storage.ListQuery // the query whose rows the table shows
	lister    *lister
	all       int // work orders in the replica
	countsGen int // the newest reloadCounts
	total     int // rows the table shows: found and held
	found     int // rows the query found (the held ones aside)
	// held are the work orders the person acted on, drawn where they were
	// until they move on (keep), by row; heldRows their rows, read with
	// every answer.
	held      []heldRow
	heldRows  map[int64]storage.Row
	pages     map[int][]storage.Row // page number → its rows, read on demand
	pageOrder []int                 // least recently read first
	selected  map[int64]bool        // ticked for bulk actions
	openID    int64
	readErr   error           // the last failed page read, reported once
	cols      []int           // the column ids the table shows, in order (fitColumns)
	widths    map[int]float32 // their widths
	// marked: colleagues' marks may show (office mode), so the Number
	// column has room for one beside the number.
	marked bool
	// queued is, per work order, the status its waiting actions will give
	// it: the row shows it marked queued, as the header does.
	queued map[int64]api.WorkOrderStatus
	// unhide are the buttons under empty, one to clear each thing that
	// hides the rows: the search, the status filter, Needs attention.
	unhide emptyButtons
	// marks are the work orders a colleague changed lately (office mode),
	// read once per reload by colleagues' read and kept by its
	// UnseenMarks: a cell only looks its row up.
	marks      map[int64]storage.ColleagueChange
	colleagues Colleagues
	// cost is what the last ReloadLater's reads took, summed, and size the
	// work orders it counted (the window paces reloads by them: Pace).
	cost, size atomic.Int64

	table  *Table
	search *SearchEntry
	// openOnAnswer: Enter was pressed in the search box before the answer
	// to what was typed arrived; the answer opens its first row.
	openOnAnswer bool
	statusSel    *widget.Select
	attention    *widget.Check
	count        *widget.Label
	empty        *widget.Label // says why the table is empty
	bulkHint     *arrange.FitText
	bulkRow      *fyne.Container // the bulk buttons, wrapping (Content)
	// hiddenNote says that ticked rows the search or filters hide are left
	// out of Accept and Reject.
	hiddenNote  *widget.Label
	shownTicked []int64 // the ticked work orders the list shows: what Accept and Reject act on
	acceptBtn   *widget.Button
	rejectBtn   *widget.Button
	assignBtn   *widget.Button
	// assigneeSel filters by who is assigned (list_assigned.go);
	// assigned is who each listed work order is assigned to, read with
	// its page.
	assigneeSel *widget.Select
	assignees   []int64
	assigned    map[int64]storage.Assignees
}

// New is the list of the replica's work orders, sorted as the person last
// sorted it (prefs).
func New(store Replica, prefs fyne.Preferences, win Window) *View {
	v := &View{store: store, prefs: prefs, win: win, selected: map[int64]bool{}, pages: map[int][]storage.Row{},
		lister: newLister(store, win.Background, win.Do)}
	v.query.Sort = storage.Column(prefs.IntWithFallback("list.sort", int(storage.SortNextDeadline)))
	v.query.Desc = prefs.Bool("list.desc")

	v.search = newSearchEntry()
	v.search.onEnter = func() {
		if !v.lister.upToDate() {
			// Typed (or scanned) and Enter at once: the rows shown are
			// still those of an earlier search, whose first is another
			// work order (LMG73272 opened LMG73230, the first of "LMG7").
			v.openOnAnswer = true
			return
		}
		v.openFirstRow()
	}
	v.search.onDown = func() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(v.table); c != nil {
			c.Focus(v.table)
		}
	}
	v.search.onFocus = v.lister.warm
	v.search.window = win.Shortcut
	v.search.SetPlaceHolder("Search number, customer, site, description (" + win.ShortcutLabel("F") + ")")
	v.search.OnChanged = func(s string) { v.query.Search = s; v.moveOn(); v.lister.run(v.query, v.show(v.query)) }

	v.statusSel = widget.NewSelect(statusOptions(nil), nil)
	v.statusSel.PlaceHolder = arrange.WidestOption(v.statusSel.Options) // a Select is as wide as its placeholder
	v.statusSel.SetSelectedIndex(0)
	// Option 0 is every status, option i the status api.AllStatuses[i-1].
	// The labels carry counts that change, also while the choices are
	// open: a tap on "New (0)" after the counts became "New (5)" still
	// means New, and the filter then shows today's label.
	v.statusSel.OnChanged = func(label string) {
		i := statusIndex(label)
		if i >= 0 && i < len(v.statusSel.Options) && v.statusSel.Selected != v.statusSel.Options[i] {
			v.statusSel.Selected = v.statusSel.Options[i]
			v.statusSel.Refresh()
		}
		v.query.Statuses = nil
		v.moveOn()
		if i > 0 {
			v.query.Statuses = []api.WorkOrderStatus{api.AllStatuses[i-1]}
		}
		v.requery()
	}
	v.attention = widget.NewCheck("Needs attention", func(on bool) { v.query.NeedsAttention = on; v.moveOn(); v.requery() })

	v.count = widget.NewLabel("")
	v.count.TextStyle.Italic = true
	v.empty = widget.NewLabel("")
	v.empty.Alignment = fyne.TextAlignCenter
	v.empty.Wrapping = fyne.TextWrapWord
	v.empty.Hide()
	v.unhide = v.newEmptyButtons()
	v.bulkHint = arrange.NewFitText(bulkHintText)
	v.bulkHint.Label.Importance = widget.LowImportance
	v.acceptBtn = widget.NewButtonWithIcon("Accept", theme.ConfirmIcon(), func() { v.win.BulkAccept(v.shownTicked) })
	v.rejectBtn = widget.NewButtonWithIcon("Reject", theme.CancelIcon(), func() { v.win.BulkReject(v.shownTicked) })
	v.assignBtn = widget.NewButtonWithIcon("Assign…", theme.AccountIcon(), func() { v.win.BulkAssign(v.shownTicked) })
	v.assigneeSel = v.newAssigneeFilter()
	v.hiddenNote = widget.NewLabel("")
	v.hiddenNote.Wrapping = fyne.TextWrapWord
	v.hiddenNote.Hide()

	v.table = newTable()
	v.table.Length = func() (int, int) { return v.total, len(v.cols) }
	v.table.CreateCell = func() fyne.CanvasObject { return newCell() }
	v.table.UpdateCell = v.updateCell
	v.table.ShowHeaderRow = true
	v.table.CreateHeader = func() fyne.CanvasObject { return newColumnHeader() }
	v.table.UpdateHeader = v.updateHeader
	v.table.OnSelected = func(id widget.TableCellID) {
		v.table.clicked(id)
		if r, ok := v.rowAt(id.Row); ok && v.columnAt(id.Col) != colSelect {
			v.open(r.Id)
		}
		v.table.UnselectAll() // the open row is shown by its background, not a cell focus
	}
	v.table.onEnter = func(row int) {
		if r, ok := v.rowAt(row); ok {
			v.open(r.Id)
		}
	}
	v.table.onSpace = v.toggleTick
	v.table.onResized = v.columnsResized
	v.fitColumns(1e6) // every column, until the list is laid out at its width
	v.updateBulk()
	return v
}

// Content is the pane the window shows.
func (v *View) Content() fyne.CanvasObject {
	// The search box has a row of its own: on a narrow list it would
	// otherwise be squeezed to a few letters by the filters beside it.
	find := container.NewBorder(nil, nil, nil, container.NewHBox(v.assigneeSel, v.count), v.search)
	// The bulk buttons wrap under one another where the pane is narrow:
	// side by side they made the pane wider than a 1024-pixel window left
	// it, and ticking two rows pushed the detail past the window's edge
	// (issue 38's second tryout). The status filter and Needs attention
	// stay one row high beside two rows of buttons (the VBox).
	bulk := arrange.NewWrapRow(v.acceptBtn, v.rejectBtn, v.assignBtn)
	v.bulkRow = bulk
	filters := container.NewBorder(nil, nil, container.NewVBox(container.NewHBox(v.statusSel, v.attention)), nil, container.NewStack(v.bulkHint, bulk))
	pane := container.NewBorder(container.NewVBox(find, filters, v.hiddenNote), nil, nil, nil,
		container.New(columnFit{v}, v.table, v.emptyView()))
	bulk.Layout.(*arrange.WrapRow).OnRowsChanged = func() { arrange.Relayout(pane) }
	return pane
}

// Reload re-reads the list after the replica changed: the number of work
// orders, then the rows of the current query; the filters' counts follow
// (reloadCounts). It reads on the main goroutine, so the list is whole
// when it returns: for the window's first frame and the end of a sync,
// which then opens the first work order.
func (v *View) Reload() {
	ctx := context.Background()
	v.showExtras(v.readExtras(ctx, v.marksReader()))
	v.reloadCounts()
	v.requery()
}

// ReloadLater is Reload with every read off the main goroutine, for the
// changes a sync, the invoice fetch or the outbox write: at 100,000 work
// orders its counts cost tens of milliseconds, which on the main goroutine
// held the window once a second all through the invoice fetch. What it
// reads is shown as it comes; a keystroke meanwhile overtakes its rows.
func (v *View) ReloadLater() {
	v.cost.Store(0)
	marks := v.marksReader()
	background(v.lister, func() listExtras {
		return v.timed(func() listExtras { return v.readExtras(context.Background(), marks) })
	}, func(x listExtras) {
		v.showExtras(x)
		v.table.Refresh() // the marks and queued statuses the cells show
	})
	v.reloadCounts()
	q := v.query
	show := v.show(q)
	v.lister.runTimed(q, &v.cost, show)
}

// listExtras is what a reload reads besides the rows: how many work orders
// the replica holds, colleagues' marks, the crew to filter by, and the
// statuses queued actions will give.
type listExtras struct {
	all       int
	allOK     bool
	marks     map[int64]storage.ColleagueChange
	crew      []storage.Crew
	crewOK    bool
	queued    map[int64]api.WorkOrderStatus
	queuedOK  bool
	withMarks bool
}

// marksReader is the read of colleagues' marks, which runs on any
// goroutine; nil when no marks show.
func (v *View) marksReader() func(ctx context.Context) map[int64]storage.ColleagueChange {
	if v.colleagues == nil {
		return nil
	}
	return v.colleagues.ColleagueMarks()
}

func (v *View) readExtras(ctx context.Context, marks func(context.Context) map[int64]storage.ColleagueChange) listExtras {
	var x listExtras
	var err error
	x.all, err = v.store.Count(ctx)
	x.allOK = err == nil
	if marks != nil {
		x.marks, x.withMarks = marks(ctx), true
	}
	x.crew, err = v.store.AllAssociates(ctx)
	x.crewOK = err == nil
	x.queued, err = v.store.QueuedStatuses(ctx)
	x.queuedOK = err == nil
	return x
}

// showExtras puts what readExtras read on screen (main goroutine).
func (v *View) showExtras(x listExtras) {
	if x.allOK {
		v.all = x.all
		v.size.Store(int64(x.all))
	}
	if x.withMarks {
		v.marks = v.colleagues.UnseenMarks(x.marks)
	}
	if x.crewOK {
		v.showAssignees(x.crew)
	}
	if x.queuedOK {
		v.queued = x.queued
	}
	v.updateCount()
}

// timed runs read and adds what it took to the reload's cost.
func (v *View) timed(read func() listExtras) listExtras {
	start := time.Now()
	x := read()
	v.cost.Add(int64(time.Since(start)))
	return x
}

// filterCounts are what the filters' labels count: each status, and the
// work orders that need attention.
type filterCounts struct {
	statuses  map[api.WorkOrderStatus]int
	attention int
	ok        bool
}

// reloadCounts counts each status and what needs attention off the main
// goroutine and relabels the filters with them: at 50,000 work orders
// the counts took a tenth of the time to the window's first frame, which
// now shows the filters without their numbers for a moment. Where the
// background runs at once (tests), they are relabelled before it returns.
func (v *View) reloadCounts() {
	v.countsGen++
	gen, store := v.countsGen, v.store
	background(v.lister, func() filterCounts {
		start := time.Now()
		defer func() { v.cost.Add(int64(time.Since(start))) }()
		ctx := context.Background()
		var c filterCounts
		var err1, err2 error
		c.statuses, err1 = store.StatusCounts(ctx)
		c.attention, err2 = store.NeedsAttentionCount(ctx)
		c.ok = err1 == nil && err2 == nil
		return c
	}, func(c filterCounts) {
		if gen != v.countsGen || !c.ok {
			return // a newer count is on its way, or the replica could not be read
		}
		v.setStatusCounts(c.statuses)
		v.setAttentionCount(c.attention)
	})
}

// background runs read through l's background and show with its answer
// on the main goroutine. Where the background runs at once (tests), show
// runs before background returns.
func background[T any](l *lister, read func() T, show func(T)) {
	var mu sync.Mutex
	var result *T
	returned := false
	l.background(func() {
		r := read()
		mu.Lock()
		defer mu.Unlock()
		if returned {
			l.do(func() { show(r) })
			return
		}
		result = &r
	})
	mu.Lock()
	returned = true
	r := result
	mu.Unlock()
	if r != nil {
		show(*r)
	}
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
		opts = append(opts, label(format.ShortStatus(s), counts[s]))
	}
	return opts
}

// statusIndex is the position among statusOptions of a label, with or
// without the count it carried when it was shown; -1 when none.
func statusIndex(label string) int {
	if i := strings.LastIndex(label, " ("); i > 0 && strings.HasSuffix(label, ")") {
		if _, err := strconv.Atoi(label[i+2 : len(label)-1]); err == nil {
			label = label[:i]
		}
	}
	return slices.Index(statusOptions(nil), label)
}

// setStatusCounts relabels the status filter, keeping the chosen status.
func (v *View) setStatusCounts(counts map[api.WorkOrderStatus]int) {
	i := v.statusSel.SelectedIndex()
	v.statusSel.Options = statusOptions(counts)
	v.statusSel.PlaceHolder = arrange.WidestOption(v.statusSel.Options) // a Select is as wide as its placeholder
	if i >= 0 && i < len(v.statusSel.Options) {
		v.statusSel.Selected = v.statusSel.Options[i] // not SetSelected: the filter itself did not change
	}
	v.statusSel.Refresh()
}

// requery reads the length and first page of the current query and shows
// them; the table then reads the other pages it shows. The open work
// order, the ticks and the scroll position stay. A keystroke in the search
// box reads them in the background instead (lister.run).
func (v *View) requery() { v.lister.now(v.query, v.show(v.query)) }

// show puts the answer to q on screen. It runs on every keystroke, so it
// touches nothing else.
func (v *View) show(q storage.ListQuery) func(listAnswer) {
	return func(a listAnswer) {
		if a.err != nil {
			v.openOnAnswer = false
			v.win.ShowError(fmt.Errorf("reading the work order list: %w", a.err))
			return
		}
		cursor, was := v.cursorAt()
		moved := !sameView(v.shown, q)
		v.shown = q
		v.found = a.total
		v.heldRows = a.held
		v.placeHeld()
		v.total = v.found + len(v.held)
		v.pages = map[int][]storage.Row{0: a.first}
		v.assigned = a.assigned
		v.pageOrder = []int{0}
		v.table.refreshLength()
		if moved {
			// A new search, filter or sort starts at the top, with the
			// keyboard on its first row: scrolled down, one match was
			// drawn under blank space, and Down and Enter started from a
			// row that was no more (A06).
			v.table.toTop()
		} else {
			v.followCursor(cursor, was)
		}
		v.updateCount()
		v.updateBulk()
		if v.openOnAnswer && v.lister.upToDate() {
			v.openOnAnswer = false
			v.openFirstRow()
		}
	}
}

// openFirstRow opens the list's first work order, if it lists any.
func (v *View) openFirstRow() {
	if r, ok := v.rowAt(0); ok {
		v.open(r.Id)
	}
}

// sameView reports whether a and b list the same work orders in the same
// order, what the person acted on aside: a reload, not a new search.
func sameView(a, b storage.ListQuery) bool {
	return a.Search == b.Search && slices.Equal(a.Statuses, b.Statuses) && a.NeedsAttention == b.NeedsAttention &&
		a.Assignee == b.Assignee && a.Sort == b.Sort && a.Desc == b.Desc
}

// rowAt returns the i-th row of the list: a held row where it is held,
// else the query's rows around them (foundAt).
func (v *View) rowAt(i int) (storage.Row, bool) {
	if i < 0 || i >= v.total {
		return storage.Row{}, false
	}
	before := 0
	for _, h := range v.held {
		if h.at == i {
			r, ok := v.heldRows[h.id]
			return r, ok
		}
		if h.at > i {
			break
		}
		before++
	}
	return v.foundAt(i - before)
}

// foundAt returns the i-th row the query found, reading its page when
// needed. It stays on the main goroutine: one indexed page through the
// reader pool, which WAL runs beside the writer, so it never waits for a
// sync.
func (v *View) foundAt(i int) (storage.Row, bool) {
	if i < 0 || i >= v.found {
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
		v.readAssigned(rows)
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
func (v *View) readFailed(err error) {
	if (err == nil) == (v.readErr == nil) {
		return
	}
	v.readErr = err
	v.win.ListProblem(err)
}

func (v *View) updateCount() {
	v.updateEmpty()
	if v.query.Search == "" && len(v.query.Statuses) == 0 && !v.query.NeedsAttention && v.query.Assignee == 0 {
		v.count.SetText(fmt.Sprintf("%d work orders", v.all))
		return
	}
	v.count.SetText(fmt.Sprintf("%d of %d work orders", v.total, v.all))
}

func (v *View) setAttentionCount(n int) {
	v.attention.Text = fmt.Sprintf("Needs attention (%d)", n)
	v.attention.Refresh()
}

// toggleTick ticks row, or unticks it, as a tap on its box does.
func (v *View) toggleTick(row int) {
	r, ok := v.rowAt(row)
	if !ok {
		return
	}
	if v.selected[r.Id] {
		delete(v.selected, r.Id)
	} else {
		v.selected[r.Id] = true
	}
	v.updateBulk()
	v.table.Refresh()
}

// keep holds the work orders the person just acted on where they are,
// marked, with their new status, whatever the sort and filters say, until
// they move on: open another work order, or change the search, the sort or
// a filter (moveOn). A checked-in or accepted row re-sorted out of sight
// at once (A05, A14). One the list does not show where it is (a page not
// read) is still listed whatever the filters say (ListQuery.Keep).
func (v *View) keep(ids ...int64) {
	// Where each is shown now, all read before any is held: a row held
	// here is still in the pages read, and counting it again put the
	// next ones of a bulk action a row further down each.
	type shown struct {
		id int64
		at int
		r  storage.Row
	}
	var place []shown
	for _, id := range ids {
		if !slices.Contains(v.query.Keep, id) {
			v.query.Keep = append(v.query.Keep, id)
		}
		if slices.ContainsFunc(v.held, func(h heldRow) bool { return h.id == id }) ||
			slices.ContainsFunc(place, func(p shown) bool { return p.id == id }) {
			continue
		}
		if at, r, ok := v.shownAt(id); ok {
			place = append(place, shown{id, at, r})
		}
	}
	for _, p := range place {
		i, _ := slices.BinarySearchFunc(v.held, p.at, func(h heldRow, at int) int { return h.at - at })
		v.held = slices.Insert(v.held, i, heldRow{id: p.id, at: p.at})
		if v.heldRows == nil {
			v.heldRows = map[int64]storage.Row{}
		}
		v.heldRows[p.id] = p.r
		v.query.Held = append(v.query.Held, p.id)
	}
	if len(place) > 0 {
		v.requery() // the same rows in the same places, the held ones now drawn by the list
	}
}

// heldRow is a work order the list holds at row at (keep).
type heldRow struct {
	id int64
	at int
}

// shownAt is where the list shows work order id now, among the rows it
// has read.
func (v *View) shownAt(id int64) (int, storage.Row, bool) {
	for p, rows := range v.pages {
		for k, r := range rows {
			if r.Id != id {
				continue
			}
			at := p*pageSize + k
			for _, h := range v.held {
				if h.at <= at {
					at++
				}
			}
			return at, r, true
		}
	}
	return 0, storage.Row{}, false
}

// placeHeld drops the held work orders the replica no longer has, and
// keeps the others within the list when it has fewer rows than before.
func (v *View) placeHeld() {
	v.held = slices.DeleteFunc(v.held, func(h heldRow) bool { _, ok := v.heldRows[h.id]; return !ok })
	for k := range v.held {
		v.held[k].at = min(v.held[k].at, v.found+k)
	}
}

// isHeld reports whether row id is held where it was (keep).
func (v *View) isHeld(id int64) bool {
	return slices.ContainsFunc(v.held, func(h heldRow) bool { return h.id == id })
}

// moveOn lets the held work orders go back to where the sort and filters
// put them: the person moved on. The caller reads the list again.
func (v *View) moveOn() {
	v.query.Keep, v.query.Held = nil, nil
	v.held, v.heldRows = nil, nil
}

func (v *View) open(id int64) {
	if len(v.query.Keep) > 0 && !slices.Contains(v.query.Keep, id) {
		// Moved on: what it acted on goes where the sort and filters say,
		// and the keyboard stays on the work order opened, wherever
		// that moves.
		row := v.table.highlighted.Row
		n := len(v.held)
		v.moveOn()
		v.requery()
		for d := max(row-n, 0); d <= row+n; d++ {
			if r, ok := v.rowAt(d); ok && r.Id == id {
				v.table.moveTo(d)
				break
			}
		}
	}
	v.openID = id
	v.table.Refresh()
	v.win.OpenWorkOrder(id)
}

func (v *View) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	h := o.(*columnHeader)
	b := h.button
	col := v.columnAt(id.Col)
	if col < 0 {
		return
	}
	c := columns[col]
	var arrow fyne.Resource
	if col != colSelect && c.sort == v.query.Sort {
		arrow = sortArrow(v.query.Desc)
	}
	h.set(c.title, arrow)
	if col == colSelect || c.sort < 0 {
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
		v.moveOn()
		v.requery()
		if w := v.table.Size().Width; w > 0 {
			v.fitColumns(w)
		}
		v.win.Resorted() // the sorted column's header now has its arrow
	}
}

func (v *View) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*Cell)
	r, ok := v.rowAt(id.Row)
	if !ok {
		c.setText("", fyne.TextAlignLeading, false)
		c.setMark("")
		c.setFocused(false)
		return
	}
	c.setRing(id.Row == v.table.focusedRow(), v.isHeld(r.Id))
	mark := ""
	// The open work order's header says who changed it: its row is not
	// marked as news too (E01).
	if m, ok := v.marks[r.Id]; ok && v.columnAt(id.Col) == colNumber && r.Id != v.openID {
		mark = initials(m.Name)
	}
	c.setMark(mark) // cells are recycled across columns: every update sets it
	switch {
	case r.Id == v.openID:
		c.setBackground(palette.OpenRow)
	case r.Why == api.AttentionOverdue:
		c.setBackground(overdueRowFill())
	case r.Attention:
		c.setBackground(palette.AttentionRow)
	default:
		c.setBackground(color.Transparent)
	}
	switch v.columnAt(id.Col) {
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
		c.setText(format.OrDash(r.Site), fyne.TextAlignLeading, false)
	case colStatus:
		st, queued := r.Status, false
		if q, ok := v.queued[r.Id]; ok {
			st, queued = q, true
		}
		c.setBadge(format.ShortStatus(st), palette.Status(st))
		c.badge.SetQueued(queued)
	case colNte:
		c.setText(format.Nte(r.Nte), fyne.TextAlignTrailing, false)
	case colCurrency:
		if r.Nte.IsZero() {
			c.setText("—", fyne.TextAlignLeading, false) // "no limit USD" would read as an amount
		} else {
			c.setText(r.Nte.Currency, fyne.TextAlignLeading, false)
		}
	case colQuote:
		c.setBadge(string(r.QuoteStatus), palette.Quote(r.QuoteStatus))
	case colAssigned:
		c.setText(assignedFit(v.assigned[r.Id], v.widths[colAssigned]-2*theme.InnerPadding()), fyne.TextAlignLeading, false)
	case colScheduled:
		if r.ScheduledStart.IsZero() {
			c.setText("—", fyne.TextAlignLeading, false)
		} else {
			c.setText(format.Time(r.ScheduledStart), fyne.TextAlignLeading, false)
		}
	case colDeadline:
		v.deadlineCell(c, r)
	}
}

// deadlineCell says what is due next and when, bold when it needs
// attention and in the theme's error colour once late; a row needing
// attention for another reason says that reason instead ("Quote
// requested"): every row of "Needs attention" says why.
func (v *View) deadlineCell(c *Cell, r storage.Row) {
	switch {
	case r.Attention && !r.Why.Deadline():
		c.setStyledText(r.Why.Word(), fyne.TextAlignLeading, true, widget.WarningImportance)
	case r.NextDeadline.IsZero():
		c.setText("—", fyne.TextAlignLeading, false)
	case r.Why == api.AttentionOverdue:
		c.setStyledText(v.deadlineText(r, true), fyne.TextAlignLeading, true, widget.DangerImportance)
	default:
		c.setText(v.deadlineText(r, r.Attention), fyne.TextAlignLeading, r.Attention)
	}
}

// overdueRowFill tints a row whose deadline has passed with the theme's
// error colour, apart from the amber of rows due soon.
func overdueRowFill() color.Color {
	r, g, b, _ := theme.Color(theme.ColorNameError).RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x26}
}
