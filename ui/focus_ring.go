package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/ui/list"
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
	colour := ringColor()
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

// ringColor reads at 3:1 or more against the window's and the header's
// backgrounds of the variant shown, and apart from the brand blue of a
// default button it surrounds.
func ringColor() color.Color {
	if dark(theme.Color(theme.ColorNameBackground)) {
		return color.NRGBA{R: 0xff, G: 0xd3, B: 0x3d, A: 0xff} // amber on dark grey
	}
	return color.NRGBA{R: 0x0b, G: 0x2e, B: 0x6f, A: 0xff} // navy on white
}

// dark reports whether c is a dark colour (relative luminance below 0.2).
func dark(c color.Color) bool { return luminance(c) < 0.2 }

// luminance is c's relative luminance (WCAG), 0 for black to 1 for white.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	ch := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
}
