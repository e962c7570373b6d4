package xwidget

import (
	"fmt"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// Regenerate a golden image after an intended change: run the test, look
// at testdata/failed/<name>.png, and copy it over testdata/<name>.png.

var (
	green  = color.NRGBA{R: 0x2d, G: 0xa4, B: 0x4e, A: 0xff}
	amber  = color.NRGBA{R: 0xd4, G: 0xa7, B: 0x2c, A: 0xff}
	orange = color.NRGBA{R: 0xe1, G: 0x6f, B: 0x24, A: 0xff}
	red    = color.NRGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff}
)

func agingChart() *StackedBars {
	b := NewStackedBars("Outstanding in USD by age",
		BarSeries{"0–30 days", green}, BarSeries{"31–60 days", amber}, BarSeries{"61–90 days", orange}, BarSeries{"90+ days", red})
	b.Tick = func(v float64) string { return fmt.Sprintf("$%.0f", v) }
	b.SetRows([]BarRow{
		{Label: "Northwind Retail", Values: []float64{1200, 300, 0, 450}, Note: "$1,950.00"},
		{Label: "Harbor Point Hotels", Values: []float64{800, 0, 640, 0}, Note: "$1,440.00"},
		{Label: "Lakeside Medical Group and a name too long for its column", Values: []float64{0, 0, 0, 220}, Note: "$220.00"},
	}, "2 outstanding invoices have no date and are in no bucket")
	return b
}

// The aging chart at two widths: the bars stretch with the window, the
// labels and totals keep their size, a long name is cut.
func TestStackedBarsGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	for _, w := range []float32{640, 420} {
		win := test.NewTempWindow(t, container.NewPadded(agingChart()))
		win.Resize(fyne.NewSize(w, 230))
		test.AssertImageMatches(t, fmt.Sprintf("bars_aging_%d.png", int(w)), win.Canvas().Capture())
	}
}

// In the dark theme the text, the grid and the background turn with it;
// a chart with nothing to show says so.
func TestStackedBarsDarkAndEmptyGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, theme.DarkTheme())
	sla := NewStackedBars("SLA kept and missed, last 12 weeks", BarSeries{"Kept", green}, BarSeries{"Missed", red})
	sla.SetRows([]BarRow{
		{Label: "Northwind Retail", Values: []float64{9, 3}, Note: "9 of 12 kept"},
		{Label: "Sakura Mart Japan", Values: []float64{4, 0}, Note: "4 of 4 kept"},
	}, "5 deadlines could not be judged: no time was recorded")
	empty := NewStackedBars("Outstanding in EUR by age", BarSeries{"0–30 days", green})
	empty.Empty = "Nothing outstanding"
	win := test.NewTempWindow(t, container.NewPadded(container.NewVBox(sla, empty)))
	win.Resize(fyne.NewSize(560, 300))
	test.AssertImageMatches(t, "bars_dark_empty.png", win.Canvas().Capture())
}

func TestNiceStep(t *testing.T) {
	for _, c := range []struct{ raw, want float64 }{{0.7, 1}, {3, 5}, {12, 20}, {450, 500}, {2500, 5000}, {0, 1}} {
		if got := niceStep(c.raw); got != c.want {
			t.Errorf("niceStep(%v) = %v; want %v", c.raw, got, c.want)
		}
	}
}
