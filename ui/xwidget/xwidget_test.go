package xwidget

import (
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// Regenerate a golden image after an intended change: run the test, look
// at testdata/failed/<name>.png, and copy it over testdata/<name>.png.

var (
	blue   = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff}
	purple = color.NRGBA{R: 0x82, G: 0x50, B: 0xdf, A: 0xff}
)

// The keyboard's mark on a block, beside a selected one: the same dark
// frame with a white line inside, on each fill.
func TestBlockFocusedGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	var objs []fyne.CanvasObject
	for i, st := range []BlockState{BlockFocused, BlockSelected, BlockFocused} {
		fill := blue
		if i == 2 {
			fill = color.NRGBA{R: 0xd9, G: 0x77, B: 0x06, A: 0xff}
		}
		b := NewBlock("NWR73201 · new", "Northwind Retail", "on site by Tue 1 Dec 06:00", fill)
		b.State = st
		objs = append(objs, b)
	}
	row := container.NewGridWithColumns(len(objs), objs...)
	w := test.NewTempWindow(t, container.NewPadded(row))
	w.Resize(fyne.NewSize(620, 80))
	test.AssertImageMatches(t, "block_focused.png", w.Canvas().Capture())
}

// Each state of a block, side by side: as it is, selected, queued, held
// behind a refusal, warned of a problem, and being dragged; and a title
// too long for its width, cut with an ellipsis.
func TestBlockStatesGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	states := []BlockState{0, BlockSelected, BlockQueued, BlockHeld, BlockWarning, BlockGhost}
	var objs []fyne.CanvasObject
	for i, st := range states {
		fill := blue
		if i%2 == 1 {
			fill = purple
		}
		b := NewBlock("09:00 WN73244", "Northwind Retail", "Plano", fill)
		b.State = st
		objs = append(objs, b)
	}
	objs = append(objs, NewBlock("14:30 HPH73301 and more text than fits", "Harbor Point Hotels", "", blue))
	row := container.NewGridWithColumns(len(objs), objs...)
	w := test.NewTempWindow(t, container.NewPadded(row))
	w.Resize(fyne.NewSize(840, 80))
	test.AssertImageMatches(t, "block_states.png", w.Canvas().Capture())
}

// A block reports where the pointer is while dragged, and its end.
func TestBlockReportsItsDrag(t *testing.T) {
	test.NewTempApp(t)
	b := NewBlock("09:00 WN1", "", "", blue)
	var at []fyne.Position
	ended := false
	b.OnDragged = func(p fyne.Position) { at = append(at, p) }
	b.OnDragEnd = func() { ended = true }
	w := test.NewTempWindow(t, container.NewWithoutLayout(b))
	b.Resize(fyne.NewSize(120, 40))
	b.Move(fyne.NewPos(10, 10))
	w.Resize(fyne.NewSize(300, 200))
	test.Drag(w.Canvas(), fyne.NewPos(20, 20), 50, 30)
	if len(at) == 0 || !ended || at[len(at)-1].X < 60 {
		t.Errorf("drag reported %v, ended %v", at, ended)
	}
}

var week = time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC) // a Monday

func gridRows() []GridRow {
	return []GridRow{
		{Label: "Not assigned", Sub: "Visits without a technician", Height: 52},
		{Label: "Kenji Sato", Sub: "Technician", Height: 52},
		{Label: "Miguel Alvarez", Sub: "Technician", Height: 90},
		{Label: "Delta Roofing & Sheet Metal", Sub: "Subcontractor", Height: 52},
	}
}

// The week: seven days, today (Wednesday) marked, rows with their labels.
func TestTimeGridWeekGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	g := NewTimeGrid(week, 7, 7, 19)
	g.Today = week.AddDate(0, 0, 2).Add(10 * time.Hour)
	g.SetRows(gridRows())
	w := test.NewTempWindow(t, g)
	w.Resize(fyne.NewSize(900, 320))
	test.AssertImageMatches(t, "timegrid_week.png", w.Canvas().Capture())
}

// Zoomed to a day: its working hours across, hour by hour; scrolled down
// by a row, whose label goes under the header.
func TestTimeGridDayScrolledGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	g := NewTimeGrid(week.AddDate(0, 0, 2), 1, 7, 19)
	g.Today = week.AddDate(0, 0, 2)
	g.SetRows(gridRows())
	w := test.NewTempWindow(t, g)
	w.Resize(fyne.NewSize(900, 200))
	g.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -52)})
	test.AssertImageMatches(t, "timegrid_day_scrolled.png", w.Canvas().Capture())
}

// The maps between positions and (row, moment) are each other's inverse
// on the snap, and clamp to the working hours.
func TestTimeGridMaps(t *testing.T) {
	test.NewTempApp(t)
	g := NewTimeGrid(week, 7, 7, 19)
	g.SetRows(gridRows())
	w := test.NewTempWindow(t, g)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(168+7*120, 400))
	at := week.AddDate(0, 0, 3).Add(10*time.Hour + 30*time.Minute)
	x := g.XOf(at)
	if got, ok := g.TimeAt(x + 1); !ok || !got.Equal(at) {
		t.Errorf("TimeAt(XOf(%v)) = %v, %v", at, got, ok)
	}
	if x := g.XOf(week.AddDate(0, 0, 1).Add(3 * time.Hour)); x != 168+120 {
		t.Errorf("3:00, before the working day, is at %v; want the day's left edge %v", x, 168+120)
	}
	if _, ok := g.TimeAt(100); ok {
		t.Error("a moment was found in the labels' column")
	}
	if got := g.WidthOf(2 * time.Hour); got != 20 {
		t.Errorf("two hours are %v wide; want 20 (120 px for 12 hours)", got)
	}
	for i, want := range []int{0, 1, 2, 3} {
		if row, ok := g.RowAt(g.RowTop(i) + 1); !ok || row != want {
			t.Errorf("RowAt(RowTop(%d)+1) = %d, %v", i, row, ok)
		}
	}
	if _, ok := g.RowAt(g.HeaderHeight() - 1); ok {
		t.Error("a row was found in the header")
	}
	g.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -1000)})
	if g.ScrollY != 0 {
		t.Errorf("rows that fit scrolled to %v", g.ScrollY)
	}
}

// A block lower than its lines draws only those that fit inside it: a
// third line spilling below printed over the block beneath.
func TestABlockDrawsOnlyTheLinesThatFit(t *testing.T) {
	test.NewTempApp(t)
	b := NewBlock("Tue 11:00 NWR73231", "Luis Ortega", "Northwind #0317", blue)
	r := test.WidgetRenderer(b)
	for lines, want := range map[int]int{1: 1, 2: 2, 3: 3} {
		b.Resize(fyne.NewSize(140, BlockHeight(lines)))
		r.Layout(b.Size())
		shown := 0
		for _, o := range r.Objects() {
			if txt, ok := o.(*canvas.Text); ok && txt.Visible() && txt.Text != "" {
				shown++
				if bottom := txt.Position().Y + lineHeight(); bottom > b.Size().Height {
					t.Errorf("%d lines high: %q ends at %v, below the block (%v)", lines, txt.Text, bottom, b.Size().Height)
				}
			}
		}
		if shown != want {
			t.Errorf("%d lines high: %d lines drawn; want %d", lines, shown, want)
		}
	}
}
