package xwidget

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// BarSeries is one kind of segment of a stacked bar: its name in the
// legend and its colour, a mid tone that reads on light and dark alike.
type BarSeries struct {
	Name  string
	Color color.Color
}

// BarRow is one bar: a label, one value per series (stacked left to
// right), and a note written after the bar (a total, "9 of 12 kept").
type BarRow struct {
	Label  string
	Values []float64
	Note   string
}

// StackedBars is a horizontal stacked bar chart: a title, a legend, one
// bar per row on a common scale with its grid, and a footnote. Text, grid
// and background follow the theme; the bars stretch with the widget. The
// values are lengths only: the caller writes the exact figures (money in
// its currency) in the notes and the scale's labels.
type StackedBars struct {
	widget.BaseWidget
	Title    string
	Series   []BarSeries
	Rows     []BarRow
	Footnote string
	// Tick writes a value of the scale ("$1.5k"); nil: no scale labels.
	Tick func(float64) string
	// Empty is said where the bars would be when there are no rows.
	Empty string
}

// NewStackedBars returns an empty chart with a title and its series.
func NewStackedBars(title string, series ...BarSeries) *StackedBars {
	b := &StackedBars{Title: title, Series: series}
	b.ExtendBaseWidget(b)
	return b
}

// SetRows replaces the bars and the footnote, and redraws.
func (b *StackedBars) SetRows(rows []BarRow, footnote string) {
	b.Rows, b.Footnote = rows, footnote
	b.Refresh()
}

func (b *StackedBars) CreateRenderer() fyne.WidgetRenderer {
	r := &barsRenderer{b: b}
	r.build()
	return r
}

type barsRenderer struct {
	b    *StackedBars
	objs []fyne.CanvasObject
	size fyne.Size
}

// Sizes of the chart's parts, in the theme's text size units.
func (r *barsRenderer) metrics() (text, rowH, pad float32) {
	text = theme.TextSize()
	return text, text*1.6 + 6, theme.Padding() * 2
}

func (r *barsRenderer) MinSize() fyne.Size {
	text, rowH, pad := r.metrics()
	rows := max(len(r.b.Rows), 1)
	h := pad + text*1.4 + pad/2 + text + pad + float32(rows)*rowH + pad/2
	if r.b.Tick != nil {
		h += text + pad/2
	}
	if r.b.Footnote != "" {
		h += text + pad/2
	}
	return fyne.NewSize(320, h+pad)
}

func (r *barsRenderer) Layout(s fyne.Size) {
	r.size = s
	r.build()
}

func (r *barsRenderer) Refresh() {
	r.build()
	canvas.Refresh(r.b)
}

func (r *barsRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *barsRenderer) Destroy()                     {}

func barText(s string, size float32, c color.Color, bold bool) *canvas.Text {
	t := canvas.NewText(s, c)
	t.TextSize = size
	t.TextStyle.Bold = bold
	return t
}

// build lays the whole chart out again for r.size: it is a handful of
// objects per row, and a chart has tens of rows at most.
func (r *barsRenderer) build() {
	b := r.b
	s := r.size
	if s.IsZero() {
		s = r.MinSize()
	}
	text, rowH, pad := r.metrics()
	fg := theme.Color(theme.ColorNameForeground)
	muted := theme.Color(theme.ColorNamePlaceHolder)
	grid := theme.Color(theme.ColorNameSeparator)
	var objs []fyne.CanvasObject

	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	// The card is as tall as its content: a grid cell taller than the
	// chart leaves the rest empty rather than a card with a blank bottom.
	bg.Resize(fyne.NewSize(s.Width, min(s.Height, r.MinSize().Height)))
	objs = append(objs, bg)

	y := pad
	title := barText(b.Title, text*1.15, fg, true)
	title.Move(fyne.NewPos(pad, y))
	objs = append(objs, title)
	y += text*1.4 + pad/2

	// The legend: a swatch and a name per series.
	x := pad
	for _, se := range b.Series {
		sw := canvas.NewRectangle(se.Color)
		sw.CornerRadius = 2
		sw.Resize(fyne.NewSize(text*0.9, text*0.9))
		sw.Move(fyne.NewPos(x, y+text*0.15))
		name := barText(se.Name, text*0.9, fg, false)
		name.Move(fyne.NewPos(x+text*1.2, y))
		objs = append(objs, sw, name)
		x += text*1.2 + name.MinSize().Width + pad*1.5
	}
	y += text + pad

	// Label and note columns take what their longest text needs, within
	// limits, and the bars the rest.
	var labelW, noteW float32
	for _, row := range b.Rows {
		labelW = max(labelW, fyne.MeasureText(row.Label, text, fyne.TextStyle{}).Width)
		noteW = max(noteW, fyne.MeasureText(row.Note, text*0.9, fyne.TextStyle{}).Width)
	}
	labelW = min(labelW, s.Width*0.3)
	barX := pad + labelW + pad
	barW := s.Width - barX - pad - noteW - pad
	if barW < 40 {
		barW = 40
	}

	if len(b.Rows) == 0 {
		msg := barText(b.Empty, text, muted, false)
		msg.Move(fyne.NewPos(pad, y+(rowH-text)/2))
		objs = append(objs, msg)
		y += rowH
	} else {
		top := y
		scale := 0.0
		for _, row := range b.Rows {
			sum := 0.0
			for _, v := range row.Values {
				sum += math.Max(v, 0)
			}
			scale = math.Max(scale, sum)
		}
		step := niceStep(scale / 4)
		if scale > 0 {
			scale = math.Ceil(scale/step) * step
		}
		bottom := top + float32(len(b.Rows))*rowH
		// The grid: a line per step of the scale, labelled below.
		if scale > 0 {
			for v := 0.0; v <= scale+step/2; v += step {
				gx := barX + float32(v/scale)*barW
				line := canvas.NewLine(grid)
				line.StrokeWidth = 1
				line.Position1, line.Position2 = fyne.NewPos(gx, top), fyne.NewPos(gx, bottom)
				objs = append(objs, line)
				if b.Tick != nil {
					lbl := barText(b.Tick(v), text*0.8, muted, false)
					w := lbl.MinSize().Width
					lbl.Move(fyne.NewPos(min(max(gx-w/2, barX-w/2), s.Width-pad-w), bottom+pad/4))
					objs = append(objs, lbl)
				}
			}
		}
		for i, row := range b.Rows {
			ry := top + float32(i)*rowH
			lbl := barText(fitBarText(row.Label, labelW, text), text, fg, false)
			lbl.Move(fyne.NewPos(pad, ry+(rowH-text*1.3)/2))
			objs = append(objs, lbl)
			bx := barX
			barH := rowH - 8
			for k, v := range row.Values {
				if v <= 0 || scale == 0 || k >= len(b.Series) {
					continue
				}
				w := float32(v/scale) * barW
				seg := canvas.NewRectangle(b.Series[k].Color)
				seg.Resize(fyne.NewSize(w, barH))
				seg.Move(fyne.NewPos(bx, ry+4))
				objs = append(objs, seg)
				bx += w
			}
			note := barText(row.Note, text*0.9, fg, false)
			note.Move(fyne.NewPos(bx+pad, ry+(rowH-text*1.2)/2))
			objs = append(objs, note)
		}
		y = bottom
		if b.Tick != nil {
			y += text + pad/2
		}
	}
	if b.Footnote != "" {
		foot := barText(b.Footnote, text*0.9, muted, false)
		foot.Move(fyne.NewPos(pad, y+pad/2))
		objs = append(objs, foot)
	}
	r.objs = objs
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten, so the
// scale reads in round figures.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// fitBarText cuts s with an ellipsis to fit w at size.
func fitBarText(s string, w, size float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= w {
		return s
	}
	rs := []rune(s)
	for n := len(rs) - 1; n > 0; n-- {
		c := string(rs[:n]) + "…"
		if fyne.MeasureText(c, size, fyne.TextStyle{}).Width <= w {
			return c
		}
	}
	return "…"
}
