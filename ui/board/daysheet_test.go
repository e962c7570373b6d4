package board

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

type sheetAsked struct {
	tech int64
	from time.Time
	days int
}

// openWithSheets is open with a DaySheet that records what it was asked.
func openWithSheets(t *testing.T) (*Board, fyne.Window, *[]sheetAsked) {
	t.Helper()
	var asked []sheetAsked
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	inline := func(fn func()) { fn() }
	b := New(smallWeek(), nil, Options{Window: w, StatusColor: testColor, Now: func() time.Time { return now }, Background: inline, Do: inline,
		DaySheet: func(tech int64, from time.Time, days int) { asked = append(asked, sheetAsked{tech, from, days}) }})
	w.SetContent(b.Content())
	w.Resize(big)
	b.Reload()
	return b, w, &asked
}

// TestTappingARowOrADayOpensTheDaySheet: a tap on a technician's name
// asks for their day sheet of the week shown (of the day, zoomed in); a
// tap on a day's heading, that day's, for nobody in particular, or for
// the selected visit's technician; a tap on "Not assigned" or on the
// grid asks nothing.
func TestTappingARowOrADayOpensTheDaySheet(t *testing.T) {
	b, _, asked := openWithSheets(t)
	g := b.grid
	tap := func(x, y float32) { b.area.Tapped(&fyne.PointEvent{Position: fyne.NewPos(x, y)}) }
	row := b.rowOf(kenji.Id)
	tap(20, g.RowTop(row)+8)
	tap(20, g.RowTop(b.rowOf(0))+8)                // Not assigned
	tap(g.XOf(at(10, 9, 0))+4, g.HeaderHeight()/2) // Thursday's heading
	tap(g.XOf(at(10, 9, 0))+4, g.RowTop(row)+8)    // a free hour: nothing
	b.Select(1)                                    // Kenji's Wednesday visit
	tap(g.XOf(at(11, 9, 0))+4, g.HeaderHeight()/2) // Friday's heading
	b.SetZoom(ZoomDay)
	tap(20, g.RowTop(b.rowOf(miguel.Id))+8)
	want := []sheetAsked{
		{kenji.Id, at(7, 0, 0), 7},
		{0, at(10, 0, 0), 1},
		{kenji.Id, at(11, 0, 0), 1},
		{miguel.Id, b.day, 1},
	}
	if len(*asked) != len(want) {
		t.Fatalf("asked %v; want %v", *asked, want)
	}
	for i, w := range want {
		if got := (*asked)[i]; got.tech != w.tech || !got.from.Equal(w.from) || got.days != w.days {
			t.Errorf("tap %d asked %+v; want %+v", i, got, w)
		}
	}
}

// TestDaySheetButtonTakesTheSelectedTechnician: Day sheet… asks for the
// selected visit's technician's sheet of the days shown; with nothing
// selected, nobody in particular's.
func TestDaySheetButtonTakesTheSelectedTechnician(t *testing.T) {
	b, w, asked := openWithSheets(t)
	var btn *widget.Button
	walk(w.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*widget.Button); ok && x.Text == wordDaySheet {
			btn = x
		}
	})
	if btn == nil {
		t.Fatal("no Day sheet… button")
	}
	test.Tap(btn)
	b.Select(1) // Kenji's Wednesday visit
	test.Tap(btn)
	want := []sheetAsked{{0, at(7, 0, 0), 7}, {kenji.Id, at(7, 0, 0), 7}}
	for i, w := range want {
		if i >= len(*asked) || (*asked)[i].tech != w.tech || !(*asked)[i].from.Equal(w.from) || (*asked)[i].days != w.days {
			t.Errorf("asked %+v; want %+v", *asked, want)
			break
		}
	}
}

// TestNoDaySheetWithoutAWayToOpenIt: a board given no DaySheet shows no
// Day sheet… button.
func TestNoDaySheetWithoutAWayToOpenIt(t *testing.T) {
	_, w := open(t, smallWeek(), big)
	walk(w.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*widget.Button); ok && x.Text == wordDaySheet {
			t.Error("a Day sheet… button that opens nothing")
		}
	})
}
