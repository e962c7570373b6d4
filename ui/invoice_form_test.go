package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/invoice"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// The Invoice tab lives in ui/invoice, tested there against a fake; the
// whole-window tests of flows that cross views use it as a person does,
// finding its controls by their words and their order on screen.

// invoiceForm is the window's Invoice tab.
type invoiceForm struct {
	h   *harness
	tab *invoice.Tab
}

func invoiceOf(h *harness) invoiceForm { return invoiceForm{h, tabOf[*invoice.Tab](h)} }

// openInvoice opens, on the Invoice tab, the first listed work order whose
// invoice and price list (asked of the sandbox directly, so that only the
// chosen one is opened in the window) satisfy ok.
func openInvoice(h *harness, ok func(wo *api.WorkOrder, inv *api.Invoice, pl *api.PriceList) bool) invoiceForm {
	h.t.Helper()
	ctx := context.Background()
	client := h.eng.Client
	for _, r := range replicaRows(h) {
		wo, err := h.store.WorkOrder(ctx, r.Id)
		if err != nil || !wo.InvoiceVisible() || wo.Status == api.StatusRejected || wo.Status == api.StatusRecalled {
			continue
		}
		inv, err1 := client.GetInvoice(ctx, wo.WorkOrderId)
		pl, err2 := client.GetPriceList(ctx, wo.WorkOrderId)
		if err1 != nil || err2 != nil || len(pl.Items) == 0 || !ok(wo, inv, pl) {
			continue
		}
		h.open(r.Id)
		h.selectTab("Invoice")
		f := invoiceOf(h)
		if says := f.text(); strings.Contains(says, "has not been fetched from the service yet") || !strings.Contains(says, "Add item") {
			h.t.Fatalf("opening %s did not load its invoice and price list:\n%s", wo.WorkOrderNumber, says)
		}
		return f
	}
	h.t.Fatal("no work order in the demo world fits")
	return invoiceForm{}
}

// text is everything the tab shows, a line per label and button.
func (f invoiceForm) text() string { return strings.Join(texts(f.tab.Content()), "\n") }

// button is the visible button reading text.
func (f invoiceForm) button(text string) *widget.Button {
	f.h.t.Helper()
	return buttonIn(f.h.t, f.tab.Content(), text)
}

// submit presses Submit invoice and answers yes to the question it asks
// first, which must be there.
func (f invoiceForm) submit() {
	f.h.t.Helper()
	test.Tap(f.button("Submit invoice"))
	if ask := f.h.overlayText(); !strings.Contains(ask, "submit the invoice?") || !strings.Contains(ask, "cannot be changed") {
		f.h.t.Fatalf("Submit invoice asked %q", ask)
	}
	test.Tap(buttonIn(f.h.t, f.h.win.Canvas().Overlays().Top(), "Submit invoice"))
}

// badge is what the invoice's status pill reads.
func (f invoiceForm) badge() string {
	var b *xwidget.Badge
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*xwidget.Badge); ok && b == nil {
			b = x
		}
	})
	if b == nil {
		f.h.t.Fatal("the Invoice tab shows no status")
	}
	return b.Text()
}

// entries is the tab's one-line entries in screen order: the number, each
// line's description, quantity and rate, and the discount.
func (f invoiceForm) entries() []*xwidget.WheelEntry {
	var out []*xwidget.WheelEntry
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if e, ok := o.(*xwidget.WheelEntry); ok {
			out = append(out, e)
		}
	})
	return out
}

// number is the invoice number's entry.
func (f invoiceForm) number() *xwidget.WheelEntry { return f.entries()[0] }

// date is the invoice date's entry.
func (f invoiceForm) date() *xwidget.DateEntry {
	var d *xwidget.DateEntry
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*xwidget.DateEntry); ok && d == nil {
			d = x
		}
	})
	return d
}

// lineCount is how many lines the invoice has.
func (f invoiceForm) lineCount() int { return (len(f.entries()) - 2) / 3 }

// quantity is line i's quantity entry.
func (f invoiceForm) quantity(i int) *xwidget.WheelEntry { return f.entries()[1+3*i+1] }

// addPriceItem picks item i of the price list and adds it.
func (f invoiceForm) addPriceItem(i int) {
	f.h.t.Helper()
	var picker *widget.Select
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok && picker == nil {
			picker = s // the price list's picker comes before the free line's
		}
	})
	n := f.lineCount()
	picker.SetSelectedIndex(i)
	test.Tap(f.button("Add item"))
	if f.lineCount() != n+1 {
		f.h.t.Fatal("adding a price list item added no line")
	}
}

// removeLine taps line i's delete button.
func (f invoiceForm) removeLine(i int) {
	var removes []*widget.Button
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "" && b.Icon != nil && b.Icon.Name() == theme.DeleteIcon().Name() {
			removes = append(removes, b)
		}
	})
	test.Tap(removes[i])
}

// check fails the test unless the tab shows want.
func (f invoiceForm) check(t *testing.T, want string) {
	t.Helper()
	if says := f.text(); !strings.Contains(says, want) {
		t.Fatalf("the Invoice tab does not say %q; it says:\n%s", want, says)
	}
}

// discount is the discount's entry.
func (f invoiceForm) discount() *xwidget.WheelEntry {
	e := f.entries()
	return e[len(e)-1]
}

// clearLines removes every line with its delete button.
func (f invoiceForm) clearLines() {
	for f.lineCount() > 0 {
		f.removeLine(0)
	}
}
