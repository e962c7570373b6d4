package receivables

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The view is laid out for 1024x700 as for 1280x800 and wider: every
// column of the table in the window's width, more than five rows in view,
// the charts as many across as their titles and legends fit (A12).

// chartWidth is the narrowest a chart's title ("Outstanding in EUR by
// customer and age") and its legend are whole in.
const chartWidth = 400

// chartGrid lays the charts out as many across as chartWidth allows, each
// row as tall as its tallest chart.
type chartGrid struct {
	cols int // as last laid out; MinSize's height follows it
}

func (g *chartGrid) across(width float32) int {
	pad := theme.Padding()
	return max(1, int((width+pad)/(chartWidth+pad)))
}

func (g *chartGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	g.cols = g.across(size.Width)
	pad := theme.Padding()
	w := (size.Width - pad*float32(g.cols-1)) / float32(g.cols)
	y := float32(0)
	for i := 0; i < len(objs); i += g.cols {
		row := objs[i:min(i+g.cols, len(objs))]
		h := rowHeight(row)
		for k, o := range row {
			o.Move(fyne.NewPos(float32(k)*(w+pad), y))
			o.Resize(fyne.NewSize(w, h))
		}
		y += h + pad
	}
}

func (g *chartGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
	cols := max(g.cols, 1)
	h := float32(0)
	for i := 0; i < len(objs); i += cols {
		if i > 0 {
			h += theme.Padding()
		}
		h += rowHeight(objs[i:min(i+cols, len(objs))])
	}
	return fyne.NewSize(chartWidth, h)
}

func rowHeight(row []fyne.CanvasObject) float32 {
	h := float32(0)
	for _, o := range row {
		h = max(h, o.MinSize().Height)
	}
	return h
}

// fitColumns gives the table's columns the window's width: each its
// comfortable Width where there is room, shrunk towards its Min where
// there is not (the text columns first; a name then ends in "…"), and
// the room left over to the customer's name.
type fitColumns struct {
	set   func(col int, width float32)
	width float32
}

func (f *fitColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width != f.width {
		f.width = size.Width
		for i, w := range ColumnWidths(size.Width) {
			f.set(i, w)
		}
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (f *fitColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// ColumnWidths are the columns' widths in a table width wide: the sum of
// the widths and the separators between them fits when the Mins do.
func ColumnWidths(width float32) []float32 {
	// The table puts its padding between columns (a separator drawn in it).
	avail := width - float32(len(Columns)-1)*theme.Padding() - 2
	out := make([]float32, len(Columns))
	var sum, give float32
	for i, c := range Columns {
		out[i] = c.Width
		sum += c.Width
		give += c.Width - c.Min
	}
	switch {
	case sum <= avail:
		out[1] += avail - sum // the customer's name takes the room left
	case give > 0:
		// Shrink each column by its share of what it can give.
		cut := min(sum-avail, give) / give
		for i, c := range Columns {
			out[i] = c.Width - (c.Width-c.Min)*cut
		}
	}
	return out
}

// compactTheme is the theme the table is drawn in: the cells' inner padding
// halved, so that eleven columns fit 1024 px and more rows the height.
type compactTheme struct{}

func (c compactTheme) base() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil && a.Settings().Theme() != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

func (c compactTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return c.base().Color(n, v)
}
func (c compactTheme) Font(s fyne.TextStyle) fyne.Resource     { return c.base().Font(s) }
func (c compactTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return c.base().Icon(n) }
func (c compactTheme) Size(n fyne.ThemeSizeName) float32 {
	s := c.base().Size(n)
	if n == theme.SizeNameInnerPadding {
		return s / 2
	}
	return s
}

// cellLayout holds a table cell's label at the compact theme's height: the
// table measures its rows on a template made before the theme applies.
type cellLayout struct{ bold bool }

func (c cellLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (c cellLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	th := compactTheme{}
	h := fyne.MeasureText("Xg", th.Size(theme.SizeNameText), fyne.TextStyle{Bold: c.bold}).Height + 2*th.Size(theme.SizeNameInnerPadding)
	w := float32(0)
	for _, o := range objs {
		w = max(w, o.MinSize().Width)
	}
	return fyne.NewSize(w, h)
}
