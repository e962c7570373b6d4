// Package board is the dispatch board: the week (or a day) with one row per
// technician and one column per day, each planned visit a block coloured by
// its status, and the work waiting for a visit beside it, by on-site
// deadline. A work order dragged onto a technician's day and hour, or
// planned with the keyboard (Plan visit…), is queued as an assignment and
// an appointment; a block dragged elsewhere moves the visit. Before
// queuing it says what is wrong (late, busy, a status or a branch that
// refuses). It depends only on Source and Planner, never on the window
// that opens it, so it is tested against a fake.
package board

import (
	"context"
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// Source is what the board reads: the replica's week, with what is queued.
type Source interface {
	Week(ctx context.Context, from, to time.Time) (*storage.Week, error)
}

// Planner queues what the person plans.
type Planner interface {
	// Plan queues a visit of work order woID by associate (0: nobody in
	// particular) at start, taking instead (0: nobody) off it.
	Plan(ctx context.Context, woID, associate, instead int64, start time.Time) error
	// Refusal says what a refused action was and what waits behind it.
	Refusal(ctx context.Context, rowID int64) (Refusal, error)
	// Resolve discards the refused action; dropHeld discards what waits
	// behind it too, else that goes out.
	Resolve(ctx context.Context, rowID int64, dropHeld bool) error
}

// Refusal is a refused action, in words.
type Refusal struct {
	What string   // "Assign Kenji Sato"
	Why  string   // the service's words
	Held []string // what waits behind it: "Schedule the visit"
}

// Options are what the board needs from whoever opens it.
type Options struct {
	Window      fyne.Window // where its dialogs open
	StatusColor func(api.WorkOrderStatus) color.Color
	Now         func() time.Time // nil = time.Now
	// Background runs a read off the main goroutine (nil: a goroutine);
	// Do hands its result back (nil: fyne.Do).
	Background func(func())
	Do         func(func())
	OnError    func(error) // nil: a dialog
	// DaySheet opens a technician's day sheet (tech 0: nobody in
	// particular) for days days from the day of from; nil: the board
	// offers none.
	DaySheet func(tech int64, from time.Time, days int)
}

// Zoom is what one screen of the board spans.
type Zoom int

const (
	ZoomWeek Zoom = iota
	ZoomDay
)

// Working hours: a day's width on the board spans them.
const (
	DayFrom = 7
	DayTo   = 19
)

// Board is the dispatch board.
type Board struct {
	src     Source
	planner Planner
	opts    Options

	zoom   Zoom
	day    time.Time     // local midnight of the first day shown
	length time.Duration // how long a visit is taken to last

	week       *storage.Week
	rows       []row
	placements []placement     // by row
	lanes      []int           // per row
	byTech     map[int64][]int // a technician's visits (indexes into week.Visits)
	selected   int64           // the work order picked (0: none)
	asked      map[int64]bool  // refusals the person was asked about

	grid  *xwidget.TimeGrid
	area  *area
	layer *fyne.Container // the blocks, clipped to the grid's days
	pool  []*xwidget.Block
	shown []placement // the placements the pool's blocks show
	ghost *xwidget.Block
	drag  *dragState
	// grow is the row a block is dragged over and the lanes it has while
	// so (row -1: none): room for the ghost below its blocks.
	grow     struct{ row, lanes int }
	waiting  *waitingList
	waitHead *widget.Label
	title    *widget.Label
	status   *widget.Label
	zoomSel  *widget.RadioGroup
	lenSel   *widget.Select
	planBtn  *widget.Button
	content  fyne.CanvasObject
	loading  bool
	again    bool // a reload was asked for while one ran
}

// row is one row of the board: a technician, or the visits nobody (or
// nobody known) is assigned to.
type row struct {
	tech  int64 // 0: not assigned
	crew  storage.Crew
	label string
}

// New builds the board over src and planner, showing the week of now.
func New(src Source, planner Planner, opts Options) *Board {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Background == nil {
		opts.Background = func(f func()) { go f() }
	}
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	if opts.StatusColor == nil {
		opts.StatusColor = func(api.WorkOrderStatus) color.Color { return theme.Color(theme.ColorNamePrimary) }
	}
	b := &Board{src: src, planner: planner, opts: opts, length: api.DefaultVisitLength, asked: map[int64]bool{}}
	b.grow.row = -1
	b.day = weekStart(opts.Now())
	b.grid = xwidget.NewTimeGrid(b.day, 7, DayFrom, DayTo)
	b.grid.Today = opts.Now()
	b.grid.OnScrolled = b.place
	b.layer = container.NewWithoutLayout()
	b.ghost = xwidget.NewBlock("", "", "", nil)
	park(b.ghost)
	b.area = newArea(b)
	b.build()
	return b
}

// Content is the board's view.
func (b *Board) Content() fyne.CanvasObject { return b.content }

// weekStart is local midnight of the Monday of t's week.
func weekStart(t time.Time) time.Time {
	t = t.In(time.Local)
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
	back := (int(d.Weekday()) + 6) % 7
	return d.AddDate(0, 0, -back)
}

func dayOf(t time.Time) time.Time {
	t = t.In(time.Local)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
}

// days is how many days the board shows.
func (b *Board) days() int {
	if b.zoom == ZoomDay {
		return 1
	}
	return 7
}

// span is the days shown: [from, to).
func (b *Board) span() (from, to time.Time) {
	if b.zoom == ZoomDay {
		return b.day, b.day.AddDate(0, 0, 1)
	}
	return b.day, b.day.AddDate(0, 0, 7)
}

// Reload reads the days shown again, off the main goroutine; called when
// the replica changes (a sync, an event, a queued action).
func (b *Board) Reload() {
	if b.loading {
		b.again = true
		return
	}
	b.loading = true
	from, to := b.span()
	b.opts.Background(func() {
		wk, err := b.src.Week(context.Background(), from, to)
		b.opts.Do(func() {
			b.loading = false
			if err != nil {
				b.fail(fmt.Errorf("reading the week: %w", err))
			} else if f, t := b.span(); f.Equal(from) && t.Equal(to) {
				b.setWeek(wk)
			}
			if b.again {
				b.again = false
				b.Reload()
			}
		})
	})
}

func (b *Board) fail(err error) {
	if b.opts.OnError != nil {
		b.opts.OnError(err)
		return
	}
	b.say(err.Error(), true)
}

// say puts a line under the toolbar: what the board is doing or what is wrong.
func (b *Board) say(text string, problem bool) {
	b.status.SetText(text)
	b.status.Importance = widget.LowImportance
	if problem {
		b.status.Importance = widget.DangerImportance
	}
	b.status.Refresh()
}

// setWeek shows wk: its rows, its blocks and the waiting list.
func (b *Board) setWeek(wk *storage.Week) {
	b.week = wk
	b.index()
	b.grid.Start, b.grid.Days = b.day, b.days()
	b.grid.Today = b.opts.Now()
	b.grid.SetRows(b.gridRows())
	b.place()
	b.waitHead.SetText(fmt.Sprintf("Waiting for a visit (%d)", len(wk.Waiting)))
	b.waiting.Refresh()
	b.askAboutRefusals()
}

// Select picks the work order woID, as a tap on its block does.
func (b *Board) Select(woID int64) {
	b.selected = woID
	b.place()
	b.waiting.Refresh()
	if v := b.visit(woID); v != nil {
		b.say(describe(v), false)
	}
}

// visit finds work order woID among the week's visits and waiting work.
func (b *Board) visit(woID int64) *storage.Visit {
	if b.week == nil {
		return nil
	}
	for _, list := range [][]storage.Visit{b.week.Visits, b.week.Waiting} {
		for i := range list {
			if list[i].WorkOrderId == woID {
				return &list[i]
			}
		}
	}
	return nil
}

// describe is a visit in a line, for the status line.
func describe(v *storage.Visit) string {
	s := v.Number + " · " + v.Customer
	if v.Site != "" {
		s += " · " + v.Site
	}
	if !v.Start.IsZero() {
		s += " · " + v.Start.In(time.Local).Format("Mon 2 Jan 15:04")
	}
	if !v.OnSiteBy.IsZero() {
		s += " · on site by " + v.OnSiteBy.In(time.Local).Format("Mon 2 Jan 15:04")
	}
	return s
}

// Aim is where on the canvas a person aims to drop a work order on the
// row labelled label, on day (0: the first day shown) at hour:minute; false
// when no row is so labelled or the moment is not on the board. The
// real-window test's driver drags there.
func (b *Board) Aim(label string, day, hour, minute int) (fyne.Position, bool) {
	row := -1
	for i, r := range b.rows {
		if r.label == label {
			row = i
		}
	}
	if row < 0 || day < 0 || day >= b.days() {
		return fyne.Position{}, false
	}
	at := b.day.AddDate(0, 0, day).Add(time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute)
	if first, last := b.grid.VisibleRows(); row < first || row >= last {
		b.grid.ScrollTo(b.grid.RowTop(row) + b.grid.ScrollY - b.grid.HeaderHeight())
		b.place()
	}
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.area)
	return origin.Add(fyne.NewPos(b.grid.XOf(at)+2, b.grid.RowTop(row)+8)), true
}

// Shows reports whether work order woID has a block in the row of tech
// (0: nobody's) among the days shown.
func (b *Board) Shows(woID, tech int64) bool {
	for _, p := range b.placements {
		if b.week.Visits[p.visit].WorkOrderId == woID && b.rows[p.row].tech == tech {
			return true
		}
	}
	return false
}
