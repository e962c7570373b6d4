package invoice

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// TestNteGauge weighs amounts against an NTE of $1,050.00: the words say
// the whole share, past 100% too, while the bar stops full; the bar is the
// theme's colour well within the NTE, amber near it and red above it; and
// without an NTE the gauge says so and draws no bar. Amber is never good
// news: within the NTE the bar is never amber.
func TestNteGauge(t *testing.T) {
	if c := nteGaugeColor(api.NteWithin); c != nil {
		t.Errorf("an invoice within its NTE has the gauge in %v, want the theme's own", c)
	}
	test.NewTempApp(t)
	test.ApplyTheme(t, theme.LightTheme())
	g := newNteGauge()
	w := test.NewTempWindow(t, g)
	nte := api.MustMoney("1050.00", "USD")
	for _, c := range []struct {
		total string
		level api.NteLevel
		label string
		words string
		bar   color.Color // nil: the theme's primary colour
		value float64
	}{
		{"525.00", api.NteWithin, "Total $525.00 of the NTE $1,050.00", "50% of the NTE", nil, 0.5},
		{"997.50", api.NteNear, "Total $997.50 of the NTE $1,050.00", "95% of the NTE", palette.Requested, 0.95},
		{"1260.00", api.NteOver, "Total $1,260.00 of the NTE $1,050.00", "120% of the NTE", palette.Rejected, 1},
	} {
		level, _ := setNte(g, api.MustMoney(c.total, "USD"), nte)
		w.Resize(g.MinSize().AddWidthHeight(200, 0))
		words, fill := drawnBar(t, g)
		want := c.bar
		if want == nil {
			want = theme.Color(theme.ColorNamePrimary)
		}
		if level != c.level || g.Label.Text != c.label || words != c.words || !sameColor(fill, want) || g.Bar.Value != c.value {
			t.Errorf("%s: level %v, %q, bar %q in %v at %.2f; want level %v, %q, %q in %v at %.2f",
				c.total, level, g.Label.Text, words, fill, g.Bar.Value, c.level, c.label, c.words, want, c.value)
		}
	}
	if level, _ := setNte(g, api.MustMoney("1260.00", "USD"), api.Money{Currency: "USD"}); level != api.NteNoLimit ||
		g.BarShown() || g.Label.Text != "NTE: no limit. The customer set no maximum for this work order." {
		t.Errorf("without an NTE: level %v, bar shown %v, %q", level, g.BarShown(), g.Label.Text)
	}
}

// drawnBar is the gauge bar's words and the colour of its filled part.
func drawnBar(t *testing.T, g *xwidget.Gauge) (string, color.Color) {
	t.Helper()
	var text string
	var fill color.Color
	for _, o := range test.WidgetRenderer(g.Bar).Objects() {
		switch c := o.(type) {
		case *canvas.Text:
			text = c.Text
		case *canvas.Rectangle:
			if c.Visible() && c.Size().Width > 0 {
				fill = c.FillColor // the filled part is drawn over the track: the last one
			}
		}
	}
	return text, fill
}
