package xwidget

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Badge is a small coloured pill with white text: a status. A queued
// badge has a clock before its text: the status is one that actions still
// waiting to be sent will give, not yet the truth.
type Badge struct {
	widget.BaseWidget
	bg     *canvas.Rectangle
	text   *canvas.Text
	clock  *canvas.Image
	queued bool
}

// NewBadge makes an empty (hidden) pill.
func NewBadge() *Badge {
	b := &Badge{
		bg:    canvas.NewRectangle(color.Transparent),
		text:  canvas.NewText("", color.White),
		clock: canvas.NewImageFromResource(queuedClock()),
	}
	b.bg.CornerRadius = 9
	b.text.TextStyle = fyne.TextStyle{Bold: true}
	b.text.TextSize = theme.CaptionTextSize() + 1
	b.text.Alignment = fyne.TextAlignCenter
	b.clock.FillMode = canvas.ImageFillContain
	b.clock.Hide()
	b.ExtendBaseWidget(b)
	return b
}

// queuedClock marks a status still waiting to be sent: a clock, white
// like the Badge's text.
func queuedClock() fyne.Resource {
	return theme.NewColoredResource(theme.HistoryIcon(), theme.ColorNameForegroundOnPrimary)
}

// Text is the text shown ("" while hidden).
func (b *Badge) Text() string { return b.text.Text }

// Queued reports whether the clock is shown (SetQueued).
func (b *Badge) Queued() bool { return b.queued }

// Set shows text on fill; an empty text hides the pill.
func (b *Badge) Set(text string, fill color.Color) {
	if b.text.Text == text && b.bg.FillColor == fill {
		return
	}
	b.text.Text = text
	if text == "" {
		fill = color.Transparent
	}
	b.bg.FillColor = fill
	b.Refresh()
}

// SetQueued marks the status as one that waiting actions will give.
func (b *Badge) SetQueued(on bool) {
	if b.queued == on {
		return
	}
	b.queued = on
	if on {
		b.clock.Show()
	} else {
		b.clock.Hide()
	}
	b.Refresh()
}

func (b *Badge) CreateRenderer() fyne.WidgetRenderer {
	return &badgeRenderer{b: b}
}

type badgeRenderer struct{ b *Badge }

// clockWidth is the room the queued clock takes before the text, 0 without.
func (r *badgeRenderer) clockWidth(ts fyne.Size) float32 {
	if !r.b.queued {
		return 0
	}
	return ts.Height - 2
}

func (r *badgeRenderer) Layout(size fyne.Size) {
	ts := r.b.text.MinSize()
	cw := r.clockWidth(ts)
	w := ts.Width + 16 + cw
	h := ts.Height + 2
	pos := fyne.NewPos(0, (size.Height-h)/2)
	r.b.bg.Move(pos)
	r.b.bg.Resize(fyne.NewSize(w, h))
	r.b.clock.Move(pos.AddXY(6, 2))
	r.b.clock.Resize(fyne.NewSize(cw, h-4))
	r.b.text.Move(pos.AddXY(cw, 0))
	r.b.text.Resize(fyne.NewSize(w-cw, h))
}

func (r *badgeRenderer) MinSize() fyne.Size {
	ts := r.b.text.MinSize()
	return fyne.NewSize(ts.Width+16+r.clockWidth(ts), ts.Height+2)
}

func (r *badgeRenderer) Refresh() {
	r.b.bg.Refresh()
	r.b.text.Refresh()
	r.b.clock.Refresh()
	r.Layout(r.b.Size())
}

func (r *badgeRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.b.bg, r.b.clock, r.b.text}
}
func (r *badgeRenderer) Destroy() {}
