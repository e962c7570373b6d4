package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

// quoteTab shows the current quote and the form to ask for a higher NTE.
type quoteTab struct {
	d  *Desk
	wo *api.WorkOrder

	current *widget.Label
	badge   *badge
	explain *widget.Label

	amount    *widget.Entry
	reason    *widget.Entry
	priceSel  *widget.Select
	qty       *widget.Entry
	addLine   *widget.Button
	lines     []api.LineItem
	linesBox  *fyne.Container
	total     *widget.Label
	submit    *widget.Button
	formBox   *fyne.Container
	top       *fyne.Container
	priceList *api.PriceList
}

func newQuoteTab(d *Desk) *quoteTab {
	t := &quoteTab{d: d}
	t.current = widget.NewLabel("")
	t.current.Wrapping = fyne.TextWrapWord
	t.badge = newBadge()
	t.explain = widget.NewLabel("")
	t.explain.Wrapping = fyne.TextWrapWord
	t.explain.Importance = widget.WarningImportance

	t.amount = widget.NewEntry()
	t.amount.SetPlaceHolder("e.g. 1850.00")
	t.reason = widget.NewMultiLineEntry()
	t.reason.SetPlaceHolder("Why the work costs more than the NTE (required)")
	t.reason.SetMinRowsVisible(3)
	t.reason.Wrapping = fyne.TextWrapWord
	t.priceSel = widget.NewSelect(nil, nil)
	t.priceSel.PlaceHolder = "Price list item…"
	t.qty = widget.NewEntry()
	t.qty.SetText("1")
	t.addLine = widget.NewButtonWithIcon("Add line", theme.ContentAddIcon(), t.onAddLine)
	t.linesBox = container.NewVBox()
	t.total = widget.NewLabel("")
	t.submit = widget.NewButtonWithIcon("Submit quote", theme.MailSendIcon(), t.onSubmit)
	t.submit.Importance = widget.HighImportance

	form := widget.NewForm(
		widget.NewFormItem("Amount", t.amount),
		widget.NewFormItem("Reason", t.reason),
	)
	picker := container.NewBorder(nil, nil, nil, container.NewHBox(widget.NewLabel("Qty"), container.NewGridWrap(fyne.NewSize(70, t.qty.MinSize().Height), t.qty), t.addLine), t.priceSel)
	t.formBox = container.NewVBox(
		heading("Submit a quote"), form,
		heading("Line items (optional, from the customer's price list)"), picker, t.linesBox, t.total,
		container.NewHBox(layout.NewSpacer(), t.submit),
	)
	return t
}

func (t *quoteTab) title() string       { return "Quote" }
func (t *quoteTab) icon() fyne.Resource { return theme.DocumentCreateIcon() }
func (t *quoteTab) content() fyne.CanvasObject {
	t.top = container.NewVBox(container.NewHBox(heading("Current quote"), t.badge), t.current, t.explain, widget.NewSeparator())
	return container.NewVScroll(container.NewPadded(container.NewVBox(t.top, t.formBox)))
}

func (t *quoteTab) show(wo *api.WorkOrder) {
	switching := t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId
	t.wo = wo
	q := wo.Nte.Quote
	if q == nil {
		t.badge.Set("", nil)
		t.current.SetText("No quote on this work order.")
	} else {
		t.badge.Set(statusText(q.QuoteStatus), quoteColor(q.QuoteStatus))
		text := q.Amount.Format()
		if q.QuoteStatus == api.QuoteRequested && q.Amount.IsZero() {
			text = "Requested by the customer"
		}
		if q.Comment != "" {
			text += " — " + q.Comment
		}
		t.current.SetText(text)
	}
	allowed, why := quoteAllowed(wo)
	t.explain.SetText(why)
	if allowed {
		t.formBox.Show()
	} else {
		t.formBox.Hide()
	}
	if switching {
		t.amount.SetText("")
		t.reason.SetText("")
		t.lines = nil
	}
	t.loadPriceList()
	t.renderLines()
	t.top.Refresh()
}

// quoteAllowed says whether a new quote can be submitted now, and why or why not,
// following spec §3: only from no quote or Rejected (or when Requested).
func quoteAllowed(wo *api.WorkOrder) (bool, string) {
	if wo.Status == api.StatusRejected || wo.Status == api.StatusRecalled {
		return false, "Quotes are not possible on a " + strings.ToLower(statusText(wo.Status)) + " work order."
	}
	nte := "The NTE is " + nteText(wo.Nte.Amount) + "."
	q := wo.Nte.Quote
	switch {
	case q == nil:
		return true, nte + " If the work will cost more, submit a quote; the NTE rises only when the customer approves it."
	case q.QuoteStatus == api.QuoteRequested:
		return true, "The customer asked for a quote and is waiting for your answer. " + nte
	case q.QuoteStatus == api.QuoteSubmitted:
		return false, "Waiting for the customer's decision. A new quote is not possible until the customer approves or rejects this one."
	case q.QuoteStatus == api.QuoteApproved:
		return false, "Approved: the NTE is now " + nteText(wo.Nte.Amount) + ". To raise it again, the customer must first reject the approved quote."
	case q.QuoteStatus == api.QuoteRejected:
		return true, "The customer rejected the last quote; you may submit a new one. " + nte
	}
	return true, nte
}

// parseQuote validates the form the way the service would, in plain words.
func parseQuote(wo *api.WorkOrder, amountText, reason string) (api.Money, error) {
	amount, err := api.NewMoney(strings.ReplaceAll(amountText, ",", ""), wo.Currency)
	if err != nil || strings.TrimSpace(amountText) == "" {
		return api.Money{}, errors.New("enter the quote amount as a number, e.g. 1850.00")
	}
	if !amount.Amount.IsPositive() {
		return api.Money{}, errors.New("the quote amount must be greater than zero")
	}
	if !amount.FitsMinorUnits() {
		minor := api.MinorUnits(wo.Currency)
		if minor == 0 {
			return api.Money{}, fmt.Errorf("%s amounts have no decimals", wo.Currency)
		}
		return api.Money{}, fmt.Errorf("%s amounts have at most %d decimals", wo.Currency, minor)
	}
	if !wo.Nte.NoLimit() && amount.Amount.LessThanOrEqual(wo.Nte.Amount.Amount) {
		return api.Money{}, fmt.Errorf("the quote must exceed the current NTE of %s", wo.Nte.Amount.Format())
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return api.Money{}, errors.New("a reason is required: tell the customer why the work costs more")
	}
	if len([]rune(reason)) > api.MaxCommentLength {
		return api.Money{}, fmt.Errorf("the reason is %d characters; the service accepts at most %d", len([]rune(reason)), api.MaxCommentLength)
	}
	return amount, nil
}

func (t *quoteTab) onSubmit() {
	wo := t.wo
	amount, err := parseQuote(wo, t.amount.Text, t.reason.Text)
	if err != nil {
		t.d.showError(err)
		return
	}
	if _, err := t.d.store.SubmitQuote(context.Background(), wo.WorkOrderId, amount, strings.TrimSpace(t.reason.Text), t.lines); err != nil {
		t.d.showError(err)
		return
	}
	t.amount.SetText("")
	t.reason.SetText("")
	t.lines = nil
	t.renderLines()
	t.d.queued("Quote " + amount.Format() + " for " + wo.WorkOrderNumber)
}

// prefill opens the form with an amount and lines, e.g. from an invoice over the NTE.
func (t *quoteTab) prefill(amount api.Money, lines []api.LineItem, reason string) {
	t.lines = append([]api.LineItem(nil), lines...)
	for i := range t.lines {
		t.lines[i].Id = 0
	}
	t.renderLines()
	t.amount.SetText(amount.Amount.StringFixed(int32(api.MinorUnits(amount.Currency))))
	if t.reason.Text == "" {
		t.reason.SetText(reason)
	}
}

func (t *quoteTab) loadPriceList() {
	pl, err := t.d.store.PriceList(context.Background(), t.wo.WorkOrderId)
	if err != nil || pl == nil {
		t.priceList = nil
		t.priceSel.Options = nil
		t.priceSel.PlaceHolder = "Price list not loaded yet (it is fetched when online)"
		t.priceSel.Refresh()
		return
	}
	t.priceList = pl
	var opts []string
	for _, it := range pl.Items {
		opts = append(opts, priceItemLabel(it, t.wo.Currency))
	}
	t.priceSel.Options = opts
	t.priceSel.PlaceHolder = "Price list item…"
	t.priceSel.Refresh()
}

func priceItemLabel(it api.PriceListItem, currency string) string {
	s := it.Description + " — " + it.Rate.In(currency).Format()
	if it.Unit != "" {
		s += " / " + it.Unit
	}
	return s
}

func (t *quoteTab) onAddLine() {
	if t.priceList == nil || t.priceSel.SelectedIndex() < 0 {
		t.d.showError(errors.New("pick an item from the price list first"))
		return
	}
	qty, err := decimal.NewFromString(strings.TrimSpace(t.qty.Text))
	if err != nil || !qty.IsPositive() {
		t.d.showError(errors.New("the quantity must be a number greater than zero"))
		return
	}
	it := t.priceList.Items[t.priceSel.SelectedIndex()]
	line := api.LineItem{Type: api.LinePriceList, Description: it.Description, Quantity: qty,
		Rate: it.Rate.In(t.wo.Currency), PriceListItemId: it.Id}
	line.Subtotal = line.ComputedSubtotal()
	t.lines = append(t.lines, line)
	t.renderLines()
	t.amount.SetText(t.linesTotal().Amount.StringFixed(int32(api.MinorUnits(t.wo.Currency))))
}

func (t *quoteTab) linesTotal() api.Money {
	total := api.Money{Currency: t.wo.Currency}
	for _, l := range t.lines {
		total, _ = total.Add(l.ComputedSubtotal())
	}
	return total
}

func (t *quoteTab) renderLines() {
	var objs []fyne.CanvasObject
	for i, l := range t.lines {
		i := i
		remove := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			t.lines = append(t.lines[:i], t.lines[i+1:]...)
			t.renderLines()
		})
		remove.Importance = widget.LowImportance
		text := fmt.Sprintf("%s   %s × %s = %s", l.Description, l.Quantity.String(), l.Rate.Format(), l.ComputedSubtotal().Format())
		objs = append(objs, container.NewBorder(nil, nil, nil, remove, widget.NewLabel(text)))
	}
	t.linesBox.Objects = objs
	t.linesBox.Refresh()
	if len(t.lines) == 0 {
		t.total.SetText("")
	} else {
		t.total.SetText("Lines total " + t.linesTotal().Format() + " (used as the quote amount)")
	}
	t.formBox.Refresh() // a box re-lays out its children only when refreshed itself
}
