package list

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// Cell is one table cell: a row background (selection, attention), and one
// of a text, a badge or a check box; a text may have a colleague's mark at
// its trailing edge. One template serves every column so the table
// recycles cells freely while scrolling.
type Cell struct {
	widget.BaseWidget
	bg *canvas.Rectangle
	// ring draws a line above and below the cell: across the row, the
	// mark of the row the keyboard is on.
	ring  *fyne.Container
	text  *widget.Label
	mark  *personMark
	box   *fyne.Container // everything above, laid out by cellLayout
	badge *xwidget.Badge
	check *xwidget.TickBox // not focusable: Tab does not walk the rows
	// onCheck is rebound on every update; the check box calls it only for
	// changes made by the person, not for SetChecked from an update.
	onCheck  func(bool)
	updating bool
}

func newCell() *Cell {
	c := &Cell{bg: canvas.NewRectangle(color.Transparent), text: widget.NewLabel(""), badge: xwidget.NewBadge(), mark: newPersonMark()}
	c.ring = container.New(rowRingLayout{}, canvas.NewRectangle(palette.Brand), canvas.NewRectangle(palette.Brand))
	c.ring.Hide()
	c.text.Truncation = fyne.TextTruncateEllipsis
	c.mark.Hide()
	c.check = xwidget.NewTickBox(func(on bool) {
		if !c.updating && c.onCheck != nil {
			c.onCheck(on)
		}
	})
	c.ExtendBaseWidget(c)
	return c
}

// setText shows s, with an ellipsis if it does not fit. Only text that
// does not fit is set to truncate: Fyne 2.8 lays out a truncating label
// with a text shaper made afresh each time (about 10 KB of garbage per
// cell), which was two thirds of the work of showing a search's first page
// and, through the collector, most of the slow keystrokes. The room is
// checked on every update and when a mark comes or goes, so a narrowed
// column truncates what no longer fits (the table updates every cell after
// a resize).
func (c *Cell) setText(s string, align fyne.TextAlign, bold bool) {
	c.setStyledText(s, align, bold, widget.MediumImportance)
}

// setStyledText is setText in the colour of importance: a deadline passed
// in the theme's error colour, a reason to act in its warning colour.
func (c *Cell) setStyledText(s string, align fyne.TextAlign, bold bool, importance widget.Importance) {
	c.text.Show()
	c.badge.Hide()
	c.check.Hide()
	trunc := c.truncation(s, bold)
	if c.text.Text != s || c.text.Alignment != align || c.text.TextStyle.Bold != bold || c.text.Truncation != trunc || c.text.Importance != importance {
		c.text.Alignment = align
		c.text.TextStyle.Bold = bold
		c.text.Truncation = trunc
		c.text.Importance = importance
		c.text.SetText(s)
	}
}

// truncation is how the text s must be cut in the room the label has.
func (c *Cell) truncation(s string, bold bool) fyne.TextTruncation {
	room := c.Size().Width - 2*theme.InnerPadding() - 1 // 1: rounding
	if c.mark.Visible() {
		room -= c.mark.MinSize().Width // see cellLayout
	}
	if fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{Bold: bold}).Width <= room {
		return fyne.TextTruncateOff
	}
	return fyne.TextTruncateEllipsis
}

// setMark shows s (a colleague's initials) at the trailing edge of the
// cell's text; "" shows none. The other kinds of cell have no mark.
func (c *Cell) setMark(s string) {
	if s == "" {
		if c.mark.Visible() {
			c.mark.Hide()
			c.relayout()
		}
		return
	}
	c.mark.set(s)
	if !c.mark.Visible() {
		c.mark.Show()
		c.relayout()
	}
}

func (c *Cell) setBadge(s string, fill color.Color) {
	c.text.Hide()
	c.check.Hide()
	c.badge.Show()
	c.badge.Set(s, fill)
	c.badge.SetQueued(false) // cells are recycled: a queued one says so after this
}

func (c *Cell) setCheck(on bool, changed func(bool)) {
	c.text.Hide()
	c.badge.Hide()
	c.check.Show()
	c.onCheck = changed
	c.updating = true
	c.check.SetChecked(on)
	c.updating = false
}

func (c *Cell) setBackground(fill color.Color) {
	if c.bg.FillColor != fill {
		c.bg.FillColor = fill
		c.bg.Refresh()
	}
}

// setFocused shows or hides the keyboard's row mark.
func (c *Cell) setFocused(on bool) { c.setRing(on, false) }

// heldRing marks a row the list holds where it was when the person acted
// on it (View.keep): lines along it like the keyboard's, in grey.
var heldRing = color.NRGBA{R: 0x9a, G: 0xa4, B: 0xb1, A: 0xff}

// setRing draws lines along the row: the keyboard's (blue) when focused,
// else grey when held, else none.
func (c *Cell) setRing(focused, held bool) {
	fill := color.Color(palette.Brand)
	if !focused {
		fill = heldRing
	}
	for _, o := range c.ring.Objects {
		if r := o.(*canvas.Rectangle); r.FillColor != fill {
			r.FillColor = fill
			r.Refresh()
		}
	}
	if on := focused || held; on != c.ring.Visible() {
		arrange.ShowIf(on, c.ring)
	}
}

// relayout lays the cell out again after its mark came or went, which
// changes the text's room.
func (c *Cell) relayout() {
	if c.text.Visible() {
		if trunc := c.truncation(c.text.Text, c.text.TextStyle.Bold); trunc != c.text.Truncation {
			c.text.Truncation = trunc
			c.text.Refresh()
		}
	}
	if c.box != nil {
		c.box.Refresh()
	}
}

func (c *Cell) CreateRenderer() fyne.WidgetRenderer {
	pad := container.New(&insetLayout{left: theme.Padding() * 2}, c.badge)
	c.box = container.New(&cellLayout{text: c.text, mark: c.mark}, c.bg, c.text, pad, c.check, c.mark, c.ring)
	return widget.NewSimpleRenderer(c.box)
}

// rowRingLayout puts a 2 px line along the top and the bottom of a cell,
// reaching over the gap to the next cell so the lines run along the row.
type rowRingLayout struct{}

func (rowRingLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	gap := theme.Padding()
	const thick = 2
	objs[0].Move(fyne.NewPos(-gap/2, 0))
	objs[1].Move(fyne.NewPos(-gap/2, size.Height-thick))
	for _, o := range objs {
		o.Resize(fyne.NewSize(size.Width+gap, thick))
	}
}

func (rowRingLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.Size{} }

// cellLayout stacks a cell's parts over its whole size, except that a
// visible mark sits at the trailing edge and the text gets the width it
// leaves: a long text is cut short, never the mark.
type cellLayout struct {
	text *widget.Label
	mark *personMark
}

func (l *cellLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if !l.mark.Visible() {
		return
	}
	mw := l.mark.MinSize().Width
	l.mark.Move(fyne.NewPos(size.Width-mw-theme.Padding(), 0))
	l.mark.Resize(fyne.NewSize(mw, size.Height))
	// The label's own trailing padding is the gap before the mark.
	l.text.Resize(fyne.NewSize(max(0, size.Width-mw), size.Height))
}

func (l *cellLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		if o.Visible() && o != fyne.CanvasObject(l.mark) {
			m = m.Max(o.MinSize())
		}
	}
	if l.mark.Visible() {
		m.Width += l.mark.MinSize().Width
	}
	return m
}

// insetLayout places its objects with a left inset (badges line up with text).
type insetLayout struct{ left float32 }

func (l *insetLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(l.left, 0))
		o.Resize(fyne.NewSize(size.Width-l.left, size.Height))
	}
}

func (l *insetLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m.AddWidthHeight(l.left, 0)
}
