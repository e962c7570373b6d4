package xwidget

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Gauge weighs an amount against a limit: a line in words over a bar in
// the theme's primary colour or one given (amber near the limit, red
// above it), whose own words do not stop at 100% where the bar does.
// Without a limit it shows its words alone.
type Gauge struct {
	widget.BaseWidget
	Label *widget.Label
	Bar   *widget.ProgressBar

	share  float64 // amount / limit, uncapped: the bar's own Value stops at 1
	words  func(share float64) string
	colour *primaryTheme
	barBox *container.ThemeOverride
	root   *fyne.Container
}

// NewGauge makes a gauge whose bar reads words(share); nil: "NN%".
func NewGauge(words func(share float64) string) *Gauge {
	if words == nil {
		words = func(share float64) string { return fmt.Sprintf("%.0f%%", share*100) }
	}
	g := &Gauge{Label: widget.NewLabel(""), Bar: widget.NewProgressBar(), words: words, colour: &primaryTheme{}}
	g.Label.Wrapping = fyne.TextWrapWord
	// The bar stops at Max; the words must not, or an overrun reads "100%".
	g.Bar.TextFormatter = func() string { return g.words(g.share) }
	g.barBox = container.NewThemeOverride(g.Bar, g.colour)
	g.root = container.NewVBox(g.Label, g.barBox)
	g.ExtendBaseWidget(g)
	return g
}

func (g *Gauge) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(g.root) }

// Set shows text over the bar at share of the limit (past 1 too), drawn
// in fill; nil fill is the theme's primary colour.
func (g *Gauge) Set(text string, share float64, fill color.Color) {
	g.Label.SetText(text)
	g.barBox.Show()
	g.share = share
	g.colour.primary = fill
	g.Bar.Value = min(share, 1)
	g.Bar.Refresh() // re-reads the colour and the text even when the capped value stays 1
}

// SetText shows text alone: there is no limit to weigh against.
func (g *Gauge) SetText(text string) {
	g.Label.SetText(text)
	g.barBox.Hide()
}

// BarShown reports whether the bar is drawn (a limit was set).
func (g *Gauge) BarShown() bool { return g.barBox.Visible() }

// primaryTheme is the app's theme with another primary colour: the
// ProgressBar draws its bar in the primary colour only, so this is how
// the gauge turns amber or red. A nil primary keeps the app's own. It asks
// the app's settings on every call, so a light/dark switch still reaches
// the gauge (theme.Current would answer with this theme itself while the
// gauge renders, and recurse).
type primaryTheme struct{ primary color.Color }

func (g *primaryTheme) app() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (g *primaryTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNamePrimary && g.primary != nil {
		return g.primary
	}
	return g.app().Color(n, v)
}

func (g *primaryTheme) Font(s fyne.TextStyle) fyne.Resource { return g.app().Font(s) }

func (g *primaryTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return g.app().Icon(n) }

func (g *primaryTheme) Size(n fyne.ThemeSizeName) float32 { return g.app().Size(n) }
