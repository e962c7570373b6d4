package board

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// fake is the board's Source and Planner: a week in memory, and a record
// of what the board asked to queue.
type fake struct {
	mu       sync.Mutex
	crew     []storage.Crew
	visits   []storage.Visit // scheduled ones and waiting ones alike
	plans    []plan
	resolved []resolved
	refusal  Refusal
	weeks    int // how many times the week was read
}

type plan struct {
	wo, tech, instead int64
	at                time.Time
}

type resolved struct {
	row      int64
	dropHeld bool
}

func (f *fake) Week(_ context.Context, from, to time.Time) (*storage.Week, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.weeks++
	wk := &storage.Week{From: from, To: to, Crew: slices.Clone(f.crew)}
	for _, v := range f.visits {
		v.Assigned = slices.Clone(v.Assigned)
		switch {
		case v.Start.IsZero():
			wk.Waiting = append(wk.Waiting, v)
		case !v.Start.Before(from) && v.Start.Before(to):
			wk.Visits = append(wk.Visits, v)
		}
	}
	slices.SortStableFunc(wk.Visits, func(a, b storage.Visit) int { return a.Start.Compare(b.Start) })
	return wk, nil
}

// Plan records the plan and makes it so, as the replica's expected state
// would: queued.
func (f *fake) Plan(_ context.Context, woID, tech, instead int64, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.plans = append(f.plans, plan{woID, tech, instead, at})
	for i := range f.visits {
		v := &f.visits[i]
		if v.WorkOrderId != woID {
			continue
		}
		v.Start, v.Queued = at, true
		v.Assigned = slices.DeleteFunc(v.Assigned, func(a api.Associate) bool { return a.Id == instead })
		if tech != 0 && !slices.ContainsFunc(v.Assigned, func(a api.Associate) bool { return a.Id == tech }) {
			for _, c := range f.crew {
				if c.Id == tech {
					v.Assigned = append(v.Assigned, c.Associate)
				}
			}
		}
		v.AssignedKnown = true
		return nil
	}
	return errors.New("no such work order")
}

func (f *fake) Refusal(_ context.Context, row int64) (Refusal, error) { return f.refusal, nil }

func (f *fake) Resolve(_ context.Context, row int64, dropHeld bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolved = append(f.resolved, resolved{row, dropHeld})
	for i := range f.visits {
		if f.visits[i].HeldBy == row {
			f.visits[i].HeldBy = 0
		}
	}
	return nil
}

func (f *fake) planned() []plan {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.plans)
}

// now is a Wednesday morning: the week shown is Monday 7 to Sunday 13
// December 2026.
var now = time.Date(2026, 12, 9, 8, 15, 0, 0, time.Local)

func at(day, hour, minute int) time.Time {
	return time.Date(2026, 12, day, hour, minute, 0, 0, time.Local)
}

const branchUS, branchUK = 492042, 492051

func person(id int64, name string, typ api.AssociateType, branch int64) storage.Crew {
	return storage.Crew{Associate: api.Associate{Id: id, Name: name, Type: typ}, Branches: []int64{branch}}
}

var (
	kenji  = person(7101, "Kenji Sato", api.AssociateCruMember, branchUS)
	miguel = person(7102, "Miguel Alvarez", api.AssociateCruMember, branchUS)
	hannah = person(7201, "Hannah Schmidt", api.AssociateCruMember, branchUK)
	delta  = person(7151, "Delta Roofing & Sheet Metal", api.AssociateSubcontractor, branchUS)
)

// smallWeek: Kenji has a visit on Wednesday at 9:00; Miguel one on
// Thursday; one is planned for nobody; three wait for a visit.
func smallWeek() *fake {
	onSite := func(day, hour int) time.Time { return at(day, hour, 0) }
	return &fake{
		crew: []storage.Crew{kenji, miguel, hannah, delta},
		visits: []storage.Visit{
			{WorkOrderId: 1, Number: "NWR73201", Customer: "Northwind Retail", Site: "Plano", Status: api.StatusAccepted, BranchId: branchUS,
				Start: at(9, 9, 0), OnSiteBy: onSite(10, 17), Assigned: []api.Associate{kenji.Associate}, AssignedKnown: true},
			{WorkOrderId: 2, Number: "HPH73202", Customer: "Harbor Point Hotels", Site: "Baltimore", Status: api.StatusCheckedIn, BranchId: branchUS,
				Start: at(10, 13, 30), Assigned: []api.Associate{miguel.Associate}, AssignedKnown: true},
			{WorkOrderId: 3, Number: "LMG73203", Customer: "Lakeside Medical Group", Site: "Clinic 4", Status: api.StatusAccepted, BranchId: branchUS,
				Start: at(11, 10, 0), AssignedKnown: true},
			{WorkOrderId: 4, Number: "NWR73204", Customer: "Northwind Retail", Site: "Naperville", Status: api.StatusAccepted, BranchId: branchUS,
				OnSiteBy: onSite(9, 15), AssignedKnown: true},
			{WorkOrderId: 5, Number: "KFU73205", Customer: "Kensington Foods UK", Site: "Leeds", Status: api.StatusNew, BranchId: branchUK,
				OnSiteBy: onSite(11, 12), AssignedKnown: true},
			{WorkOrderId: 6, Number: "HPH73206", Customer: "Harbor Point Hotels", Site: "Seattle", Status: api.StatusPaused, BranchId: branchUS,
				AssignedKnown: false},
		},
	}
}

var testColors = map[api.WorkOrderStatus]color.Color{
	api.StatusNew:       color.NRGBA{R: 0xd9, G: 0x7a, B: 0x06, A: 0xff},
	api.StatusAccepted:  color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff},
	api.StatusCheckedIn: color.NRGBA{R: 0x82, G: 0x50, B: 0xdf, A: 0xff},
	api.StatusPaused:    color.NRGBA{R: 0x82, G: 0x50, B: 0xdf, A: 0xff},
}

func testColor(s api.WorkOrderStatus) color.Color {
	if c, ok := testColors[s]; ok {
		return c
	}
	return color.NRGBA{R: 0x6e, G: 0x77, B: 0x81, A: 0xff}
}

// open shows the fake's board in a window of size, everything inline on
// the test goroutine.
func open(t testing.TB, f *fake, size fyne.Size) (*Board, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	inline := func(fn func()) { fn() }
	b := New(f, f, Options{Window: w, StatusColor: testColor, Now: func() time.Time { return now }, Background: inline, Do: inline})
	w.SetContent(b.Content())
	w.Resize(size)
	b.Reload()
	return b, w
}

// dragTo drags blk so that the pointer ends over (row, at) of the grid.
func dragTo(b *Board, blk *xwidget.Block, row int, when time.Time) {
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.area)
	x := b.grid.XOf(when) + 1
	y := b.grid.RowTop(row) + 6
	// A few steps on the way, as a hand moves.
	for _, f := range []float32{0.3, 0.7, 1} {
		p := origin.Add(fyne.NewPos(x*f, y*f))
		blk.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: p}})
	}
	blk.DragEnd()
}

func (b *Board) rowIndex(tech int64) int {
	for i, r := range b.rows {
		if r.tech == tech {
			return i
		}
	}
	return -1
}

// blockOf is the grid block showing work order woID in tech's row.
func blockOf(t testing.TB, b *Board, woID, tech int64) *xwidget.Block {
	t.Helper()
	for i, p := range b.shown {
		if b.week.Visits[p.visit].WorkOrderId == woID && b.rows[p.row].tech == tech && showing(b.pool[i]) {
			return b.pool[i]
		}
	}
	t.Fatalf("no block of work order %d in row %d", woID, b.rowIndex(tech))
	return nil
}

// waitingBlock is the waiting list's block of work order woID.
func waitingBlock(t testing.TB, b *Board, woID int64) *xwidget.Block {
	t.Helper()
	i := b.waitingIndex(woID)
	if i < 0 {
		t.Fatalf("work order %d is not waiting", woID)
	}
	b.waiting.ScrollTo(i)
	var found *xwidget.Block
	walk(b.waiting, func(o fyne.CanvasObject) {
		if blk, ok := o.(*xwidget.Block); ok && blk.Visible() && strings.HasPrefix(blk.Title, b.week.Waiting[i].Number) {
			found = blk
		}
	})
	if found == nil {
		t.Fatalf("the waiting list shows no block for %d", woID)
	}
	return found
}

func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	switch x := o.(type) {
	case fyne.Widget:
		r := test.WidgetRenderer(x)
		for _, c := range r.Objects() {
			walk(c, fn)
		}
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, fn)
		}
	}
}

// dialogTexts is every text of the dialog on top, joined.
func dialogTexts(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var out []string
	walk(top, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.RichText:
			out = append(out, x.String())
		default:
			if b := viewtest.AsButton(o); b != nil {
				out = append(out, "["+b.Text+"]")
			}
		}
	})
	return strings.Join(out, " ")
}

// tapButton taps the dialog's button labelled text.
func tapButton(t testing.TB, w fyne.Window, text string) {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog open to tap %q in", text)
	}
	btn := viewtest.Button(top, text)
	if btn == nil {
		t.Fatalf("the dialog has no %q button: %s", text, dialogTexts(w))
	}
	test.Tap(btn)
}

func (p plan) String() string {
	return fmt.Sprintf("wo %d → %d (instead of %d) at %s", p.wo, p.tech, p.instead, p.at.Format("Mon 15:04"))
}
