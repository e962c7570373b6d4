package xwidget

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// WheelEntry is a one-line Entry over which the mouse wheel scrolls the
// form around it. Fyne 2.8 gives every entry a scroll of its own that takes
// the wheel even when it has nothing to scroll, so over a long invoice the
// form stood still wherever the pointer met a field.
type WheelEntry struct {
	widget.Entry
	form func() *container.Scroll // the scroll the wheel moves; nil: none
}

// NewWheelEntry makes an entry whose wheel scrolls form() (nil: none).
func NewWheelEntry(form func() *container.Scroll) *WheelEntry {
	e := &WheelEntry{form: form}
	e.ExtendBaseWidget(e)
	return e
}

func (e *WheelEntry) CreateRenderer() fyne.WidgetRenderer {
	return PassWheel(e.Entry.CreateRenderer(), e.form)
}

// PassWheel lays a transparent layer over what r draws that hands the
// wheel to form. The desktop driver gives the wheel to the topmost
// scrollable under the pointer, which is this layer, while taps, drags and
// the text cursor still reach the entry: the layer takes nothing else.
func PassWheel(r fyne.WidgetRenderer, form func() *container.Scroll) fyne.WidgetRenderer {
	if form == nil {
		return r
	}
	l := &wheelLayer{form: form}
	l.ExtendBaseWidget(l)
	return &wheelRenderer{WidgetRenderer: r, layer: l}
}

type wheelRenderer struct {
	fyne.WidgetRenderer
	layer *wheelLayer
}

func (r *wheelRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	r.layer.Move(fyne.NewPos(0, 0))
	r.layer.Resize(s)
}

func (r *wheelRenderer) Objects() []fyne.CanvasObject {
	inner := r.WidgetRenderer.Objects()
	out := make([]fyne.CanvasObject, 0, len(inner)+1)
	return append(append(out, inner...), r.layer)
}

// wheelLayer is the layer PassWheel lays over an entry.
type wheelLayer struct {
	widget.BaseWidget
	form func() *container.Scroll
}

func (l *wheelLayer) Scrolled(ev *fyne.ScrollEvent) {
	if s := l.form(); s != nil {
		s.Scrolled(ev)
	}
}

func (l *wheelLayer) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}
