// Package xwidget holds reusable widgets of Work Order Desk's views that
// know nothing of work orders: a time grid and the draggable block placed
// on it. Each has golden images of its states (testdata/).
package xwidget

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// BlockState is how a block looks besides its colour.
type BlockState uint8

const (
	// BlockSelected: the person picked it (keyboard or tap).
	BlockSelected BlockState = 1 << iota
	// BlockQueued: what it shows waits to be sent; drawn paler, in italics.
	BlockQueued
	// BlockHeld: something it depends on was refused; a red frame and a
	// leading "!" ask the person to look.
	BlockHeld
	// BlockGhost: the block being dragged, following the pointer.
	BlockGhost
	// BlockWarning: where it would be dropped has a problem (late, busy).
	BlockWarning
	// BlockFocused: the keyboard is on it (a list's current item): the
	// selected block's dark frame with a white line inside it, which shows
	// on every fill and is not clipped by a list.
	BlockFocused
)

// Block is a card with a title and two lines, filled with a colour, that
// the person taps and drags. It reports where the pointer is on the canvas
// while dragged; whoever placed it decides what that means.
type Block struct {
	widget.BaseWidget

	Title, Line1, Line2 string
	Fill                color.Color
	State               BlockState

	OnTapped func()
	// OnDragged gets the pointer's position on the canvas at each step.
	OnDragged func(abs fyne.Position)
	OnDragEnd func()
}

// NewBlock makes a block.
func NewBlock(title, line1, line2 string, fill color.Color) *Block {
	b := &Block{Title: title, Line1: line1, Line2: line2, Fill: fill}
	b.ExtendBaseWidget(b)
	return b
}

// Set changes what the block shows and refreshes it, only when something changed.
func (b *Block) Set(title, line1, line2 string, fill color.Color, state BlockState) {
	if b.Title == title && b.Line1 == line1 && b.Line2 == line2 && b.Fill == fill && b.State == state {
		return
	}
	b.Title, b.Line1, b.Line2, b.Fill, b.State = title, line1, line2, fill, state
	b.Refresh()
}

func (b *Block) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

func (b *Block) Dragged(e *fyne.DragEvent) {
	if b.OnDragged == nil {
		return
	}
	abs := e.AbsolutePosition
	if abs.IsZero() {
		// Fyne's test driver drags in one step without it: where the
		// block is, where on it the drag began, and how far it went.
		abs = fyne.CurrentApp().Driver().AbsolutePositionForObject(b).Add(e.Position).Add(e.Dragged)
	}
	b.OnDragged(abs)
}

func (b *Block) DragEnd() {
	if b.OnDragEnd != nil {
		b.OnDragEnd()
	}
}

// BlockHeight is a block's height for the lines it shows (title, or title
// and one or two lines).
func BlockHeight(lines int) float32 {
	return 2*blockPad + float32(lines)*lineHeight()
}

const blockPad = 3

// ringInset is where the keyboard's white line lies inside the frame.
const ringInset = 2.5

func lineHeight() float32 { return theme.CaptionTextSize() + 3 }

func (b *Block) MinSize() fyne.Size {
	lines := 1
	if b.Line1 != "" {
		lines++
	}
	if b.Line2 != "" {
		lines++
	}
	return fyne.NewSize(24, BlockHeight(lines))
}

func (b *Block) CreateRenderer() fyne.WidgetRenderer {
	r := &blockRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), ring: canvas.NewRectangle(color.Transparent)}
	r.bg.CornerRadius = 4
	r.ring.CornerRadius = 3
	r.ring.StrokeWidth = 2
	for i := range r.texts {
		r.texts[i] = canvas.NewText("", color.White)
		r.texts[i].TextSize = theme.CaptionTextSize()
	}
	r.texts[0].TextStyle.Bold = true
	r.Refresh()
	return r
}

type blockRenderer struct {
	b     *Block
	bg    *canvas.Rectangle
	ring  *canvas.Rectangle // the keyboard's, inside the frame
	texts [3]*canvas.Text
	width float32 // the width the texts were cut for
	full  [3]string
}

func (r *blockRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.ring, r.texts[0], r.texts[1], r.texts[2]}
}

func (r *blockRenderer) Destroy() {}

func (r *blockRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *blockRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.bg.Move(fyne.NewPos(0, 0))
	r.ring.Resize(size.SubtractWidthHeight(2*ringInset, 2*ringInset))
	r.ring.Move(fyne.NewPos(ringInset, ringInset))
	y := float32(blockPad)
	for _, t := range r.texts {
		t.Move(fyne.NewPos(blockPad+2, y))
		y += lineHeight()
		// A line with no room left in the block is not drawn: spilling
		// below it, it printed over the next block.
		t.Hidden = y > size.Height-blockPad+0.5
	}
	if size.Width != r.width {
		r.width = size.Width
		r.cut()
	}
}

// cut fits each line into the block's width, ending it with "…".
func (r *blockRenderer) cut() {
	room := r.width - 2*blockPad - 4
	for i, t := range r.texts {
		t.Text = fitText(r.full[i], t.TextSize, t.TextStyle, room)
	}
}

func (r *blockRenderer) Refresh() {
	b := r.b
	fill := b.Fill
	if fill == nil {
		fill = theme.Color(theme.ColorNameDisabled)
	}
	c := color.NRGBAModel.Convert(fill).(color.NRGBA)
	if b.State&(BlockQueued|BlockGhost) != 0 {
		c.A = uint8(float32(c.A) * 0.62)
	}
	r.bg.FillColor = c
	r.bg.StrokeWidth, r.bg.StrokeColor = 0, color.Transparent
	switch {
	case b.State&BlockHeld != 0:
		r.bg.StrokeWidth, r.bg.StrokeColor = 2.5, theme.Color(theme.ColorNameError)
	case b.State&BlockWarning != 0:
		r.bg.StrokeWidth, r.bg.StrokeColor = 2.5, theme.Color(theme.ColorNameWarning)
	case b.State&(BlockSelected|BlockFocused) != 0:
		r.bg.StrokeWidth, r.bg.StrokeColor = 2.5, theme.Color(theme.ColorNameForeground)
	}
	r.ring.Hidden = b.State&BlockFocused == 0
	r.ring.StrokeColor = color.White
	r.ring.Refresh()
	title := b.Title
	if b.State&BlockHeld != 0 {
		title = "! " + title
	}
	r.full = [3]string{title, b.Line1, b.Line2}
	italic := b.State&BlockQueued != 0
	for _, t := range r.texts {
		t.TextStyle.Italic = italic
		t.Color = color.White
	}
	r.cut()
	r.bg.Refresh()
	for _, t := range r.texts {
		t.Refresh()
	}
}

// fitText is s cut to fit width, ending in "…" when cut.
func fitText(s string, size float32, style fyne.TextStyle, width float32) string {
	if s == "" || fyne.MeasureText(s, size, style).Width <= width {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(string(runes[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return ""
	}
	return string(runes[:lo]) + "…"
}
