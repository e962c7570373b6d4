package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/ui/list"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// focusRing draws a ring around the button, select, check box or tab that
// has the keyboard, above the window's content: where Tab went is seen at
// a glance in light and dark. Fyne only tints a focused button with the
// theme's focus colour, which on the blue Accept is blue on blue. Entries
// show their own focus (their border), and the list its own (a row mark);
// dialogs, drawn above the ring, tint their buttons (the theme's focus
// colour, strong enough there: focusColor).
type focusRing struct {
	rect  *canvas.Rectangle
	layer *fyne.Container
	// shown is what the ring is around, and where it was drawn.
	shown fyne.CanvasObject
	at    fyne.Position
	size  fyne.Size
}

// ringGap is how far outside the focused widget the ring runs; ringWidth
// is its line.
const (
	ringGap   = 4
	ringWidth = 3
)

func newFocusRing() *focusRing {
	r := &focusRing{rect: canvas.NewRectangle(color.Transparent)}
	r.rect.StrokeWidth = ringWidth
	r.rect.CornerRadius = theme.InputRadiusSize() + ringGap
	r.rect.Hide()
	// Without a layout: the ring keeps the place update gives it. Being
	// no widget, it takes no taps: they reach what is under it.
	r.layer = container.NewWithoutLayout(r.rect)
	return r
}

// over lays the ring's layer over content.
func (r *focusRing) over(content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewStack(content, r.layer)
}

// update moves the ring to what has the keyboard in c now, or hides it.
// The window calls it a few times a second (Fyne tells nobody when the
// focus moves); it does nothing while nothing changed.
func (r *focusRing) update(c fyne.Canvas) {
	var target fyne.CanvasObject
	if c.Overlays().Top() == nil {
		if f := c.Focused(); f != nil && ringed(f) {
			if o, ok := f.(fyne.CanvasObject); ok && o.Visible() {
				target = o
			}
		}
	}
	if target == nil {
		if r.rect.Visible() {
			r.rect.Hide()
			r.shown = nil
		}
		return
	}
	drv := fyne.CurrentApp().Driver()
	at := drv.AbsolutePositionForObject(target).Subtract(drv.AbsolutePositionForObject(r.layer))
	size := target.Size()
	colour := palette.FocusRing()
	if target == r.shown && at == r.at && size == r.size && r.rect.StrokeColor == colour && r.rect.Visible() {
		return
	}
	r.shown, r.at, r.size = target, at, size
	r.rect.StrokeColor = colour
	r.rect.Move(at.SubtractXY(ringGap, ringGap))
	r.rect.Resize(size.AddWidthHeight(2*ringGap, 2*ringGap))
	r.rect.Show()
	r.rect.Refresh()
}

// ringed tells whether f gets the ring: not an entry (its border shows
// the focus) nor the list (its row mark does).
func ringed(f fyne.Focusable) bool {
	if _, entry := f.(interface{ SelectedText() string }); entry {
		return false
	}
	_, isList := f.(*list.Table)
	return !isList
}
