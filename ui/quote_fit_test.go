package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/quote"
)

// TestSubmitQuoteIsNeverCutOffAt1024x700: at 1024x700, on every kind of
// work order that takes a quote, with price-list lines added, "Submit
// quote" is whole on screen once the Quote tab is scrolled to its end:
// inside the window, the detail pane and the tab's scroll, at its full
// width.
func TestSubmitQuoteIsNeverCutOffAt1024x700(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1024, 700))
	drv := fyne.CurrentApp().Driver()
	seen := map[api.WorkOrderStatus]bool{}
	for _, r := range h.rows() {
		wo := h.woOf(r)
		if ok, _ := quote.Allowed(wo); !ok || seen[r.Status] {
			continue
		}
		seen[r.Status] = true
		h.open(r.Id)
		h.selectTab("Quote")
		q := quoteOf(h)
		for i, items := 0, q.priceList(); i < 3 && len(items.Options) > 0; i++ {
			items.SetSelectedIndex(i % len(items.Options))
			q.button("Add line").OnTapped()
		}
		h.settle()
		sc, ok := h.desk.detail.appTabs.Selected().Content.(*container.Scroll)
		if !ok {
			t.Fatalf("the Quote tab is not a scroll")
		}
		sc.ScrollToBottom()
		h.settle()
		submit := q.submit()
		b, bs := drv.AbsolutePositionForObject(submit), submit.Size()
		pane, ps := drv.AbsolutePositionForObject(h.desk.detail.content()), h.desk.detail.content().Size()
		view, vs := drv.AbsolutePositionForObject(sc), sc.Size()
		switch {
		case !q.open():
			t.Errorf("%s (%s): Submit quote is not shown", r.Number, r.Status)
		case bs.Width < submit.MinSize().Width:
			t.Errorf("%s (%s): Submit quote is squeezed to %.0f of %.0f px", r.Number, r.Status, bs.Width, submit.MinSize().Width)
		case b.X+bs.Width > 1024 || b.X+bs.Width > pane.X+ps.Width || b.X < view.X:
			t.Errorf("%s (%s): Submit quote spans x %.0f–%.0f, past the pane's %.0f–%.0f", r.Number, r.Status, b.X, b.X+bs.Width, pane.X, pane.X+ps.Width)
		case b.Y < view.Y || b.Y+bs.Height > view.Y+vs.Height:
			t.Errorf("%s (%s): scrolled to the end, Submit quote spans y %.0f–%.0f, outside the tab's %.0f–%.0f", r.Number, r.Status, b.Y, b.Y+bs.Height, view.Y, view.Y+vs.Height)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no work order of the demo takes a quote")
	}
}
