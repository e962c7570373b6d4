package ui

import (
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/storage"
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
	{"Number", 90, storage.SortNumber},
	{"Customer", 144, storage.SortCustomer},
	{"Status", 106, storage.SortStatus},
	{"NTE", 92, storage.SortNte},
	{"Cur", 46, storage.SortCurrency},
	{"Quote", 98, storage.SortQuoteStatus},
	{"Next deadline", 0, storage.SortNextDeadline}, // fitted to its text: deadlineWidths
	{"Scheduled", 170, storage.SortScheduledStart},
	{"Site", 200, storage.SortSite},
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
)

// columnOrder is the order the shown columns appear in: the deadline
// beside the status it belongs to (New: acknowledge, Accepted: on site,
// Checked in: due).
var columnOrder = []int{colSelect, colNumber, colCustomer, colStatus, colDeadline, colNte, colCurrency, colQuote, colScheduled, colSite}

// columnPriority is the order in which columns give way as the list
// narrows: what an office person decides by (which work order, where it
// stands, what is due next, how much may be spent) stays longest; the
// customer, site and schedule are in the detail pane, whole. labelDeadline
// is the deadline column widening to say what is due.
var columnPriority = []int{colSelect, colNumber, colStatus, colDeadline, colNte, colCustomer, colCurrency, labelDeadline, colQuote, colScheduled, colSite}

const labelDeadline = -1

// customerMost is as wide as the Customer column grows into width the
// other columns leave.
const customerMost = 240

// deadlineLabels shorten the service's deadline names for the list.
var deadlineLabels = map[string]string{"Acknowledge by": "Acknowledge", "On site by": "On site"}

// shortDeadline is the list's deadline text: how far it is in whole units
// ("in 8 h", "3 days late"), after what is due ("On site · in 8 h") when
// labelled. The summary tab has the date and the exact time left.
func shortDeadline(label string, deadline time.Time, labelled bool) string {
	s := howFar(deadline, false)
	if !labelled {
		return s
	}
	what := deadlineLabels[label]
	if what == "" {
		what = label
	}
	return what + " · " + s
}

// deadlineWidths are the deadline column's widths: the least that shows
// any time left whole ("999 days late"), and the width that shows them
// labelled ("Acknowledge · 47 h late"), in bold as a row needing attention
// shows them.
func deadlineWidths() (least, labelled float32) {
	bold := fyne.TextStyle{Bold: true}
	pad := 2*theme.InnerPadding() + 1
	least = max(fyne.MeasureText("999 days late", theme.TextSize(), bold).Width+pad, headerWidth(columns[colDeadline].title))
	labelled = fyne.MeasureText("Acknowledge · 47 h late", theme.TextSize(), bold).Width + pad
	return float32(int(least)), float32(int(labelled))
}

// columnWidth is the width column id takes: the person's own (dragged)
// width, or its natural one; the deadline's natural width is its least,
// grown in fitColumns with what the list has left.
func (v *listView) columnWidth(id int) float32 {
	if w, ok := v.draggedWidth(id); ok {
		return w
	}
	if id == colDeadline {
		least, _ := deadlineWidths()
		return least
	}
	return max(columns[id].width, headerWidth(columns[id].title))
}

// draggedWidth is the width the person gave column id, if they did.
func (v *listView) draggedWidth(id int) (float32, bool) {
	w := v.prefs.FloatWithFallback("list.col."+strconv.Itoa(id), -1)
	return float32(w), w >= 0
}

// fitColumns picks the columns that fit width, in priority order, and
// shows them in their usual order; what is left widens the deadline until
// it can say what is due, then the customer. It changes the table only
// when the picked columns or their widths change.
func (v *listView) fitColumns(width float32) {
	pad := theme.Padding() // Fyne's table puts one between columns
	pick := map[int]bool{}
	widths := map[int]float32{}
	used := float32(0)
	_, labelled := deadlineWidths()
	for _, id := range columnPriority {
		if id == labelDeadline {
			if _, dragged := v.draggedWidth(colDeadline); pick[colDeadline] && !dragged && widths[colDeadline] < labelled && used+labelled-widths[colDeadline] <= width {
				used += labelled - widths[colDeadline]
				widths[colDeadline] = labelled
			}
			continue
		}
		w := v.columnWidth(id)
		if used+w+pad <= width || id == colSelect || id == colNumber {
			pick[id], widths[id] = true, w
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
	v.deadlineLabelled = widths[colDeadline] >= labelled
	if sameColumns(shown, v.cols) && sameWidths(widths, v.widths) {
		return
	}
	v.cols, v.widths = shown, widths
	for i, id := range shown {
		v.table.SetColumnWidth(i, widths[id])
	}
	v.table.Refresh()
}

// deadlineText is row r's deadline as the column's width allows: labelled
// when the column is wide enough for the usual ones, and without its label
// when this one would not fit ("Acknowledge · 120 days late").
func (v *listView) deadlineText(r storage.Row, bold bool) string {
	s := shortDeadline(r.NextDeadlineLabel, r.NextDeadline, v.deadlineLabelled)
	room := v.widths[colDeadline] - 2*theme.InnerPadding()
	if v.deadlineLabelled && fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{Bold: bold}).Width > room {
		return shortDeadline(r.NextDeadlineLabel, r.NextDeadline, false)
	}
	return s
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
func (v *listView) columnAt(i int) int {
	if i < 0 || i >= len(v.cols) {
		return -1
	}
	return v.cols[i]
}

// columnsResized remembers widths the person dragged, by column id.
func (v *listView) columnsResized(byTableColumn map[int]float32) {
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
type columnFit struct{ v *listView }

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
