package invoice

import (
	"fmt"
	"image/color"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// newNteGauge weighs an amount against the work order's NTE: a line in
// words ("Total $950.00 of the NTE $1,050.00") over a bar in the theme's
// colour, amber near the NTE and red above it, whose own words ("104% of
// the NTE") do not stop at 100% where the bar does (setNte).
func newNteGauge() *xwidget.Gauge {
	return xwidget.NewGauge(func(share float64) string { return fmt.Sprintf("%.0f%% of the NTE", share*100) })
}

// setNte shows total against nte (the same currency) and returns where it
// stands (api.NteStanding), for the advice around the gauge. Without an
// NTE it says so and draws no bar.
func setNte(g *xwidget.Gauge, total, nte api.Money) (api.NteLevel, float64) {
	level, share := api.NteStanding(total, nte)
	if level == api.NteNoLimit {
		g.SetText("NTE: no limit. The customer set no maximum for this work order.")
		return level, share
	}
	g.Set(fmt.Sprintf("Total %s of the NTE %s", format.Money(total), format.Money(nte)), share, nteGaugeColor(level))
	return level, share
}

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
