package quote

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
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// Tab shows the current quote and the form to ask for a higher NTE.
// While the form holds line items the amount is their total, kept in step as
// lines come and go and quantities change; without lines it is typed.
type Tab struct {
	replica Replica
	queue   Queue
	win     Window

	wo *api.WorkOrder

	current *widget.Label
	badge   *xwidget.Badge
	explain *widget.Label
	// copyRejected fills the form with the quote the customer rejected,
	// to change what they objected to rather than type it all again.
	copyRejected *widget.Button
	tryAgain     *widget.Button // shown where the service refused quotes (3004)

	amount     *widget.Entry
	amountNote *widget.Label // "the total of the lines" while there are lines
	carryNote  string        // what a pre-fill could not carry over (an invoice discount)
	reason     *dialogs.Entry
	priceSel   *widget.Select
	plNote     *widget.Label // why the price list cannot be used
	qty        *widget.Entry
	addLine    *widget.Button
	lines      []api.LineItem
	lineRows   []quoteLineRow
	lineErr    *widget.Label
	linesBox   *fyne.Container
	total      *widget.Label
	submit     *widget.Button
	formBox    *fyne.Container
	top        *fyne.Container
	priceList  *api.PriceList
}

// quoteLineRow is the widgets of one quote line that change in place.
type quoteLineRow struct {
	qty      *widget.Entry
	subtotal *widget.Label
}

// New is the tab, reading replica, queueing quotes on queue and acting
// through win.
func New(replica Replica, queue Queue, win Window) *Tab {
	t := &Tab{replica: replica, queue: queue, win: win}
	t.current = widget.NewLabel("")
	t.current.Wrapping = fyne.TextWrapWord
	t.badge = xwidget.NewBadge()
	t.explain = widget.NewLabel("")
	t.explain.Wrapping = fyne.TextWrapWord
	t.copyRejected = widget.NewButtonWithIcon("Copy into a new quote", theme.ContentCopyIcon(), t.onCopyRejected)
	t.copyRejected.Hide()
	t.tryAgain = newTryQuotesAgain(t)

	t.amount = widget.NewEntry()
	t.amount.SetPlaceHolder("e.g. " + amountExample("USD"))
	// While there are lines it stands in for the amount entry: the total
	// in the work order's currency, in the text colour, not a faint
	// disabled "1710.00".
	t.amountNote = widget.NewLabel("")
	t.amountNote.Wrapping = fyne.TextWrapWord
	t.amountNote.Hide()
	t.reason = dialogs.NewMultiLineEntry() // Tab moves on from it
	t.reason.SetPlaceHolder("Why the work costs more than the NTE (required)")
	t.reason.SetMinRowsVisible(3)
	t.reason.Wrapping = fyne.TextWrapWord
	t.priceSel = widget.NewSelect(nil, nil)
	t.priceSel.PlaceHolder = "Price list item…"
	t.plNote = widget.NewLabel("")
	t.plNote.Wrapping = fyne.TextWrapWord
	t.plNote.Importance = widget.WarningImportance
	t.plNote.Hide()
	t.qty = widget.NewEntry()
	t.qty.SetText("1")
	t.addLine = widget.NewButtonWithIcon("Add line", theme.ContentAddIcon(), t.onAddLine)
	t.lineErr = widget.NewLabel("")
	t.lineErr.Wrapping = fyne.TextWrapWord
	t.lineErr.Importance = widget.DangerImportance
	t.lineErr.Hide()
	t.linesBox = container.NewVBox()
	t.total = widget.NewLabel("")
	t.submit = widget.NewButtonWithIcon("Submit quote", theme.MailSendIcon(), t.onSubmit)
	t.submit.Importance = widget.HighImportance

	form := widget.NewForm(
		widget.NewFormItem("Amount", container.NewVBox(t.amount, t.amountNote)),
		widget.NewFormItem("Reason", t.reason),
	)
	// The item on a row of its own: its name and rate need the width a
	// narrow detail pane has.
	picker := container.NewVBox(t.priceSel,
		container.NewHBox(widget.NewLabel("Qty"), container.NewGridWrap(fyne.NewSize(70, t.qty.MinSize().Height), t.qty), t.addLine))
	t.formBox = container.NewVBox(
		arrange.Heading("Submit a quote"), form,
		arrange.WrappedHeading("Line items (optional, from the customer's price list)"), t.plNote, picker, t.linesBox, t.lineErr, t.total,
		container.NewHBox(layout.NewSpacer(), t.submit),
	)
	return t
}

func (t *Tab) Title() string       { return "Quote" }
func (t *Tab) Icon() fyne.Resource { return theme.DocumentCreateIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	t.top = container.NewVBox(container.NewHBox(arrange.Heading("Current quote"), t.badge), t.current, t.explain,
		container.NewHBox(t.copyRejected, t.tryAgain), widget.NewSeparator())
	return container.NewVScroll(container.NewPadded(container.NewVBox(t.top, t.formBox)))
}

func (t *Tab) Show(wo *api.WorkOrder) {
	switching := t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId
	t.wo = wo
	t.amount.SetPlaceHolder("e.g. " + quoteExample(wo))
	q := wo.Nte.Quote
	if q == nil {
		t.badge.Set("", nil)
		t.current.SetText("No quote on this work order.")
	} else {
		t.badge.Set(format.Status(q.QuoteStatus), palette.Quote(q.QuoteStatus))
		text := format.Money(q.Amount)
		if q.QuoteStatus == api.QuoteRequested && q.Amount.IsZero() {
			text = "Requested by the customer"
		}
		reasons := ""
		if q.QuoteStatus == api.QuoteRejected {
			reasons = t.rejectionReasons(wo, q) // the customer's and ours, each labelled
		} else if q.Comment != "" {
			text += " — " + q.Comment
		}
		for _, l := range q.LineItems {
			l.Rate = l.Rate.In(wo.Currency)
			text += fmt.Sprintf("\n•  %s: %s × %s = %s", l.Description, l.Quantity, format.Money(l.Rate), format.Money(l.ComputedSubtotal()))
		}
		if reasons != "" {
			text += "\n" + reasons
		}
		t.current.SetText(text)
	}
	t.Gate(wo)
	if switching {
		t.clearForm()
	}
	t.loadPriceList()
	t.renderLines()
	t.top.Refresh()
}

// Allowed says whether a new quote can be submitted now (the rule is
// api's Can), and why or why not: the Invoice tab offers a quote by it too.
func Allowed(wo *api.WorkOrder) (bool, string) {
	if err := wo.Can(api.SubmitQuote); err != nil {
		return false, format.Capital(err.Error()) + "."
	}
	nte := "The NTE is " + format.Nte(wo.Nte.Amount) + "."
	if wo.Nte.NoLimit() {
		nte = "NTE: no limit (the customer set no maximum)."
	}
	q := wo.Nte.Quote
	switch {
	case q == nil:
		return true, nte + " If the work will cost more, submit a quote; the NTE rises only when the customer approves it."
	case q.QuoteStatus == api.QuoteRequested:
		return true, "The customer asked for a quote and is waiting for your answer. " + nte
	case q.QuoteStatus == api.QuoteRejected:
		return true, "The customer rejected the last quote; you may submit a new one. " + nte
	}
	return true, nte
}

// parseQuote validates the typed form the way the service would, in plain words.
func parseQuote(wo *api.WorkOrder, typed, reason string) (api.Money, error) {
	amount, err := api.NewMoney(strings.ReplaceAll(typed, ",", ""), wo.Currency)
	if err != nil || strings.TrimSpace(typed) == "" {
		return api.Money{}, errors.New("enter the quote amount as a number, e.g. " + quoteExample(wo))
	}
	if err := checkQuote(wo, amount, reason, false); err != nil {
		return api.Money{}, err
	}
	return amount, nil
}

// checkQuote is what the service asks of a quote's amount and reason
// (api's CheckQuote); fromLines words the NTE refusal for an amount made of lines.
func checkQuote(wo *api.WorkOrder, amount api.Money, reason string, fromLines bool) error {
	return wo.CheckQuote(amount, strings.TrimSpace(reason), nil, fromLines)
}

func (t *Tab) onSubmit() {
	wo := t.wo
	var amount api.Money
	var err error
	if len(t.lines) > 0 {
		// With lines the quote is their total: the amount entry is not read.
		if t.lineErr.Text != "" {
			t.win.ShowError(dialogs.NotYet("fix the line items first: " + t.lineErr.Text))
			return
		}
		if amount, err = t.linesTotal(); err == nil {
			err = checkQuote(wo, amount, t.reason.Text, true)
		}
	} else {
		amount, err = parseQuote(wo, t.amount.Text, t.reason.Text)
	}
	if err != nil {
		t.win.ShowError(err)
		return
	}
	queue, woID, reason, lines := t.queue, wo.WorkOrderId, strings.TrimSpace(t.reason.Text), append([]api.LineItem(nil), t.lines...)
	rctx := t.win.Replacing(woID, outbox.GroupQuote) // read now: a correction replaces the refused one
	t.win.Act([]fyne.Disableable{t.submit}, func(context.Context) error {
		_, err := queue.SubmitQuote(rctx, woID, amount, reason, lines)
		return err
	}, func(err error) {
		if err != nil {
			t.win.ShowError(err)
			return
		}
		if t.wo != nil && t.wo.WorkOrderId == woID {
			t.clearForm()
		}
		t.win.Queued("Quote " + format.Money(amount) + " for " + wo.WorkOrderNumber)
	})
}

// clearForm empties the form for a new quote: no amount, reason or lines,
// and no price list item picked (another work order's item, or its
// quantity, is never offered).
func (t *Tab) clearForm() {
	t.amount.SetText("")
	t.reason.SetText("")
	t.priceSel.ClearSelected()
	t.qty.SetText("1")
	t.lines = nil
	t.carryNote = ""
	t.renderLines()
}

// onCopyRejected fills the form with the rejected quote: its lines (their
// total is the amount) or its amount, and its reason, for the person to
// change what the customer objected to.
func (t *Tab) onCopyRejected() {
	q := t.wo.Nte.Quote
	if q == nil {
		return
	}
	t.clearForm()
	lines := append([]api.LineItem(nil), q.LineItems...)
	for i := range lines {
		lines[i].Rate = lines[i].Rate.In(t.wo.Currency)
	}
	// Our own reason (when this window sent the quote), never the
	// customer's: Quote.Comment is their reason for rejecting it once
	// rejected, so it is not carried over.
	t.Prefill(q.Amount, lines, t.ourQuoteReason(t.wo.WorkOrderId))
}

// Prefill opens the form with lines (their total becomes the amount) or,
// without lines, an amount; e.g. from an invoice over the NTE.
func (t *Tab) Prefill(amount api.Money, lines []api.LineItem, reason string) {
	t.lines = append([]api.LineItem(nil), lines...)
	for i := range t.lines {
		t.lines[i].Id = 0
	}
	t.carryNote = ""
	if len(t.lines) == 0 {
		t.amount.SetText(format.Amount(amount))
	} else if total, err := t.linesTotal(); err == nil && !total.Amount.Equal(amount.Amount) {
		// A quote has an amount and lines, no discount: the lines' total
		// is asked for, and the person is told why it is not the amount
		// they came with.
		t.carryNote = fmt.Sprintf("The invoice comes to %s after its discount; a quote has no discount line, so it asks for the lines' total of %s.", format.Money(amount), format.Money(total))
	}
	t.renderLines()
	if t.reason.Text == "" {
		t.reason.SetText(reason)
	}
	t.Gate(t.wo) // Edit of a refused quote opens the form, wherever it was closed
}

// amountExample is a plausible amount to type in currency, with its own
// number of decimals.
func amountExample(currency string) string {
	minor := api.MinorUnits(currency)
	if minor == 0 {
		return "185000"
	}
	return decimal.NewFromInt(1850).StringFixed(int32(minor))
}

// quoteExample is an amount the quote form would take for wo: above its
// NTE (a quote must exceed it), a round figure about a fifth higher.
func quoteExample(wo *api.WorkOrder) string {
	if wo.Nte.NoLimit() {
		return amountExample(wo.Currency)
	}
	target := wo.Nte.Amount.Amount.Mul(decimal.NewFromFloat(1.2))
	step := decimal.New(1, int32(max(len(target.Truncate(0).String())-2, 0)))
	rounded := target.Div(step).Ceil().Mul(step)
	if !rounded.GreaterThan(wo.Nte.Amount.Amount) {
		rounded = rounded.Add(step)
	}
	return rounded.StringFixed(int32(api.MinorUnits(wo.Currency)))
}

// HoldsOther reports whether the quote form holds an amount, reason or
// lines other than the refused quote's d.
func (t *Tab) HoldsOther(d *outbox.Draft) bool {
	reason := strings.TrimSpace(t.reason.Text)
	if strings.TrimSpace(t.amount.Text) == "" && reason == "" && len(t.lines) == 0 {
		return false
	}
	if reason != strings.TrimSpace(d.Text) || len(t.lines) != len(d.Lines) {
		return true
	}
	if len(t.lines) == 0 {
		return strings.TrimSpace(t.amount.Text) != format.Amount(d.Amount)
	}
	for i, l := range t.lines {
		if lineKey(l) != lineKey(d.Lines[i]) {
			return true
		}
	}
	return false
}

// EditDraft fills the form with the refused quote d, for the person to
// correct: what the form held is cleared first.
func (t *Tab) EditDraft(d *outbox.Draft) {
	t.clearForm()
	t.Prefill(d.Amount, d.Lines, d.Text)
}

// lineKey is what the person sets of a line, to compare two.
func lineKey(l api.LineItem) string {
	return fmt.Sprintf("%s|%s|%s|%s|%d", l.Type, l.Description, l.Quantity, l.Rate.Amount, l.PriceListItemId)
}
