package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// nteGauge weighs an amount against the work order's NTE: a line in words
// ("Total $950.00 of the NTE $1,050.00") over a bar in the theme's colour,
// amber near the NTE and red above it, whose own words ("104% of the NTE")
// do not stop at 100% where the bar does. Without an NTE it says so and
// draws no bar.
type nteGauge struct {
	widget.BaseWidget
	label  *widget.Label
	bar    *widget.ProgressBar
	share  float64 // amount / NTE, uncapped: the bar's own Value stops at 1
	colour *nteGaugeTheme
	barBox *container.ThemeOverride
	root   *fyne.Container
}

func newNteGauge() *nteGauge {
	g := &nteGauge{label: arrange.Wrapped(widget.NewLabel("")), bar: widget.NewProgressBar(), colour: &nteGaugeTheme{}}
	// The bar stops at Max; the words must not, or an overrun reads "100%".
	g.bar.TextFormatter = func() string { return fmt.Sprintf("%.0f%% of the NTE", g.share*100) }
	g.barBox = container.NewThemeOverride(g.bar, g.colour)
	g.root = container.NewVBox(g.label, g.barBox)
	g.ExtendBaseWidget(g)
	return g
}

func (g *nteGauge) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(g.root) }

// set shows total against nte (the same currency) and returns where it
// stands (api.NteStanding), for the advice around the gauge.
func (g *nteGauge) set(total, nte api.Money) (api.NteLevel, float64) {
	level, share := api.NteStanding(total, nte)
	if level == api.NteNoLimit {
		g.label.SetText("NTE: no limit. The customer set no maximum for this work order.")
		g.barBox.Hide()
		return level, share
	}
	g.label.SetText(fmt.Sprintf("Total %s of the NTE %s", format.Money(total), format.Money(nte)))
	g.barBox.Show()
	g.share = share
	g.colour.primary = nteGaugeColor(level)
	g.bar.Value = min(share, 1)
	g.bar.Refresh() // re-reads the colour and the text even when the capped value stays 1
	return level, share
}

// nteGaugeTheme is the app's theme with another primary colour: the
// ProgressBar draws its bar in the primary colour only, so this is how the
// NTE gauge turns amber near the NTE and red above it. A nil primary keeps
// the app's own. It asks the app's settings on every call, so a light/dark
// switch still reaches the gauge (theme.Current would answer with this
// theme itself while the gauge renders, and recurse).
type nteGaugeTheme struct{ primary color.Color }

func (g *nteGaugeTheme) app() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (g *nteGaugeTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNamePrimary && g.primary != nil {
		return g.primary
	}
	return g.app().Color(n, v)
}

func (g *nteGaugeTheme) Font(s fyne.TextStyle) fyne.Resource { return g.app().Font(s) }

func (g *nteGaugeTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return g.app().Icon(n) }

func (g *nteGaugeTheme) Size(n fyne.ThemeSizeName) float32 { return g.app().Size(n) }

// nteGaugeColor is the gauge's bar colour for a level: the badge amber from
// nteNearShare on, the badge red above the NTE (both read with white text),
// otherwise the theme's own (nil).
func nteGaugeColor(level api.NteLevel) color.Color {
	switch level {
	case api.NteNear:
		return palette.Requested
	case api.NteOver:
		return palette.Rejected
	}
	return nil
}
