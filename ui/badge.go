package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// badge is a small coloured pill with white text (quote and work order status).
type badge struct {
	widget.BaseWidget
	bg   *canvas.Rectangle
	text *canvas.Text
}

func newBadge() *badge {
	b := &badge{
		bg:   canvas.NewRectangle(color.Transparent),
		text: canvas.NewText("", color.White),
	}
	b.bg.CornerRadius = 9
	b.text.TextStyle = fyne.TextStyle{Bold: true}
	b.text.TextSize = theme.CaptionTextSize() + 1
	b.text.Alignment = fyne.TextAlignCenter
	b.ExtendBaseWidget(b)
	return b
}

// Set shows text on fill; an empty text hides the pill.
func (b *badge) Set(text string, fill color.Color) {
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

func (b *badge) CreateRenderer() fyne.WidgetRenderer {
	return &badgeRenderer{b: b}
}

type badgeRenderer struct{ b *badge }

func (r *badgeRenderer) Layout(size fyne.Size) {
	ts := r.b.text.MinSize()
	w := ts.Width + 16
	h := ts.Height + 2
	pos := fyne.NewPos(0, (size.Height-h)/2)
	r.b.bg.Move(pos)
	r.b.bg.Resize(fyne.NewSize(w, h))
	r.b.text.Move(pos)
	r.b.text.Resize(fyne.NewSize(w, h))
}

func (r *badgeRenderer) MinSize() fyne.Size {
	ts := r.b.text.MinSize()
	return fyne.NewSize(ts.Width+16, ts.Height+2)
}

func (r *badgeRenderer) Refresh() {
	r.b.bg.Refresh()
	r.b.text.Refresh()
	r.Layout(r.b.Size())
}

func (r *badgeRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.b.bg, r.b.text} }
func (r *badgeRenderer) Destroy()                     {}
