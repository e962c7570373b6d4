package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestNoLimitReadsTheSameEverywhere: a work order without an NTE says
// "NTE: no limit" in its header, "no limit" in the list (no currency
// beside it: "No limit USD" reads as an amount) and "NTE: no limit" on the
// Invoice and Quote tabs; one with an NTE shows the amount and currency.
func TestNoLimitReadsTheSameEverywhere(t *testing.T) {
	h := newHarness(t)
	none := h.create(sandbox.WorkOrderSpec{Nte: "0"})
	h.open(none.Id)
	if got := strings.Join(texts(h.desk.detail.header), " "); !strings.Contains(got, "NTE: no limit") || strings.Contains(got, none.Nte.Currency) {
		t.Errorf("the header of a work order without an NTE reads %q, want \"NTE: no limit\" without a currency", got)
	}
	if got := format.Nte(none.Nte); got != "no limit" {
		t.Errorf("the list's NTE column reads %q, want \"no limit\"", got)
	}
	h.selectTab("Invoice")
	if got := invoiceOf(h).text(); !strings.Contains(got, "\nNTE: no limit. The customer set no maximum") {
		t.Errorf("the Invoice tab reads %q, want \"NTE: no limit.\"", got)
	}
	if got := quoteExplanation(h).Text; strings.Contains(strings.ToLower(got), "the nte is no limit") || strings.Contains(got, "No limit") {
		t.Errorf("the Quote tab reads %q", got)
	}
	some := h.rowWhere(func(r storage.Row) bool { return !r.Nte.IsZero() })
	h.open(some.Id)
	if got := h.desk.detail.nte.Text; !strings.HasPrefix(got, format.Money(some.Nte)) || !strings.HasSuffix(got, some.Nte.Currency) {
		t.Errorf("the header NTE of %s reads %q, want %s and its currency", some.Number, got, format.Money(some.Nte))
	}
}

// TestErrorAndInfoIconsSitBesideTheirText: the icon of an error,
// information or confirmation dialog takes its own place beside the
// message, where Fyne's own dialogs draw it over the message's top right
// corner.
func TestErrorAndInfoIconsSitBesideTheirText(t *testing.T) {
	h := newHarness(t)
	long := "the service refused the invoice: the line \"Technician labour, standard rate\" exceeds the rate agreed in the customer's price list by more than the allowed tolerance"
	for _, show := range []func(){
		func() { h.desk.showError(errors.New(long)) },
		func() { h.desk.info("Not a valid NTE", long) },
		func() { dialogs.NewConfirm("Replace what you typed?", long, func(bool) {}, h.win).Show() },
		func() { dialogs.Final("Submit the invoice?", long, "Submit invoice", false, func(bool) {}, h.win) },
	} {
		show()
		h.flush()
		top := h.win.Canvas().Overlays().Top()
		var icon *canvas.Image
		var text *widget.Label
		walk(top, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *canvas.Image:
				icon = x
			case *widget.Label:
				if strings.Contains(strings.ToLower(x.Text), "tolerance") {
					text = x
				}
			}
		})
		if icon == nil || text == nil {
			t.Fatalf("the dialog shows no icon or no message: %q", texts(top))
		}
		drv := fyne.CurrentApp().Driver()
		ip, tp := drv.AbsolutePositionForObject(icon), drv.AbsolutePositionForObject(text)
		overlapX := ip.X < tp.X+text.Size().Width && tp.X < ip.X+icon.Size().Width
		overlapY := ip.Y < tp.Y+text.Size().Height && tp.Y < ip.Y+icon.Size().Height
		if overlapX && overlapY {
			t.Errorf("the icon at %v (%v) covers the message at %v (%v)", ip, icon.Size(), tp, text.Size())
		}
		if text.Size().Width < 300 {
			t.Errorf("the message is squeezed into %v", text.Size())
		}
		h.dismissOverlays()
	}
}
