package list

import (
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

type column struct {
	title string
	width float32
	sort  storage.Column
}

// The first column holds the bulk-selection check boxes and does not sort.
// A column's index here is its id: the preferences remember widths by it,
// whichever columns the list's width shows.
var columns = []column{
	{"", 32, -1},
	{"Number", 88, storage.SortNumber},
	{"Customer", 144, storage.SortCustomer},
	{"Status", 106, storage.SortStatus},
	{"NTE", 86, storage.SortNte}, // with its currency's symbol: "¥191,000"
	{"Cur", 46, storage.SortCurrency},
	{"Quote", 98, storage.SortQuoteStatus},
	{"Next deadline", 0, storage.SortNextDeadline}, // fitted to its text: deadlineWidth
	{"Scheduled", 170, storage.SortScheduledStart},
	{"Site", 200, storage.SortSite},
	{"Assigned", 120, -1}, // who goes (list_assigned.go): not sortable
}

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
	colAssigned
)

// columnOrder is the order the shown columns appear in: the deadline
// beside the status it belongs to (New: acknowledge, Accepted: on site,
// Checked in: due).
var columnOrder = []int{colSelect, colNumber, colCustomer, colStatus, colDeadline, colNte, colCurrency, colQuote, colScheduled, colAssigned, colSite}

// columnRank is one entry of the list's priority table.
type columnRank struct {
	id int
	// kept: the column stays however narrow the list; the split leaves
	// the list the room its kept columns need (leastWidth), the detail
	// pane the rest.
	kept bool
}

// columnPriority is the order in which columns give way as the list
// narrows, from the end. Kept are what an office person decides by,
// down to a 960-pixel window: which work order, for whom, where it
// stands, what is due next and for what, how much may be spent (the NTE
// carries its currency's symbol, so Cur may go). The customer is kept
// shortened and takes what width is left; site and schedule are in the
// detail pane, whole. A new column is one entry here (and one in columns
// and columnOrder): the technicians' Assigned column (initials) goes after
// colCustomer, kept.
var columnPriority = []columnRank{
	{colSelect, true},
	{colNumber, true},
	{colStatus, true},
	{colDeadline, true},
	{colNte, true},
	{colCustomer, true},
	{colAssigned, false},
	{colCurrency, false},
	{colQuote, false},
	{colScheduled, false},
	{colSite, false},
}

// customerLeast and customerMost are how narrow the Customer column gets
// (a name shortened to its first word or so: "Sakura M…") and how wide it
// grows into width the other columns leave.
const (
	customerLeast = 84
	customerMost  = 240
)

// deadlineKinds name what is due in the list, long and short: a cell
// says "Acknowledge · in 5 h" where it has the room, else "Ack · in 5 h".
var deadlineKinds = map[string][2]string{
	"Acknowledge by": {"Acknowledge", "Ack"},
	"On site by":     {"On site", "Site"},
	"Due":            {"Due", "Due"},
	"Invoice by":     {"Invoice", "Inv"},
}

// shortDeadline is the list's deadline text: how far it is in whole units
// ("in 8 h", "3 days late"), after what is due ("On site · in 8 h"), in
// the kind's long or short name. The summary tab has the date and the
// exact time left.
func shortDeadline(label string, deadline time.Time, short bool) string {
	s := format.HowFar(deadline, false)
	kind, ok := deadlineKinds[label]
	if !ok {
		if label == "" {
			return s
		}
		kind = [2]string{label, label}
	}
	if short {
		return kind[1] + " · " + s
	}
	return kind[0] + " · " + s
}

// deadlineWidth is the deadline column's natural width: what shows the
// usual deadlines whole with their kind: "On site · 47 h late" in bold, as
// a row needing attention shows it, and "Invoice · in 29 days"; a longer
// one takes the kind's short name (deadlineText).
func deadlineWidth() float32 {
	w := max(fyne.MeasureText("On site · 47 h late", theme.TextSize(), fyne.TextStyle{Bold: true}).Width,
		fyne.MeasureText("Invoice · in 29 days", theme.TextSize(), fyne.TextStyle{}).Width)
	return float32(int(w + 2*theme.InnerPadding() + 1))
}

// headerNeed is what column id's header needs as the list is sorted now:
// the sorted column's has room for its arrow (headerWidth).
func (v *View) headerNeed(id int) float32 {
	return headerWidth(columns[id].title, id != colSelect && columns[id].sort == v.query.Sort)
}

// columnWidth is the width column id takes: the person's own (dragged)
// width, or its natural one. The customer's natural width is its least,
// grown in fitColumns with what the list has left; the number's has room
// for a colleague's mark in office mode, which never cuts it short.
func (v *View) columnWidth(id int) float32 {
	if w, ok := v.draggedWidth(id); ok {
		return w
	}
	switch id {
	case colDeadline:
		return max(deadlineWidth(), v.headerNeed(id))
	case colCustomer:
		return max(customerLeast, v.headerNeed(id))
	case colNumber:
		if v.marked {
			return max(columns[id].width+widestMark().Width+theme.Padding(), v.headerNeed(id))
		}
	}
	return max(columns[id].width, v.headerNeed(id))
}

// draggedWidth is the width the person gave column id, if they did.
func (v *View) draggedWidth(id int) (float32, bool) {
	w := v.prefs.FloatWithFallback("list.col."+strconv.Itoa(id), -1)
	return float32(w), w >= 0
}

// leastWidth is the width the list's kept columns need: the split never
// gives the list less while the window has it.
func (v *View) leastWidth() float32 {
	w := float32(0)
	for _, r := range columnPriority {
		if r.kept {
			w += v.columnWidth(r.id) + theme.Padding()
		}
	}
	return w
}

// fitColumns picks the columns that fit width, in priority order, and
// shows them in their usual order; what is left widens the customer. It
// changes the table only when the picked columns or their widths change.
func (v *View) fitColumns(width float32) {
	pad := theme.Padding() // Fyne's table puts one between columns
	pick := map[int]bool{}
	widths := map[int]float32{}
	used := float32(0)
	for _, r := range columnPriority {
		w := v.columnWidth(r.id)
		if r.kept || used+w+pad <= width {
			pick[r.id], widths[r.id] = true, w
			used += w + pad
		}
	}
	if _, dragged := v.draggedWidth(colCustomer); pick[colCustomer] && !dragged && used < width {
		widths[colCustomer] += min(width-used, max(0, customerMost-widths[colCustomer]))
	}
	var shown []int
	for _, id := range columnOrder {
		if pick[id] {
			shown = append(shown, id)
		}
	}
	if sameColumns(shown, v.cols) && sameWidths(widths, v.widths) {
		return
	}
	v.cols, v.widths = shown, widths
	for i, id := range shown {
		v.table.SetColumnWidth(i, widths[id])
	}
	v.table.Refresh()
}

// deadlineText is row r's deadline as its cell's width allows: with the
// kind's long name, else its short one ("Acknowledge · 120 days late"
// becomes "Ack · 120 days late"), else without it.
func (v *View) deadlineText(r storage.Row, bold bool) string {
	room := v.widths[colDeadline] - 2*theme.InnerPadding()
	fits := func(s string) bool {
		return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{Bold: bold}).Width <= room
	}
	for _, short := range []bool{false, true} {
		if s := shortDeadline(r.NextDeadlineLabel, r.NextDeadline, short); fits(s) {
			return s
		}
	}
	return format.HowFar(r.NextDeadline, false)
}

func sameColumns(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameWidths(a, b map[int]float32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, w := range a {
		if b[k] != w {
			return false
		}
	}
	return true
}

// columnAt is the column id shown at table column i.
func (v *View) columnAt(i int) int {
	if i < 0 || i >= len(v.cols) {
		return -1
	}
	return v.cols[i]
}

// columnsResized remembers widths the person dragged, by column id.
func (v *View) columnsResized(byTableColumn map[int]float32) {
	for i, w := range byTableColumn {
		id := v.columnAt(i)
		if id < 0 || w == v.widths[id] {
			continue
		}
		v.prefs.SetFloat("list.col."+strconv.Itoa(id), float64(w))
		v.widths[id] = w
	}
}

// columnFit lays the table out over the list's width and has the list
// pick its columns for that width first.
type columnFit struct{ v *View }

func (l columnFit) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func (l columnFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width > 0 {
		l.v.fitColumns(size.Width)
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
