package xwidget

import (
	"fmt"
	"image/color"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// GridRow is one row of a time grid: a resource (a technician) and how
// tall its row is.
type GridRow struct {
	Label  string
	Sub    string // a quieter second line ("Technician")
	Height float32
}

// TimeGrid draws days across and rows down: a header with each day (today
// marked) and, when it shows one day, its hours; a column of row labels;
// and the lines between them. Each day's width is a scale of its working
// hours (From to To). It scrolls its rows with the wheel, and maps between
// positions and (row, moment); what lies on it (blocks) is placed by its
// owner through those maps.
type TimeGrid struct {
	widget.BaseWidget

	Start      time.Time // local midnight of the first day shown
	Days       int       // 7 for a week, 1 for a day
	Today      time.Time
	From, To   int // the hours a day's width spans
	Rows       []GridRow
	LabelWidth float32
	// Snap is what TimeAt rounds to (0: the minute).
	Snap time.Duration
	// ScrollY is how far the rows are scrolled up.
	ScrollY float32

	// OnScrolled runs after the wheel moved the rows.
	OnScrolled func()

	offsets []float32 // each row's top, from the first row's; one more: the total
}

// NewTimeGrid makes a grid of days days from start, with working hours
// from to to.
func NewTimeGrid(start time.Time, days, from, to int) *TimeGrid {
	g := &TimeGrid{Start: start, Days: days, From: from, To: to, LabelWidth: 168, Snap: 30 * time.Minute}
	g.ExtendBaseWidget(g)
	return g
}

// SetRows replaces the rows (and keeps the scroll within them).
func (g *TimeGrid) SetRows(rows []GridRow) {
	g.Rows = rows
	g.measure()
	g.clampScroll()
	g.Refresh()
}

func (g *TimeGrid) measure() {
	g.offsets = g.offsets[:0]
	y := float32(0)
	for _, r := range g.Rows {
		g.offsets = append(g.offsets, y)
		y += r.Height
	}
	g.offsets = append(g.offsets, y)
}

// HeaderHeight is the height of the days' header.
func (g *TimeGrid) HeaderHeight() float32 { return 2*theme.TextSize() + 12 }

// ContentHeight is the rows' total height.
func (g *TimeGrid) ContentHeight() float32 {
	if len(g.offsets) != len(g.Rows)+1 {
		g.measure()
	}
	return g.offsets[len(g.offsets)-1]
}

// DayWidth is one day's width at the grid's size.
func (g *TimeGrid) DayWidth() float32 {
	if g.Days < 1 {
		return 0
	}
	return max(0, g.Size().Width-g.LabelWidth) / float32(g.Days)
}

// dayOf is the day index of t from Start, counted in calendar days.
func (g *TimeGrid) dayOf(t time.Time) int {
	t = t.In(g.Start.Location())
	a := time.Date(g.Start.Year(), g.Start.Month(), g.Start.Day(), 0, 0, 0, 0, time.UTC)
	b := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return int(b.Sub(a).Hours() / 24)
}

// dayStart is local midnight of day index i.
func (g *TimeGrid) dayStart(i int) time.Time {
	return time.Date(g.Start.Year(), g.Start.Month(), g.Start.Day()+i, 0, 0, 0, 0, g.Start.Location())
}

// Shows reports whether t falls on a day the grid shows.
func (g *TimeGrid) Shows(t time.Time) bool {
	d := g.dayOf(t)
	return d >= 0 && d < g.Days
}

// XOf is the x of moment t, a moment outside the working hours at the
// edge of its day.
func (g *TimeGrid) XOf(t time.Time) float32 {
	t = t.In(g.Start.Location())
	hours := float32(t.Hour()) + float32(t.Minute())/60
	frac := (hours - float32(g.From)) / float32(max(1, g.To-g.From))
	frac = min(max(frac, 0), 1)
	return g.LabelWidth + (float32(g.dayOf(t))+frac)*g.DayWidth()
}

// WidthOf is how wide a span of d is on a day's scale.
func (g *TimeGrid) WidthOf(d time.Duration) float32 {
	return float32(d.Hours()) / float32(max(1, g.To-g.From)) * g.DayWidth()
}

// TimeAt is the moment at x, rounded to Snap; false left of the days or
// right of the last.
func (g *TimeGrid) TimeAt(x float32) (time.Time, bool) {
	dw := g.DayWidth()
	if dw <= 0 || x < g.LabelWidth {
		return time.Time{}, false
	}
	pos := (x - g.LabelWidth) / dw
	day := int(pos)
	if day >= g.Days {
		return time.Time{}, false
	}
	minutes := (pos - float32(day)) * float32(g.To-g.From) * 60
	at := g.dayStart(day).Add(time.Duration(g.From)*time.Hour + time.Duration(minutes)*time.Minute)
	snap := g.Snap
	if snap <= 0 {
		snap = time.Minute
	}
	dayStart := g.dayStart(day)
	at = dayStart.Add(at.Sub(dayStart).Round(snap))
	if end := dayStart.Add(time.Duration(g.To) * time.Hour); !at.Before(end) {
		at = end.Add(-snap)
	}
	return at, true
}

// RowTop is the y of row i's top, scrolled.
func (g *TimeGrid) RowTop(i int) float32 {
	if len(g.offsets) != len(g.Rows)+1 {
		g.measure()
	}
	if i < 0 || i >= len(g.offsets) {
		return 0
	}
	return g.HeaderHeight() + g.offsets[i] - g.ScrollY
}

// RowAt is the row at y; false in the header or below the last row.
func (g *TimeGrid) RowAt(y float32) (int, bool) {
	if y < g.HeaderHeight() || len(g.Rows) == 0 {
		return 0, false
	}
	if len(g.offsets) != len(g.Rows)+1 {
		g.measure()
	}
	in := y - g.HeaderHeight() + g.ScrollY
	i := sort.Search(len(g.Rows), func(i int) bool { return g.offsets[i+1] > in })
	return i, i < len(g.Rows)
}

// VisibleRows are the rows any part of which shows, first to last (last
// excluded).
func (g *TimeGrid) VisibleRows() (first, last int) {
	if len(g.offsets) != len(g.Rows)+1 {
		g.measure()
	}
	top, bottom := g.ScrollY, g.ScrollY+g.Size().Height-g.HeaderHeight()
	first = sort.Search(len(g.Rows), func(i int) bool { return g.offsets[i+1] > top })
	last = sort.Search(len(g.Rows), func(i int) bool { return g.offsets[i] >= bottom })
	return first, last
}

// ScrollTo moves the rows so y (from the first row's top) is at the top.
func (g *TimeGrid) ScrollTo(y float32) {
	g.ScrollY = y
	g.clampScroll()
	g.Refresh()
}

func (g *TimeGrid) clampScroll() {
	most := max(0, g.ContentHeight()-(g.Size().Height-g.HeaderHeight()))
	g.ScrollY = min(max(g.ScrollY, 0), most)
}

// Scrolled moves the rows with the wheel.
func (g *TimeGrid) Scrolled(e *fyne.ScrollEvent) {
	before := g.ScrollY
	g.ScrollY -= e.Scrolled.DY
	g.clampScroll()
	if g.ScrollY == before {
		return
	}
	g.Refresh()
	if g.OnScrolled != nil {
		g.OnScrolled()
	}
}

func (g *TimeGrid) MinSize() fyne.Size {
	return fyne.NewSize(g.LabelWidth+float32(g.Days)*60, g.HeaderHeight()+60)
}

func (g *TimeGrid) CreateRenderer() fyne.WidgetRenderer {
	g.measure()
	r := &gridRenderer{g: g}
	r.bg = canvas.NewRectangle(color.Transparent)
	r.header = canvas.NewRectangle(color.Transparent)
	r.labelsBg = canvas.NewRectangle(color.Transparent)
	r.today = canvas.NewRectangle(color.Transparent)
	r.Refresh()
	return r
}

type gridRenderer struct {
	g        *TimeGrid
	bg       *canvas.Rectangle
	header   *canvas.Rectangle
	labelsBg *canvas.Rectangle
	today    *canvas.Rectangle

	dayLines  []*canvas.Line
	hourLines []*canvas.Line
	dayTexts  []*canvas.Text // per day: its name; per hour (one day shown): the hour
	dateTexts []*canvas.Text
	hourTexts []*canvas.Text
	rowLines  []*canvas.Line
	rowLabels []*canvas.Text
	rowSubs   []*canvas.Text

	objects []fyne.CanvasObject
}

func (r *gridRenderer) Destroy()                     {}
func (r *gridRenderer) MinSize() fyne.Size           { return r.g.MinSize() }
func (r *gridRenderer) Objects() []fyne.CanvasObject { return r.objects }

// grow keeps n items in *list, making new ones with make.
func grow[T any](list *[]T, n int, make func() T) {
	for len(*list) < n {
		*list = append(*list, make())
	}
	*list = (*list)[:n]
}

func (r *gridRenderer) Refresh() {
	g := r.g
	if len(g.offsets) != len(g.Rows)+1 {
		g.measure()
	}
	fg, muted := theme.Color(theme.ColorNameForeground), theme.Color(theme.ColorNamePlaceHolder)
	sep := theme.Color(theme.ColorNameSeparator)
	line := func() *canvas.Line { return canvas.NewLine(sep) }
	text := func() *canvas.Text { return canvas.NewText("", fg) }
	grow(&r.dayLines, g.Days+1, line)
	hours := 0
	if g.Days == 1 {
		hours = g.To - g.From + 1
	}
	grow(&r.hourLines, hours, line)
	grow(&r.hourTexts, hours, text)
	grow(&r.dayTexts, g.Days, text)
	grow(&r.dateTexts, g.Days, text)
	grow(&r.rowLines, len(g.Rows), line)
	grow(&r.rowLabels, len(g.Rows), text)
	grow(&r.rowSubs, len(g.Rows), text)

	r.bg.FillColor = theme.Color(theme.ColorNameBackground)
	r.header.FillColor = theme.Color(theme.ColorNameHeaderBackground)
	r.labelsBg.FillColor = theme.Color(theme.ColorNameHeaderBackground)
	today := theme.Color(theme.ColorNamePrimary)
	tc := color.NRGBAModel.Convert(today).(color.NRGBA)
	tc.A = 0x1c
	r.today.FillColor = tc

	for i, t := range r.dayTexts {
		d := g.dayStart(i)
		isToday := sameDay(d, g.Today)
		t.Text = d.Format("Mon")
		if g.Days == 1 {
			t.Text = d.Format("Monday")
		}
		t.TextStyle.Bold = true
		t.Color = fg
		dt := r.dateTexts[i]
		dt.Text = d.Format("2 Jan")
		if g.Days == 1 {
			dt.Text = d.Format("2 January 2006")
		}
		dt.TextSize = theme.CaptionTextSize()
		dt.Color = muted
		if isToday {
			t.Color = today
			dt.Text += " · today"
			dt.Color = today
		}
	}
	for i, t := range r.hourTexts {
		t.Text = fmt.Sprintf("%d:00", g.From+i)
		t.TextSize = theme.CaptionTextSize()
		t.Color = muted
	}
	for i, row := range g.Rows {
		l := r.rowLabels[i]
		l.Text = fitText(row.Label, theme.TextSize(), fyne.TextStyle{Bold: true}, g.LabelWidth-12)
		l.TextStyle.Bold = true
		l.Color = fg
		s := r.rowSubs[i]
		s.Text = fitText(row.Sub, theme.CaptionTextSize(), fyne.TextStyle{}, g.LabelWidth-12)
		s.TextSize = theme.CaptionTextSize()
		s.Color = muted
	}
	for _, l := range append(append(append([]*canvas.Line{}, r.dayLines...), r.hourLines...), r.rowLines...) {
		l.StrokeColor = sep
		l.StrokeWidth = 1
	}
	for _, l := range r.hourLines {
		c := color.NRGBAModel.Convert(sep).(color.NRGBA)
		c.A /= 2
		l.StrokeColor = c
	}

	r.objects = r.objects[:0]
	r.objects = append(r.objects, r.bg, r.today)
	for _, l := range r.hourLines {
		r.objects = append(r.objects, l)
	}
	for _, l := range r.rowLines {
		r.objects = append(r.objects, l)
	}
	for _, l := range r.dayLines {
		r.objects = append(r.objects, l)
	}
	r.objects = append(r.objects, r.header, r.labelsBg)
	for i := range r.dayTexts {
		r.objects = append(r.objects, r.dayTexts[i], r.dateTexts[i])
	}
	for _, t := range r.hourTexts {
		r.objects = append(r.objects, t)
	}
	for i := range r.rowLabels {
		r.objects = append(r.objects, r.rowLabels[i], r.rowSubs[i])
	}
	r.Layout(g.Size())
	canvas.Refresh(g)
}

func (r *gridRenderer) Layout(size fyne.Size) {
	g := r.g
	head := g.HeaderHeight()
	dw := g.DayWidth()
	r.bg.Move(fyne.NewPos(0, 0))
	r.bg.Resize(size)
	r.header.Move(fyne.NewPos(0, 0))
	r.header.Resize(fyne.NewSize(size.Width, head))
	r.labelsBg.Move(fyne.NewPos(0, head))
	r.labelsBg.Resize(fyne.NewSize(g.LabelWidth, max(0, size.Height-head)))

	r.today.Hide()
	for i := range r.dayTexts {
		x := g.LabelWidth + float32(i)*dw
		if sameDay(g.dayStart(i), g.Today) {
			r.today.Move(fyne.NewPos(x, 0))
			r.today.Resize(fyne.NewSize(dw, size.Height))
			r.today.Show()
		}
		r.dayTexts[i].Move(fyne.NewPos(x+6, 4))
		r.dateTexts[i].Move(fyne.NewPos(x+6, 4+theme.TextSize()+4))
		if g.Days == 1 {
			r.dateTexts[i].Move(fyne.NewPos(x+6+fyne.MeasureText(r.dayTexts[i].Text, theme.TextSize(), r.dayTexts[i].TextStyle).Width+8, 6))
		}
	}
	for i, l := range r.dayLines {
		x := g.LabelWidth + float32(i)*dw
		l.Position1 = fyne.NewPos(x, 0)
		l.Position2 = fyne.NewPos(x, size.Height)
	}
	for i, l := range r.hourLines {
		x := g.LabelWidth + float32(i)/float32(max(1, g.To-g.From))*dw
		l.Position1 = fyne.NewPos(x, head-6)
		l.Position2 = fyne.NewPos(x, size.Height)
		t := r.hourTexts[i]
		w := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width
		t.Move(fyne.NewPos(min(max(x-w/2, g.LabelWidth+2), size.Width-w-2), head-t.TextSize-8))
	}
	first, last := g.VisibleRows()
	for i := range g.Rows {
		shown := i >= first && i < last
		for _, o := range []fyne.CanvasObject{r.rowLines[i], r.rowLabels[i], r.rowSubs[i]} {
			if shown {
				o.Show()
			} else {
				o.Hide()
			}
		}
		if !shown {
			continue
		}
		top := g.RowTop(i)
		bottom := top + g.Rows[i].Height
		r.rowLines[i].Position1 = fyne.NewPos(0, bottom)
		r.rowLines[i].Position2 = fyne.NewPos(size.Width, bottom)
		r.rowLabels[i].Move(fyne.NewPos(8, top+6))
		r.rowSubs[i].Move(fyne.NewPos(8, top+6+theme.TextSize()+4))
	}
	// The header and the labels' column cover rows scrolled under them.
	for _, t := range append(r.rowLabels, r.rowSubs...) {
		if t.Position().Y < head {
			t.Hide()
		}
	}
}

func sameDay(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return false
	}
	b = b.In(a.Location())
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}
