package quote

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// The quote's lines from the customer's price list: picking, quantities,
// subtotals, and their total as the amount asked for.

func (t *Tab) loadPriceList() {
	t.plNote.Hide()
	pl, err := t.replica.PriceList(context.Background(), t.wo.WorkOrderId)
	if err != nil || pl == nil {
		t.priceList = nil
		t.priceSel.Options = nil
		t.priceSel.PlaceHolder = "Price list not loaded yet (loads online)"
		t.priceSel.Refresh()
		arrange.SetEnabled(t.addLine, false)
		return
	}
	if why := pl.CurrencyProblem(t.wo.Currency); why != "" {
		t.priceList = nil
		t.plNote.SetText(why + " Type the quote amount instead.")
		t.plNote.Show()
		t.priceSel.Options = nil
		t.priceSel.PlaceHolder = "Price list not usable here"
		t.priceSel.Refresh()
		arrange.SetEnabled(t.addLine, false)
		return
	}
	t.priceList = pl
	var opts []string
	for _, it := range pl.Items {
		opts = append(opts, format.PriceItem(it, t.wo.Currency))
	}
	t.priceSel.Options = opts
	t.priceSel.PlaceHolder = "Price list item…"
	if t.priceSel.Selected != "" && t.priceSel.SelectedIndex() < 0 {
		t.priceSel.Selected = "" // an item this price list does not have
	}
	t.priceSel.Refresh()
	arrange.SetEnabled(t.addLine, len(opts) > 0)
}

func (t *Tab) onAddLine() {
	if t.priceList == nil || t.priceSel.SelectedIndex() < 0 {
		t.win.ShowError(dialogs.NotYet("pick an item from the price list first"))
		return
	}
	qty, err := format.ParseQuantity(t.qty.Text)
	if err != nil {
		t.win.ShowError(err)
		return
	}
	it := t.priceList.Items[t.priceSel.SelectedIndex()]
	line := api.LineItem{Type: api.LinePriceList, Description: it.Description, Quantity: qty,
		Rate: it.Rate.In(t.wo.Currency), PriceListItemId: it.Id}
	line.Subtotal = line.ComputedSubtotal()
	t.lines = append(t.lines, line)
	// The next line starts at one again: a quantity of 6 hours of labour
	// is not meant for the part picked next.
	t.qty.SetText("1")
	t.renderLines()
}

func (t *Tab) linesTotal() (api.Money, error) { return sumLines(t.lines, t.wo.Currency) }

// sumLines totals lines in currency; a line in another currency is refused,
// never relabelled.
func sumLines(lines []api.LineItem, currency string) (api.Money, error) {
	total := api.Money{Currency: currency}
	for i, l := range lines {
		l.Rate = l.Rate.In(currency)
		var err error
		if total, err = total.Add(l.ComputedSubtotal()); err != nil {
			return api.Money{}, fmt.Errorf("line %d is in %s, but this work order is billed in %s", i+1, l.Rate.Currency, currency)
		}
	}
	return total, nil
}

// renderLines rebuilds the line rows and puts their total in the amount.
func (t *Tab) renderLines() {
	var objs []fyne.CanvasObject
	t.lineRows = t.lineRows[:0]
	t.lineErr.SetText("")
	t.lineErr.Hide()
	h := widget.NewEntry().MinSize().Height
	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	for i, l := range t.lines {
		i := i
		remove := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			t.lines = append(t.lines[:i:i], t.lines[i+1:]...)
			t.renderLines()
		})
		remove.Importance = widget.LowImportance
		desc := widget.NewLabel(l.Description)
		desc.Truncation = fyne.TextTruncateEllipsis
		qty := widget.NewEntry()
		qty.SetText(l.Quantity.String())
		qty.Validator = func(s string) error { _, err := format.ParseQuantity(s); return err }
		qty.OnChanged = func(s string) { t.onLineQuantity(i, s) }
		sub := widget.NewLabelWithStyle(format.Money(l.ComputedSubtotal()), fyne.TextAlignTrailing, fyne.TextStyle{})
		t.lineRows = append(t.lineRows, quoteLineRow{qty: qty, subtotal: sub})
		numbers := container.NewHBox(fixed(72, qty), widget.NewLabel("× "+format.Money(l.Rate)), layout.NewSpacer(), sub)
		objs = append(objs, container.NewVBox(container.NewBorder(nil, nil, nil, remove, desc), numbers))
	}
	t.linesBox.Objects = objs
	t.linesBox.Refresh()
	t.syncAmount()
	t.formBox.Refresh() // a box re-lays out its children only when refreshed itself
}

// onLineQuantity keeps a line, its subtotal and the amount in step with its
// quantity entry; an unreadable quantity is named and the line keeps its old one.
func (t *Tab) onLineQuantity(i int, s string) {
	q, err := format.ParseQuantity(s)
	if err != nil {
		t.lineErr.SetText(fmt.Sprintf("Line %d: %v. The line keeps %s until you fix it.", i+1, err, t.lines[i].Quantity))
		t.lineErr.Show()
		t.formBox.Refresh()
		return
	}
	t.lineErr.SetText("")
	t.lineErr.Hide()
	t.lines[i].Quantity = q
	t.lines[i].Subtotal = t.lines[i].ComputedSubtotal()
	t.lineRows[i].subtotal.SetText(format.Money(t.lines[i].Subtotal))
	t.syncAmount()
	t.formBox.Refresh()
}

// syncAmount shows the lines' total as the amount while there are lines (a
// label in the work order's currency; the entry, disabled and hidden, keeps
// it for when the lines are removed), and hands the entry back without lines.
func (t *Tab) syncAmount() {
	if len(t.lines) == 0 {
		t.amount.Enable()
		t.amount.Show()
		t.amountNote.SetText("")
		t.amountNote.Hide()
		t.total.SetText("")
		return
	}
	note := "The total of the line items below."
	total, err := t.linesTotal()
	if err != nil {
		t.amount.SetText("")
		t.total.SetText("The lines cannot be totalled: " + err.Error())
		note = "No amount yet: the lines cannot be totalled."
	} else {
		t.amount.SetText(format.Amount(total))
		t.total.SetText("Lines total " + format.Money(total))
		note = format.Money(total) + " — the total of the line items below."
	}
	t.amount.Disable()
	t.amount.Hide()
	if t.carryNote != "" {
		note += " " + t.carryNote
	}
	note += " To type an amount yourself, remove the lines."
	t.amountNote.SetText(note)
	t.amountNote.Show()
}
