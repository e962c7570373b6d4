package board

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

var big = fyne.NewSize(1280, 800)

// The week as it reads: one row per technician and subcontractor after
// the visits nobody is assigned to; each visit a block in its
// technician's row on its day; the waiting work by on-site deadline.
func TestBoardShowsTheWeek(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	var labels []string
	for _, r := range b.rows {
		labels = append(labels, r.label)
	}
	if want := []string{"Not assigned", "Kenji Sato", "Miguel Alvarez", "Hannah Schmidt", "Delta Roofing & Sheet Metal"}; !slices.Equal(labels, want) {
		t.Errorf("rows %v; want %v", labels, want)
	}
	if got := blockOf(t, b, 1, kenji.Id); got.Title != "NWR73201" || !strings.Contains(got.Line1, "09:00 Northwind Retail") {
		t.Errorf("Kenji's block reads %q / %q", got.Title, got.Line1)
	}
	blockOf(t, b, 3, 0) // planned for nobody
	var waiting []string
	for _, v := range b.week.Waiting {
		waiting = append(waiting, v.Number)
	}
	if want := []string{"NWR73204", "KFU73205", "HPH73206"}; !slices.Equal(waiting, want) {
		t.Errorf("waiting %v; want by on-site deadline %v", waiting, want)
	}
	if b.title.Text != "7–13 December 2026" {
		t.Errorf("the title says %q", b.title.Text)
	}
}

// Dragging a waiting work order onto a technician's day and hour queues
// one plan: that technician, at that moment (on the half hour). The block
// then shows in their row, queued.
func TestDragFromTheWaitingListPlansAVisit(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	dragTo(b, waitingBlock(t, b, 4), b.rowIndex(kenji.Id), at(9, 12, 0))
	want := []plan{{wo: 4, tech: kenji.Id, at: at(9, 12, 0)}}
	if got := f.planned(); !slices.Equal(got, want) {
		t.Fatalf("planned %v; want %v", got, want)
	}
	blk := blockOf(t, b, 4, kenji.Id)
	if blk.State&xwidget.BlockQueued == 0 || !strings.HasPrefix(blk.Line1, "12:00 ") {
		t.Errorf("the new block reads %q, state %b; want it queued at 12:00", blk.Line1, blk.State)
	}
	if b.waitingIndex(4) >= 0 {
		t.Error("the planned work order still waits")
	}
}

// Dragging a block to another technician moves the visit: the plan takes
// the first technician off. Dropping it where it was queues nothing.
func TestDragABlockMovesTheVisit(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	dragTo(b, blockOf(t, b, 2, miguel.Id), b.rowIndex(miguel.Id), at(10, 13, 30))
	if got := f.planned(); len(got) != 0 {
		t.Fatalf("a block dropped where it was queued %v", got)
	}
	dragTo(b, blockOf(t, b, 2, miguel.Id), b.rowIndex(kenji.Id), at(11, 8, 30))
	want := []plan{{wo: 2, tech: kenji.Id, instead: miguel.Id, at: at(11, 8, 30)}}
	if got := f.planned(); !slices.Equal(got, want) {
		t.Fatalf("planned %v; want %v", got, want)
	}
	blockOf(t, b, 2, kenji.Id)
}

// Before queuing, the board says what is wrong, in words: after the
// on-site-by deadline and the technician busy are asked about (Cancel
// queues nothing, Plan anyway queues it); a status that allows no
// appointment, or a technician of another branch, refuses.
func TestTheBoardSaysWhatIsWrongBeforeQueuing(t *testing.T) {
	cases := []struct {
		name    string
		wo      int64
		tech    int64
		when    time.Time
		setup   func(f *fake)
		says    string
		refused bool
	}{
		{name: "after the on-site deadline", wo: 4, tech: miguel.Id, when: at(9, 16, 0),
			says: "after the on-site-by deadline, Wed 9 Dec 15:00"},
		{name: "the technician is busy", wo: 4, tech: kenji.Id, when: at(9, 10, 0),
			says: "Kenji Sato already has NWR73201 at Wed 09:00 (a visit is taken to last 2 hours)"},
		{name: "the status allows no appointment", wo: 4, tech: kenji.Id, when: at(9, 12, 0),
			setup: func(f *fake) { f.visits[3].Status = api.StatusCheckedOut; f.visits[3].Start = at(8, 9, 0) }, refused: true,
			says: "the visit is over"},
		{name: "a technician of another branch", wo: 4, tech: hannah.Id, when: at(9, 12, 0), refused: true,
			says: "Hannah Schmidt does not work for the branch of NWR73204"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := smallWeek()
			if c.setup != nil {
				c.setup(f)
			}
			b, w := open(t, f, big)
			b.Drop(c.wo, 0, c.tech, c.when)
			if got := dialogTexts(w); !strings.Contains(got, c.says) {
				t.Fatalf("the dialog says %q; want it to say %q", got, c.says)
			}
			if c.refused {
				if strings.Contains(dialogTexts(w), "[Plan anyway]") {
					t.Error("a refused plan may be queued anyway")
				}
				if got := f.planned(); len(got) != 0 {
					t.Errorf("queued %v", got)
				}
				return
			}
			tapButton(t, w, "Cancel")
			if got := f.planned(); len(got) != 0 {
				t.Fatalf("cancelled, yet queued %v", got)
			}
			b.Drop(c.wo, 0, c.tech, c.when)
			tapButton(t, w, "Plan anyway")
			if got := f.planned(); len(got) != 1 || got[0].tech != c.tech || !got[0].at.Equal(c.when) {
				t.Errorf("planned anyway: %v", got)
			}
		})
	}
}

// While dragged, the ghost shows where and when it would land and is
// marked when something would be wrong there.
func TestTheGhostShowsWhereAndWhatIsWrong(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	blk := waitingBlock(t, b, 4)
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.area)
	step := func(row int, when time.Time) {
		p := origin.Add(fyne.NewPos(b.grid.XOf(when)+1, b.grid.RowTop(row)+6))
		blk.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: p}})
	}
	step(b.rowIndex(miguel.Id), at(9, 11, 0))
	if !showing(b.ghost) || b.ghost.Title != "Wed 11:00 NWR73204" || b.ghost.State&xwidget.BlockWarning != 0 {
		t.Errorf("over a free hour: ghost %q, state %b, shown %v", b.ghost.Title, b.ghost.State, showing(b.ghost))
	}
	step(b.rowIndex(kenji.Id), at(9, 9, 30))
	if b.ghost.State&xwidget.BlockWarning == 0 || !strings.Contains(b.status.Text, "already has NWR73201") {
		t.Errorf("over Kenji's 9:00 visit: state %b, status %q", b.ghost.State, b.status.Text)
	}
	blk.DragEnd()
	if showing(b.ghost) {
		t.Error("the ghost stays after the drop")
	}
}

// The board opens with the keyboard, and its ring, on the first waiting
// work order: Plan visit… (Ctrl+P) plans that one, as the ring promises.
func TestPlanVisitPlansTheWorkOrderTheKeyboardIsOn(t *testing.T) {
	f := smallWeek()
	b, w := open(t, f, big)
	b.FocusWaiting()
	b.PlanSelected()
	if got := dialogTexts(w); !strings.Contains(got, "Plan visit: NWR73204") {
		t.Fatalf("Plan visit… with the ring on the first waiting work order shows %q", got)
	}
	if b.selected != 4 {
		t.Errorf("the work order planned is not the one selected: %d", b.selected)
	}
}

// Without a mouse: select a waiting work order, Plan visit…, choose the
// technician, keep the proposed day, type the time, Enter.
func TestPlanVisitWithTheKeyboard(t *testing.T) {
	f := smallWeek()
	b, w := open(t, f, big)
	b.PlanSelected()
	if !strings.Contains(b.status.Text, "Select a work order first") {
		t.Errorf("Plan visit… with nothing selected says %q", b.status.Text)
	}
	// The waiting list takes the keyboard: the first item, Space.
	w.Canvas().Focus(b.waiting)
	b.waiting.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	b.waiting.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	b.waiting.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if b.selected != 4 {
		t.Fatalf("Space in the waiting list selected %d; want its first, 4", b.selected)
	}
	b.PlanSelected()
	if !strings.Contains(dialogTexts(w), "Plan visit: NWR73204") {
		t.Fatalf("no Plan visit dialog: %s", dialogTexts(w))
	}
	f2 := w.Canvas().Focused()
	entry, ok := f2.(interface {
		fyne.Focusable
		SetText(string)
	})
	if !ok {
		t.Fatalf("the time field does not have the focus: %T", f2)
	}
	entry.SetText("12:30")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	want := []plan{{wo: 4, tech: kenji.Id, at: at(9, 12, 30)}}
	if got := f.planned(); !slices.Equal(got, want) {
		t.Errorf("planned %v; want %v (the first technician, today, 12:30)", got, want)
	}
}

// A plan held behind a refused assignment asks the person, once: send the
// appointment without it, or discard the plan.
func TestAHeldPlanAsks(t *testing.T) {
	f := smallWeek()
	f.visits[0].HeldBy = 77
	f.refusal = Refusal{What: "Assign Kenji Sato", Why: "Associate 7101 is not valid for branch 492042.", Held: []string{"Schedule the visit"}}
	b, w := open(t, f, big)
	got := dialogTexts(w)
	for _, want := range []string{"Assign Kenji Sato", "not valid for branch", "Schedule the visit", "[Send without it]", "[Discard the plan]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the question lacks %q: %s", want, got)
		}
	}
	if blockOf(t, b, 1, kenji.Id).State&xwidget.BlockHeld == 0 {
		t.Error("the held visit's block is not marked")
	}
	tapButton(t, w, "Discard the plan")
	if len(f.resolved) != 1 || f.resolved[0] != (resolved{77, true}) {
		t.Errorf("resolved %+v", f.resolved)
	}
	b.Reload()
	if top := w.Canvas().Overlays().Top(); top != nil {
		t.Errorf("asked again: %s", dialogTexts(w))
	}
}

// Zoomed to a day, the blocks lie along the working hours; the day
// follows today.
func TestZoomToADay(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	b.SetZoom(ZoomDay)
	if b.title.Text != "Wednesday 9 December 2026" {
		t.Errorf("the day shown is %q; want today", b.title.Text)
	}
	blk := blockOf(t, b, 1, kenji.Id)
	g := b.grid
	if x := blk.Position().X + g.LabelWidth; x < g.XOf(at(9, 9, 0))-2 || x > g.XOf(at(9, 9, 0))+2 {
		t.Errorf("the 9:00 block is at x %v; want %v", x, g.XOf(at(9, 9, 0)))
	}
	if w := blk.Size().Width; w < g.WidthOf(2*time.Hour)-4 {
		t.Errorf("a two-hour visit is %v wide; want about %v", w, g.WidthOf(2*time.Hour))
	}
	dragTo(b, waitingBlock(t, b, 4), b.rowIndex(miguel.Id), at(9, 14, 0))
	if got := f.planned(); len(got) != 1 || !got[0].at.Equal(at(9, 14, 0)) {
		t.Errorf("planned in the day view: %v", got)
	}
}

// A pool of blocks, not one per visit: a long board scrolled shows the
// visits of the rows in view.
func TestScrollingPlacesOnlyWhatShows(t *testing.T) {
	f := manyVisits(50, 500)
	b, _ := open(t, f, big)
	before := len(b.pool)
	if before == 0 || before >= 500 {
		t.Fatalf("%d blocks made for a board of 500 visits", before)
	}
	b.grid.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -1500)})
	first, _ := b.grid.VisibleRows()
	if first == 0 {
		t.Fatal("the rows did not scroll")
	}
	visible := 0
	for i, p := range b.shown {
		blk := b.pool[i]
		if p.row < first {
			t.Errorf("block %d is for row %d, above the view (first %d)", i, p.row, first)
		}
		if showing(blk) {
			visible++
			if blk.Position().Y < 0 {
				t.Errorf("block %d shows over the header (y %v)", i, blk.Position().Y)
			}
		}
	}
	if visible == 0 {
		t.Error("no block shows after scrolling")
	}
}

// The board at 1280x800 and 1024x700, as a person sees it.
func TestBoardGolden(t *testing.T) {
	for _, size := range []fyne.Size{big, {Width: 1024, Height: 700}} {
		f := smallWeek()
		b, w := open(t, f, size)
		test.ApplyTheme(t, test.Theme())
		b.Select(1)
		test.AssertImageMatches(t, "board_"+sizeName(size)+".png", w.Canvas().Capture())
	}
}

func sizeName(s fyne.Size) string {
	if s.Width == 1280 {
		return "1280x800"
	}
	return "1024x700"
}

// Over a technician's day that has a block already, the ghost takes the
// lane below it, the row growing by a lane while it is there, and never
// prints over it; it keeps its lines inside itself. While still dragging
// over a technician of another branch, the board says it cannot be
// planned there, not that nothing was assigned. The hint ends "Plan
// visit…", with no fourth dot.
func TestTheGhostNeverPrintsOverABlock(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	if strings.Contains(b.status.Text, "….") || !strings.HasSuffix(b.status.Text, "Plan visit…") {
		t.Errorf("the hint reads %q", b.status.Text)
	}
	kenjiRow := b.rowIndex(kenji.Id)
	before := b.rowHeight(kenjiRow)
	below := b.grid.RowTop(kenjiRow + 1)
	existing := blockOf(t, b, 1, kenji.Id)
	blk := waitingBlock(t, b, 4)
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.area)
	step := func(row int, when time.Time) {
		p := origin.Add(fyne.NewPos(b.grid.XOf(when)+1, b.grid.RowTop(row)+6))
		blk.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: p}})
	}
	step(kenjiRow, at(9, 14, 0)) // Wednesday, the day of Kenji's 9:00 visit
	if !showing(b.ghost) {
		t.Fatal("no ghost over Kenji's Wednesday")
	}
	g, e := b.ghost, existing
	if g.Position().Y < e.Position().Y+e.Size().Height && e.Position().Y < g.Position().Y+g.Size().Height &&
		g.Position().X < e.Position().X+e.Size().Width && e.Position().X < g.Position().X+g.Size().Width {
		t.Errorf("the ghost (%v %v) lies over Kenji's block (%v %v)", g.Position(), g.Size(), e.Position(), e.Size())
	}
	if b.rowHeight(kenjiRow) <= before || b.grid.RowTop(kenjiRow+1) <= below {
		t.Errorf("Kenji's row did not make room: %v → %v", before, b.rowHeight(kenjiRow))
	}
	if bottom := g.Position().Y + g.Size().Height; bottom > b.grid.RowTop(kenjiRow+1)-b.grid.HeaderHeight()+2 {
		t.Errorf("the ghost (bottom %v) runs into the next row (top %v)", bottom, b.grid.RowTop(kenjiRow+1)-b.grid.HeaderHeight())
	}
	if g.Line2 != "" {
		t.Errorf("a week's ghost has a third line %q, for a lane of two", g.Line2)
	}
	step(b.rowIndex(hannah.Id), at(10, 12, 0))
	if strings.Contains(b.status.Text, "nothing was assigned") || !strings.Contains(b.status.Text, "cannot be planned here: Hannah Schmidt does not work for the branch of NWR73204") {
		t.Errorf("over another branch's technician, still dragging: %q", b.status.Text)
	}
	if b.rowHeight(kenjiRow) != before {
		t.Errorf("Kenji's row keeps the room after the ghost left: %v, was %v", b.rowHeight(kenjiRow), before)
	}
	blk.DragEnd()
	if got := f.planned(); len(got) != 0 {
		t.Errorf("dropped on a refusing technician, queued %v", got)
	}
}

// A drag aimed at a row below one that grew for the ghost on the way
// lands where it was aimed: the row passed over gives its lane back
// before the row under the pointer is chosen.
func TestADragPastAGrownRowLandsWhereAimed(t *testing.T) {
	f := smallWeek()
	b, _ := open(t, f, big)
	target := b.rowIndex(hannah.Id)
	y := b.grid.RowTop(target) + 6 // aimed before the drag, as the grid is drawn then
	blk := waitingBlock(t, b, 4)
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.area)
	over := func(row int, when time.Time, y float32) {
		p := origin.Add(fyne.NewPos(b.grid.XOf(when)+1, y))
		blk.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: p}})
	}
	over(b.rowIndex(kenji.Id), at(9, 9, 0), b.grid.RowTop(b.rowIndex(kenji.Id))+6) // Kenji's full Wednesday: it grows
	if b.grow.row != b.rowIndex(kenji.Id) {
		t.Fatalf("Kenji's row did not grow for the ghost (grow %+v)", b.grow)
	}
	over(target, at(9, 9, 0), y)
	if b.drag == nil || b.drag.row != target {
		t.Fatalf("aimed at Hannah Schmidt's row, the ghost is over row %d", b.drag.row)
	}
}

// A work order whose record does not say who goes shows in the row of
// the technician this office assigned, its number marked: others may go
// too.
func TestTheBoardMarksWhomTheOfficeAssigned(t *testing.T) {
	f := smallWeek()
	f.visits[0].AssignedPartial = true
	b, _ := open(t, f, big)
	if got := blockOf(t, b, 1, kenji.Id).Title; got != "NWR73201"+partlyKnown {
		t.Errorf("Kenji's block reads %q; want it marked %q", got, partlyKnown)
	}
	if got := blockOf(t, b, 2, miguel.Id).Title; got != "HPH73202" {
		t.Errorf("a record that says: %q", got)
	}
}

// The keyboard in the waiting list is seen: the block it is on carries the
// focus mark, which moves with Down and goes when the list loses the
// keyboard; Tab from the toolbar's last button reaches the list.
func TestTheWaitingListShowsWhereTheKeyboardIs(t *testing.T) {
	f := smallWeek()
	b, w := open(t, f, big)
	marked := func() []int {
		var at []int
		for i := 0; i < b.waitingLen(); i++ {
			blk := b.newWaitingItem().(*xwidget.Block)
			b.updateWaitingItem(i, blk)
			if blk.State&xwidget.BlockFocused != 0 {
				at = append(at, i)
			}
		}
		return at
	}
	if got := marked(); len(got) != 0 {
		t.Fatalf("blocks marked before the list has the keyboard: %v", got)
	}
	b.FocusWaiting()
	if got := marked(); !slices.Equal(got, []int{0}) {
		t.Fatalf("with the keyboard in the list, marked %v; want the first block", got)
	}
	b.waiting.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if got := marked(); !slices.Equal(got, []int{1}) {
		t.Errorf("after Down, marked %v; want the second block", got)
	}
	w.Canvas().Focus(b.planBtn)
	if got := marked(); len(got) != 0 {
		t.Errorf("blocks marked after the keyboard left the list: %v", got)
	}
	w.Canvas().FocusNext()
	if w.Canvas().Focused() != b.waiting {
		t.Errorf("Tab from Plan visit… reaches %T, not the waiting list", w.Canvas().Focused())
	}
}
