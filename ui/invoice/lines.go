package invoice

// The invoice's lines: one row of entries per line while it may change,
// plain text once it may not, and the price list and free lines they are
// added from.

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// priceItem finds the price list entry a line refers to.
func (t *Tab) priceItem(id int64) *api.PriceListItem {
	if t.pl == nil || id == 0 {
		return nil
	}
	for i := range t.pl.Items {
		if t.pl.Items[i].Id == id {
			return &t.pl.Items[i]
		}
	}
	return nil
}

func (t *Tab) rateFixed(l api.LineItem) bool {
	it := t.priceItem(l.PriceListItemId)
	return it != nil && it.IsRateReadOnly
}

func (t *Tab) minor() int32 { return int32(api.MinorUnits(t.wo.Currency)) }

// rebuildLines makes one row per line; edits then update rows in place so
// the entry being typed in keeps its focus.
func (t *Tab) rebuildLines() {
	t.rendering = true
	defer func() { t.rendering = false }()
	ok, _ := t.editable()
	t.rows = t.rows[:0]
	var objs []fyne.CanvasObject
	if len(t.inv.LineItems) > 0 {
		// The description column is what gives way on a narrow pane; its
		// heading must not hold the row wider than the entries below it.
		descHead := widget.NewLabelWithStyle("Description", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		descHead.Truncation = fyne.TextTruncateEllipsis
		objs = append(objs, lineLayout(
			descHead,
			widget.NewLabelWithStyle("Category", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			widget.NewLabelWithStyle("Quantity", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			widget.NewLabelWithStyle("Rate", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			widget.NewLabelWithStyle("Subtotal", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}),
			widget.NewLabel("")))
	}
	for i := range t.inv.LineItems {
		r := t.newLineRow(i, ok)
		t.rows = append(t.rows, r)
		objs = append(objs, r.box, widget.NewSeparator())
	}
	t.linesBox.Objects = objs
	t.linesBox.Refresh()
	if len(t.inv.LineItems) == 0 {
		t.noLines.Show()
	} else {
		t.noLines.Hide()
	}
	t.relayout()
}

// lineLayout gives the description its row, with the subtotal, over the
// category, quantity and rate: the detail pane is narrow, and a
// description squeezed between four number columns could not be read.
func lineLayout(desc, kind, qty, rate, subtotal, remove fyne.CanvasObject) fyne.CanvasObject {
	h := widget.NewEntry().MinSize().Height
	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	numbers := container.NewHBox(fixed(96, kind), fixed(72, qty), fixed(100, rate))
	return container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(fixed(100, subtotal), fixed(36, remove)), desc), numbers)
}

func (t *Tab) newLineRow(i int, editable bool) *lineRow {
	if !editable {
		return t.newLineText(i)
	}
	l := t.inv.LineItems[i]
	r := &lineRow{}
	r.desc = xwidget.NewWheelEntry(t.form)
	r.desc.SetText(l.Description)
	r.desc.SetPlaceHolder("Description (required)")
	r.desc.OnChanged = func(s string) {
		if t.rendering {
			return
		}
		t.inv.LineItems[i].Description = s
		t.edited()
	}
	kind := string(l.Type)
	if l.PriceListItemId != 0 {
		kind = "Price list"
	}
	r.kind = widget.NewLabel(kind)
	r.kind.Truncation = fyne.TextTruncateEllipsis
	r.qty = xwidget.NewWheelEntry(t.form)
	r.qty.SetText(l.Quantity.String())
	r.qty.Validator = func(s string) error { _, err := format.ParseQuantity(s); return err }
	r.qty.OnChanged = func(s string) {
		if t.rendering {
			return
		}
		q, err := format.ParseQuantity(s)
		if err != nil {
			t.inputErr.SetText(fmt.Sprintf("Line %d: %v. The line keeps %s until you fix it.", i+1, err, t.inv.LineItems[i].Quantity))
			return
		}
		t.inputErr.SetText("")
		t.inv.LineItems[i].Quantity = q
		t.edited()
	}
	r.rate = xwidget.NewWheelEntry(t.form)
	r.rate.SetText(format.Amount(l.Rate.In(t.wo.Currency)))
	r.rate.Validator = func(s string) error { _, err := format.ParseRate(s, t.wo.Currency); return err }
	r.rate.OnChanged = func(s string) {
		if t.rendering {
			return
		}
		m, err := format.ParseRate(s, t.wo.Currency)
		if err != nil {
			t.inputErr.SetText(fmt.Sprintf("Line %d: %v. The line keeps %s until you fix it.", i+1, err, format.Money(t.inv.LineItems[i].Rate)))
			return
		}
		t.inputErr.SetText("")
		t.inv.LineItems[i].Rate = m
		t.edited()
	}
	r.subtotal = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{})
	r.remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		t.inv.LineItems = append(t.inv.LineItems[:i:i], t.inv.LineItems[i+1:]...)
		t.inputErr.SetText("")
		t.rebuildLines()
		t.edited()
	})
	r.remove.Importance = widget.LowImportance
	arrange.SetEnabled(r.qty, l.Type != api.LineTax)
	arrange.SetEnabled(r.rate, !t.rateFixed(l))
	r.box = lineLayout(r.desc, r.kind, r.qty, r.rate, r.subtotal, r.remove)
	return r
}

// newLineText shows line i of an invoice that takes no changes as plain
// text in the same columns as the entries.
func (t *Tab) newLineText(i int) *lineRow {
	l := t.inv.LineItems[i]
	kind := string(l.Type)
	if l.PriceListItemId != 0 {
		kind = "Price list"
	}
	r := &lineRow{
		descLbl:  widget.NewLabel(format.OrDash(l.Description)),
		kind:     widget.NewLabel(kind),
		qtyLbl:   widget.NewLabel(l.Quantity.String()),
		rateLbl:  widget.NewLabel(format.Money(l.Rate.In(t.wo.Currency))),
		subtotal: widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{}),
	}
	r.descLbl.Wrapping = fyne.TextWrapWord
	r.kind.Truncation = fyne.TextTruncateEllipsis
	r.qtyLbl.Truncation = fyne.TextTruncateEllipsis
	r.rateLbl.Truncation = fyne.TextTruncateEllipsis
	r.box = lineLayout(r.descLbl, r.kind, r.qtyLbl, r.rateLbl, r.subtotal, layout.NewSpacer())
	return r
}

func (t *Tab) onDiscount(s string) {
	if t.rendering {
		return
	}
	m, err := format.ParseRate(s, t.wo.Currency)
	if err != nil {
		t.inputErr.SetText("Discount: " + err.Error() + ". The invoice keeps " + format.Money(t.inv.DiscountAmount) + " until you fix it.")
		return
	}
	t.inputErr.SetText("")
	t.inv.DiscountAmount = m
	t.edited()
}

func (t *Tab) onAddItem() {
	if problem := t.pl.CurrencyProblem(t.wo.Currency); problem != "" {
		t.win.ShowError(&api.RuleError{Msg: problem})
		return
	}
	i := t.priceSel.SelectedIndex()
	if t.pl == nil || i < 0 || i >= len(t.pl.Items) {
		t.win.ShowError(dialogs.NotYet("pick an item from the price list first"))
		return
	}
	it := t.pl.Items[i]
	kind := it.Type
	if kind == "" {
		kind = api.LinePriceList
	}
	t.addLine(api.LineItem{Type: kind, Description: it.Description, Quantity: decimal.NewFromInt(1),
		Rate: it.Rate.In(t.wo.Currency), PriceListItemId: it.Id})
}

func (t *Tab) onAddFree() {
	kind := api.LineItemType(t.freeType.Selected)
	if kind == "" {
		kind = api.LineLabor
	}
	t.addLine(api.LineItem{Type: kind, Quantity: decimal.NewFromInt(1), Rate: api.Money{Currency: t.wo.Currency}})
}

// onAddTax adds the invoice's one tax line; its rate is the tax amount.
func (t *Tab) onAddTax() {
	t.addLine(api.LineItem{Type: api.LineTax, Description: "Tax", Quantity: decimal.NewFromInt(1), Rate: api.Money{Currency: t.wo.Currency}})
}

func (t *Tab) addLine(l api.LineItem) {
	if ok, why := t.editable(); !ok {
		t.win.ShowError(&api.RuleError{Msg: why})
		return
	}
	l.Subtotal = l.ComputedSubtotal()
	t.inv.LineItems = append(t.inv.LineItems, l)
	t.rebuildLines()
	t.edited()
}

func (t *Tab) edited() {
	t.dirty = true
	t.recompute()
}

// currentLines is the draft's lines with computed subtotals.
func (t *Tab) currentLines() []api.LineItem {
	out := append([]api.LineItem(nil), t.inv.LineItems...)
	for i := range out {
		out[i].Rate = out[i].Rate.In(t.wo.Currency)
		out[i].Subtotal = out[i].ComputedSubtotal()
	}
	return out
}
