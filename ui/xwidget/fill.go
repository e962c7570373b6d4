package xwidget

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ThemedFill is a background that takes its colour from the current theme
// each time it is refreshed (a plain rectangle keeps the colour it was made
// with, which left a light band behind light text in dark mode).
type ThemedFill struct {
	widget.BaseWidget
	name  fyne.ThemeColorName
	alpha uint8 // a tint of the colour when not 0
	rect  *canvas.Rectangle
}

// NewThemedTint is a ThemedFill of the colour name at alpha: a tint.
func NewThemedTint(name fyne.ThemeColorName, alpha uint8) *ThemedFill {
	f := NewThemedFill(name)
	f.alpha = alpha
	f.Refresh()
	return f
}

// NewThemedFill is a ThemedFill of the theme's colour name.
func NewThemedFill(name fyne.ThemeColorName) *ThemedFill {
	f := &ThemedFill{name: name, rect: canvas.NewRectangle(theme.Color(name))}
	f.ExtendBaseWidget(f)
	return f
}

// Color is the colour drawn now.
func (f *ThemedFill) Color() color.Color { return f.rect.FillColor }

func (f *ThemedFill) CreateRenderer() fyne.WidgetRenderer { return &themedFillRenderer{f} }

type themedFillRenderer struct{ f *ThemedFill }

func (r *themedFillRenderer) Layout(s fyne.Size)           { r.f.rect.Resize(s) }
func (r *themedFillRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *themedFillRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.f.rect} }
func (r *themedFillRenderer) Destroy()                     {}
func (r *themedFillRenderer) Refresh() {
	c := theme.ColorForWidget(r.f.name, r.f)
	if r.f.alpha != 0 {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		n.A = r.f.alpha
		c = n
	}
	r.f.rect.FillColor = c
	r.f.rect.Refresh()
}
