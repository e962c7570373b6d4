package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// cell is one table cell: a row background (selection, attention), and one
// of a text, a badge or a check box. One template serves every column so the
// table recycles cells freely while scrolling.
type cell struct {
	widget.BaseWidget
	bg    *canvas.Rectangle
	text  *widget.Label
	badge *badge
	check *widget.Check
	// onCheck is rebound on every update; the check box calls it only for
	// changes made by the person, not for SetChecked from an update.
	onCheck  func(bool)
	updating bool
}

func newCell() *cell {
	c := &cell{bg: canvas.NewRectangle(color.Transparent), text: widget.NewLabel(""), badge: newBadge()}
	c.text.Truncation = fyne.TextTruncateEllipsis
	c.check = widget.NewCheck("", func(on bool) {
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
// and, through the collector, most of the slow keystrokes. The width is
// checked on every update, so a narrowed column truncates what no longer
// fits (the table updates every cell after a resize).
func (c *cell) setText(s string, align fyne.TextAlign, bold bool) {
	c.text.Show()
	c.badge.Hide()
	c.check.Hide()
	trunc := fyne.TextTruncateEllipsis
	room := c.Size().Width - 2*theme.InnerPadding() - 1 // 1: rounding
	if fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{Bold: bold}).Width <= room {
		trunc = fyne.TextTruncateOff
	}
	if c.text.Text != s || c.text.Alignment != align || c.text.TextStyle.Bold != bold || c.text.Truncation != trunc {
		c.text.Alignment = align
		c.text.TextStyle.Bold = bold
		c.text.Truncation = trunc
		c.text.SetText(s)
	}
}

func (c *cell) setBadge(s string, fill color.Color) {
	c.text.Hide()
	c.check.Hide()
	c.badge.Show()
	c.badge.Set(s, fill)
}

func (c *cell) setCheck(on bool, changed func(bool)) {
	c.text.Hide()
	c.badge.Hide()
	c.check.Show()
	c.onCheck = changed
	c.updating = true
	c.check.SetChecked(on)
	c.updating = false
}

func (c *cell) setBackground(fill color.Color) {
	if c.bg.FillColor != fill {
		c.bg.FillColor = fill
		c.bg.Refresh()
	}
}

func (c *cell) CreateRenderer() fyne.WidgetRenderer {
	pad := container.New(&insetLayout{left: theme.Padding() * 2}, c.badge)
	return widget.NewSimpleRenderer(container.NewStack(c.bg, c.text, pad, c.check))
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
