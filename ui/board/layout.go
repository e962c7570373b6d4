package board

import (
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// sideWidth is the waiting list's width.
const sideWidth = 260

// lengths are the visit lengths the person can choose.
var lengths = []struct {
	label string
	d     time.Duration
}{{"1 h", time.Hour}, {"1½ h", 90 * time.Minute}, {"2 h", 2 * time.Hour}, {"3 h", 3 * time.Hour}, {"4 h", 4 * time.Hour}}

func (b *Board) build() {
	prev := widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { b.step(-1) })
	next := widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { b.step(1) })
	today := widget.NewButton("Today", b.goToday)
	b.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.zoomSel = widget.NewRadioGroup([]string{"Week", "Day"}, func(s string) {
		if s == "Day" {
			b.SetZoom(ZoomDay)
		} else {
			b.SetZoom(ZoomWeek)
		}
	})
	b.zoomSel.Horizontal = true
	b.zoomSel.Required = true
	b.zoomSel.Selected = "Week"
	var labels []string
	for _, l := range lengths {
		labels = append(labels, l.label)
	}
	b.lenSel = widget.NewSelect(labels, func(s string) {
		for _, l := range lengths {
			if l.label == s {
				b.length = l.d
			}
		}
		b.place()
	})
	b.lenSel.Selected = "2 h"
	b.planBtn = widget.NewButtonWithIcon("Plan visit…", theme.CalendarIcon(), b.PlanSelected)
	b.planBtn.Importance = widget.HighImportance
	b.status = widget.NewLabel("Drag a work order from the right onto a technician's day and hour, or select it and choose Plan visit…")
	b.status.Importance = widget.LowImportance
	b.status.Truncation = fyne.TextTruncateEllipsis
	right := container.NewHBox(b.zoomSel, widget.NewLabel("Visit length"), b.lenSel, b.planBtn)
	if b.opts.DaySheet != nil {
		right.Objects = append([]fyne.CanvasObject{widget.NewButtonWithIcon(wordDaySheet, theme.DocumentPrintIcon(), b.daySheetOfSelected)}, right.Objects...)
	}
	tools := container.NewBorder(nil, nil,
		container.NewHBox(prev, today, next, b.title),
		right)

	b.waitHead = widget.NewLabelWithStyle("Waiting for a visit", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.waiting = newWaitingList(b.waitingLen, b.newWaitingItem, b.updateWaitingItem)
	b.waiting.OnSelected = func(i widget.ListItemID) {
		if b.week != nil && i < len(b.week.Waiting) {
			b.Select(b.week.Waiting[i].WorkOrderId)
		}
	}
	hint := widget.NewLabel("By on-site deadline, soonest first")
	hint.Importance = widget.LowImportance
	side := container.New(widthLayout{sideWidth}, container.NewBorder(container.NewVBox(b.waitHead, hint), nil, nil, nil, b.waiting))
	b.content = container.NewBorder(container.NewVBox(tools, b.status), nil, nil, side, b.area)
	b.setTitle()
}

// widthLayout gives its object a fixed width.
type widthLayout struct{ w float32 }

func (l widthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(l.w, objs[0].MinSize().Height)
}

func (l widthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

func (b *Board) waitingLen() int {
	if b.week == nil {
		return 0
	}
	return len(b.week.Waiting)
}

// newWaitingItem is the waiting list's template: three lines tall, the
// height the list gives every item.
func (b *Board) newWaitingItem() fyne.CanvasObject { return xwidget.NewBlock("-", "-", "-", nil) }

func (b *Board) updateWaitingItem(i widget.ListItemID, o fyne.CanvasObject) {
	blk := o.(*xwidget.Block)
	if b.week == nil || i >= len(b.week.Waiting) {
		return
	}
	v := &b.week.Waiting[i]
	state := b.stateOf(v)
	due := "no on-site deadline"
	if !v.OnSiteBy.IsZero() {
		due = "on site by " + v.OnSiteBy.In(time.Local).Format("Mon 2 Jan 15:04")
	}
	if b.waiting.focused && b.waiting.current == i {
		state |= xwidget.BlockFocused
	}
	blk.Set(v.Number+" · "+statusWord(v.Status), v.Customer+siteOf(v), due, b.opts.StatusColor(v.Status), state)
	id, list := v.WorkOrderId, b.waiting
	blk.OnTapped = func() {
		if idx := b.waitingIndex(id); idx >= 0 {
			list.Select(idx)
		}
	}
	blk.OnDragged = func(p fyne.Position) { b.dragged(id, 0, blk, p) }
	blk.OnDragEnd = b.dragEnded
}

func (b *Board) waitingIndex(id int64) int {
	if b.week == nil {
		return -1
	}
	for i := range b.week.Waiting {
		if b.week.Waiting[i].WorkOrderId == id {
			return i
		}
	}
	return -1
}

func siteOf(v *storage.Visit) string {
	if v.Site == "" {
		return ""
	}
	return " · " + v.Site
}

// statusWord is a status in a word or two, for a block.
func statusWord(s api.WorkOrderStatus) string {
	switch s {
	case api.StatusCheckedIn:
		return "on site"
	case api.StatusCheckedOut:
		return "done"
	case api.StatusOnHold:
		return "on hold"
	case api.StatusNeedsCompletionDetails:
		return "needs details"
	}
	return s.Label()
}

func (b *Board) stateOf(v *storage.Visit) xwidget.BlockState {
	var st xwidget.BlockState
	if v.WorkOrderId == b.selected {
		st |= xwidget.BlockSelected
	}
	if v.Queued {
		st |= xwidget.BlockQueued
	}
	if v.HeldBy != 0 {
		st |= xwidget.BlockHeld
	}
	return st
}

// step moves a week (or a day) back or ahead.
func (b *Board) step(n int) {
	if b.zoom == ZoomDay {
		b.day = b.day.AddDate(0, 0, n)
	} else {
		b.day = b.day.AddDate(0, 0, 7*n)
	}
	b.moved()
}

func (b *Board) goToday() {
	if b.zoom == ZoomDay {
		b.day = dayOf(b.opts.Now())
	} else {
		b.day = weekStart(b.opts.Now())
	}
	b.moved()
}

// SetZoom shows a week (from its Monday) or a day (today, when it is in
// the week shown; else the week's first day).
func (b *Board) SetZoom(z Zoom) {
	if z == b.zoom {
		return
	}
	b.zoom = z
	if z == ZoomDay {
		if now := dayOf(b.opts.Now()); !now.Before(b.day) && now.Before(b.day.AddDate(0, 0, 7)) {
			b.day = now
		}
	} else {
		b.day = weekStart(b.day)
	}
	if want := map[Zoom]string{ZoomWeek: "Week", ZoomDay: "Day"}[z]; b.zoomSel.Selected != want {
		b.zoomSel.SetSelected(want)
	}
	b.moved()
}

// moved shows other days: read them.
func (b *Board) moved() {
	b.setTitle()
	b.grid.Start, b.grid.Days = b.day, b.days()
	b.grid.Refresh()
	b.place()
	b.Reload()
}

func (b *Board) setTitle() {
	from, to := b.span()
	last := to.AddDate(0, 0, -1)
	switch {
	case b.zoom == ZoomDay:
		b.title.SetText(from.Format("Monday 2 January 2006"))
	case from.Month() == last.Month():
		b.title.SetText(from.Format("2") + "–" + last.Format("2 January 2006"))
	default:
		b.title.SetText(from.Format("2 Jan") + " – " + last.Format("2 Jan 2006"))
	}
}

// gridRows are the board's rows: who is not (or not known to be)
// assigned first, then every technician and subcontractor.
func (b *Board) gridRows() []xwidget.GridRow {
	out := make([]xwidget.GridRow, len(b.rows))
	for i, r := range b.rows {
		sub := "Technician"
		switch {
		case r.tech == 0:
			sub = "Nobody, or not known"
		case r.crew.Type == api.AssociateSubcontractor:
			sub = "Subcontractor"
		case r.crew.Type != api.AssociateCruMember && r.crew.Type != "":
			sub = string(r.crew.Type)
		}
		out[i] = xwidget.GridRow{Label: r.label, Sub: sub, Height: b.rowHeight(i)}
	}
	return out
}

// laneHeight is a lane's height: a block of two lines in a week, three in
// a day, and a gap.
func (b *Board) laneHeight() float32 {
	if b.zoom == ZoomDay {
		return xwidget.BlockHeight(3) + 3
	}
	return xwidget.BlockHeight(2) + 3
}

// rowHeight is row i's height: its lanes, and room for its label.
func (b *Board) rowHeight(i int) float32 {
	lanes := 1
	if i < len(b.lanes) {
		lanes = max(1, b.lanes[i])
	}
	if i == b.grow.row {
		lanes = max(lanes, b.grow.lanes)
	}
	return b.heightFor(lanes)
}

// baseRowHeight is row i's height without the room a dragged block's
// ghost makes in it (roomFor).
func (b *Board) baseRowHeight(i int) float32 {
	lanes := 1
	if i < len(b.lanes) {
		lanes = max(1, b.lanes[i])
	}
	return b.heightFor(lanes)
}

// heightFor is the height of a row of lanes lanes, with room for its label.
func (b *Board) heightFor(lanes int) float32 {
	return max(float32(lanes)*b.laneHeight()+4, 2*theme.TextSize()+20)
}

// placement is one block: a visit in a row, in a lane.
type placement struct {
	visit int // index into week.Visits
	row   int
	lane  int
}

// index sorts the week into rows and lanes. In a week a day's visits in a
// row stack as cards in start order; in a day they lie along the hours,
// overlapping ones in lanes of their own.
func (b *Board) index() {
	wk := b.week
	b.rows = b.rows[:0]
	b.rows = append(b.rows, row{label: "Not assigned"})
	rowOf := map[int64]int{}
	for _, c := range wk.Crew {
		rowOf[c.Id] = len(b.rows)
		b.rows = append(b.rows, row{tech: c.Id, crew: c, label: c.Name})
	}
	b.byTech = map[int64][]int{}
	perRow := make([][]int, len(b.rows))
	for i := range wk.Visits {
		v := &wk.Visits[i]
		placed := false
		for _, a := range v.Assigned {
			r, ok := rowOf[a.Id]
			if !ok {
				// Someone no branch lists (any more): a row of their own.
				r = len(b.rows)
				rowOf[a.Id] = r
				b.rows = append(b.rows, row{tech: a.Id, crew: storage.Crew{Associate: a}, label: a.Name})
				perRow = append(perRow, nil)
			}
			perRow[r] = append(perRow[r], i)
			b.byTech[a.Id] = append(b.byTech[a.Id], i)
			placed = true
		}
		if !placed {
			perRow[0] = append(perRow[0], i)
		}
	}
	b.placements = b.placements[:0]
	b.lanes = make([]int, len(b.rows))
	for r, idx := range perRow {
		if b.zoom == ZoomDay {
			var ends []time.Time
			for _, i := range idx {
				v := &wk.Visits[i]
				lane := len(ends)
				for k, end := range ends {
					if !v.Start.Before(end) {
						lane = k
						break
					}
				}
				if lane == len(ends) {
					ends = append(ends, time.Time{})
				}
				ends[lane] = v.Start.Add(b.length)
				b.placements = append(b.placements, placement{visit: i, row: r, lane: lane})
			}
			b.lanes[r] = len(ends)
			continue
		}
		perDay := map[int]int{}
		for _, i := range idx {
			d := int(dayOf(wk.Visits[i].Start).Sub(b.day).Hours()/24 + 0.5)
			b.placements = append(b.placements, placement{visit: i, row: r, lane: perDay[d]})
			perDay[d]++
			b.lanes[r] = max(b.lanes[r], perDay[d])
		}
	}
}

// rowsOf are the rows a visit is shown in.
func (b *Board) rowsOf(woID int64) []int {
	var out []int
	for _, p := range b.placements {
		if b.week.Visits[p.visit].WorkOrderId == woID {
			out = append(out, p.row)
		}
	}
	return out
}

// blockRect is where placement p's block goes, in the block layer's
// coordinates.
func (b *Board) blockRect(p placement) (fyne.Position, fyne.Size) {
	g := b.grid
	v := &b.week.Visits[p.visit]
	lh := b.laneHeight()
	y := g.RowTop(p.row) - g.HeaderHeight() + 2 + float32(p.lane)*lh
	if b.zoom == ZoomDay {
		x := g.XOf(v.Start) - g.LabelWidth
		w := max(g.WidthOf(b.length), 56)
		return fyne.NewPos(x+1, y), fyne.NewSize(w-2, lh-3)
	}
	day := dayOf(v.Start)
	x := g.XOf(day) - g.LabelWidth
	return fyne.NewPos(x+3, y), fyne.NewSize(g.DayWidth()-6, lh-3)
}

// place puts the blocks of the rows in view on the grid, reusing the same
// few block widgets however many visits the week has: scrolling and
// dragging touch only what shows.
func (b *Board) place() {
	if b.week == nil || b.grid.Size().Width == 0 {
		return
	}
	first, last := b.grid.VisibleRows()
	lo := sort.Search(len(b.placements), func(i int) bool { return b.placements[i].row >= first })
	hi := sort.Search(len(b.placements), func(i int) bool { return b.placements[i].row >= last })
	in := b.placements[lo:hi]
	for len(b.pool) < len(in) {
		b.addBlock()
	}
	b.shown = append(b.shown[:0], in...)
	for i, p := range in {
		v := &b.week.Visits[p.visit]
		blk := b.pool[i]
		title, line1, line2 := b.blockText(v)
		blk.Set(title, line1, line2, b.opts.StatusColor(v.Status), b.stateOf(v))
		pos, size := b.blockRect(p)
		if !b.fits(&pos, &size) {
			park(blk)
			continue
		}
		blk.Move(pos)
		blk.Resize(size)
	}
	for _, blk := range b.pool[len(in):] {
		park(blk)
	}
	b.layer.Refresh()
}

// parked is where a block of the pool waits while it shows nothing: out of
// sight rather than hidden, as Fyne's desktop painter left blocks that had
// been hidden and shown again out of the picture while a dialog was open.
var parked = fyne.NewPos(-10000, -10000)

func park(blk *xwidget.Block) {
	if blk.Position() != parked {
		blk.Move(parked)
		blk.Set("", "", "", blk.Fill, 0) // nothing stale to read
	}
}

// showing reports whether a block of the pool shows a visit.
func showing(blk *xwidget.Block) bool { return blk.Position() != parked }

// fits keeps a block within the days' part of the grid: one scrolled
// partly under the header is not shown (the header stays whole), one
// running past the last hour is cut at the edge.
func (b *Board) fits(pos *fyne.Position, size *fyne.Size) bool {
	if pos.Y < 0 {
		return false
	}
	if room := b.layer.Size().Width - pos.X; size.Width > room {
		size.Width = max(room, 0)
	}
	return size.Width > 8
}

// blockText is what a visit's block says: its number, when, the customer
// and the site.
func (b *Board) blockText(v *storage.Visit) (title, line1, line2 string) {
	at := v.Start.In(time.Local).Format("15:04")
	number := v.Number
	if v.AssignedPartial {
		// The record does not say who goes: this office assigned the
		// row's technician, and others may go too (as the list's
		// Assigned column says it).
		number += partlyKnown
	}
	if b.zoom == ZoomDay {
		return at + " " + number, v.Customer, v.Site
	}
	// A week's day is narrow: the number first, whole.
	return number, at + " " + v.Customer + siteOf(v), ""
}

// partlyKnown follows a visit's number where the record does not say who
// goes and the board shows whom this office assigned.
const partlyKnown = " +?"

// addBlock adds a block to the pool; slot i shows b.shown[i].
func (b *Board) addBlock() {
	i := len(b.pool)
	blk := xwidget.NewBlock("", "", "", nil)
	blk.OnTapped = func() {
		if i < len(b.shown) {
			b.Select(b.week.Visits[b.shown[i].visit].WorkOrderId)
		}
	}
	blk.OnDragged = func(p fyne.Position) {
		if i < len(b.shown) {
			s := b.shown[i]
			b.dragged(b.week.Visits[s.visit].WorkOrderId, b.rows[s.row].tech, blk, p)
		}
	}
	blk.OnDragEnd = b.dragEnded
	b.pool = append(b.pool, blk)
	b.layer.Add(blk)
	// The ghost stays on top of every block.
	b.layer.Remove(b.ghost)
	b.layer.Add(b.ghost)
}

// area is the grid with the blocks over its days. The blocks are not in
// a Clip container (Fyne's desktop painter left them out while a dialog
// was open): place keeps them off the header instead (fits).
type area struct {
	widget.BaseWidget
	b *Board
}

func newArea(b *Board) *area {
	a := &area{b: b}
	b.layer.Add(b.ghost)
	a.ExtendBaseWidget(a)
	return a
}

func (a *area) CreateRenderer() fyne.WidgetRenderer {
	return &areaRenderer{a: a, objects: []fyne.CanvasObject{a.b.grid, a.b.layer}}
}

type areaRenderer struct {
	a       *area
	objects []fyne.CanvasObject
	size    fyne.Size
}

func (r *areaRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *areaRenderer) Destroy()                     {}
func (r *areaRenderer) Refresh()                     { r.a.b.place() }
func (r *areaRenderer) MinSize() fyne.Size           { return r.a.b.grid.MinSize() }

func (r *areaRenderer) Layout(size fyne.Size) {
	g := r.a.b.grid
	g.Move(fyne.NewPos(0, 0))
	g.Resize(size)
	r.a.b.layer.Move(fyne.NewPos(g.LabelWidth, g.HeaderHeight()))
	r.a.b.layer.Resize(fyne.NewSize(max(0, size.Width-g.LabelWidth), max(0, size.Height-g.HeaderHeight())))
	if size != r.size {
		r.size = size
		r.a.b.place()
	}
}

// waitingList is the list of work orders waiting for a visit. Its items
// are blocks that cover the list's own mark of the keyboard's place, so
// it tells them where the keyboard is (BlockFocused): Up and Down move a
// ring from block to block, Space picks the one in it.
type waitingList struct {
	widget.List
	focused bool
	current widget.ListItemID
}

func newWaitingList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *waitingList {
	l := &waitingList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.OnHighlighted = func(id widget.ListItemID) {
		if id == l.current {
			return
		}
		was := l.current
		l.current = id
		l.RefreshItem(was)
		l.RefreshItem(id)
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *waitingList) FocusGained() {
	l.focused = true
	l.List.FocusGained()
}

func (l *waitingList) FocusLost() {
	l.focused = false
	l.List.FocusLost()
}
