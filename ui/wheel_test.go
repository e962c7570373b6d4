package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
)

// TestTheWheelScrollsTheInvoiceOverItsFields: on a long invoice at
// 1024x700, the mouse wheel turned over any field (the number, the date,
// a line's description, quantity and rate) scrolls the form, as it does
// over the gaps between them. Fyne's entries kept the wheel to themselves.
func TestTheWheelScrollsTheInvoiceOverItsFields(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1024, 700))
	inv := openInvoice(h, func(_ *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool { return inv.Status.Editable() })
	for len(inv.rows) < 8 {
		addPriceItem(t, inv, 0)
	}
	h.settle()
	if inv.scroll.Content.MinSize().Height <= inv.scroll.Size().Height {
		t.Fatalf("the invoice (%.0f px) fits its %.0f px pane: nothing to scroll", inv.scroll.Content.MinSize().Height, inv.scroll.Size().Height)
	}
	c := h.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	for _, f := range []struct {
		what string
		o    fyne.CanvasObject
	}{
		{"the invoice number", inv.number},
		{"the invoice date", inv.date},
		{"a line's description", inv.rows[0].desc},
		{"a line's quantity", inv.rows[0].qty},
		{"a line's rate", inv.rows[0].rate},
	} {
		inv.scroll.ScrollToTop()
		pos := drv.AbsolutePositionForObject(f.o).Add(fyne.NewPos(f.o.Size().Width/2, f.o.Size().Height/2))
		if top := drv.AbsolutePositionForObject(inv.scroll); pos.Y < top.Y || pos.Y > top.Y+inv.scroll.Size().Height {
			t.Fatalf("%s is not on screen at the top of the invoice", f.what)
		}
		test.Scroll(c, pos, 0, -60) // one wheel step down
		if inv.scroll.Offset.Y <= 0 {
			t.Errorf("the wheel over %s did not scroll the invoice", f.what)
		}
	}
}
