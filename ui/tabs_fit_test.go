package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// visibleTabButtons counts the tab buttons drawn down the detail pane
// (those pushed behind Fyne's "⋮" overflow are not drawn).
func visibleTabButtons(h *harness) int {
	n := 0
	walk(h.desk.detail.appTabs, func(o fyne.CanvasObject) {
		if fmt.Sprintf("%T", o) == "*container.tabButton" && o.Visible() {
			n++
		}
	})
	return n
}

// TestEveryTabStaysInSightAt1024x700: a refused action makes the header
// taller; at 1024x700 the tabs then drop their icons rather than hide the
// last ones behind "⋮", and get them back when the window is tall again.
func TestEveryTabStaysInSightAt1024x700(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1024, 700))
	r := h.rowWhere(func(r storage.Row) bool {
		return r.Status == api.StatusAccepted && r.QuoteStatus == "" && r.Customer == "Sakura Mart Japan"
	})
	h.open(r.Id)
	h.selectTab("Quote")
	q := quoteOf(h)
	q.amount().SetText("9999999")
	q.reason().SetText("The whole roof") // Sakura Mart Japan takes no quotes: the service refuses
	test.Tap(q.submit())
	h.flush()
	h.send()
	headerRefusal(h, "Quote")
	h.win.Resize(fyne.NewSize(1024, 701))
	h.win.Resize(fyne.NewSize(1024, 700))
	all := len(h.desk.detail.appTabs.Items)
	if n := visibleTabButtons(h); n != all {
		t.Errorf("at 1024x700 with a refusal in the header %d of %d tabs are in sight", n, all)
	}
	if h.desk.detail.appTabs.Items[0].Icon != nil {
		t.Error("at 1024x700 with a refusal the tabs kept their icons (they cannot all fit with them)")
	}
	h.win.Resize(fyne.NewSize(1280, 1000))
	if n := visibleTabButtons(h); n != all || h.desk.detail.appTabs.Items[0].Icon == nil {
		t.Errorf("at 1280x1000 %d of %d tabs are in sight (icons: %v)", n, all, h.desk.detail.appTabs.Items[0].Icon != nil)
	}
}
