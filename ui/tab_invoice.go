package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"reflect"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// invoiceTab builds the invoice from the customer's price list, weighs it
// against the NTE and saves, submits or deletes it through the outbox.
//
// The form edits a copy of the invoice (draft). It is replaced by the
// replica's invoice whenever the person has nothing unsaved and no save is
// on its way, so the service's own numbers and status changes show up; while
// a save waits in the outbox the draft stays on screen, since the replica
// still holds the old invoice until the service answers.
type invoiceTab struct {
	d  *Desk
	wo *api.WorkOrder
	pl *api.PriceList

	stored    *api.Invoice // the replica's invoice; nil when never fetched
	loaded    *api.Invoice // what the draft was last loaded from
	inv       api.Invoice  // the draft on screen
	dirty     bool
	savingRow int64 // the queued save the draft waits for (0 = none)
	rendering bool  // SetText while rebuilding is not an edit

	// drafts keeps, for the session, the unsaved (or still saving) drafts
	// of the work orders the person left for another one, so clicking around
	// the list does not throw their edits away. The open work order's draft
	// lives in the fields above, never in the map.
	drafts map[int64]*invoiceDraft
	fresh  bool // a work order was just opened: restore or load its draft

	scroll *container.Scroll

	hidden *widget.Label
	body   *fyne.Container

	badge    *badge
	details  *widget.Label
	editNote *widget.Label
	unsaved  *widget.Label

	number    *widget.Entry
	date      *dateEntry
	numberLbl *widget.Label // the number and date as text once the invoice takes no changes
	dateLbl   *widget.Label

	linesBox *fyne.Container
	rows     []*lineRow
	noLines  *widget.Label
	plNote   *widget.Label // why the price list cannot be used
	priceSel *widget.Select
	addItem  *widget.Button
	freeType *widget.Select
	addFree  *widget.Button
	addTax   *widget.Button
	freeBox  *fyne.Container
	discount *widget.Entry
	inputErr *widget.Label
	adders   *fyne.Container // everything that adds lines: hidden when nothing may change

	discTitle *widget.Label
	discEntry fyne.CanvasObject // the discount entry in its fixed-width box
	discRow   *fyne.Container

	linesSum *widget.Label
	discLbl  *widget.Label
	total    *widget.Label

	gauge      *widget.ProgressBar
	gaugeShare float64 // total / NTE, uncapped: the bar's own Value stops at 1
	gaugeTheme *nteGaugeTheme
	gaugeBox   *container.ThemeOverride
	nteLbl     *widget.Label
	nteWarn    *widget.Label
	requestNte *widget.Button
	requestRow *fyne.Container

	problems   *widget.Label
	warnings   *widget.Label
	settled    *widget.Label
	save       *widget.Button
	submit     *widget.Button
	del        *widget.Button
	buttons    *fyne.Container
	lastAction *widget.Label
	// submitTried: the person pressed Submit while something was still
	// missing, so the checklist turns red until it is complete.
	submitTried bool

	attBox   *fyne.Container
	attEmpty *widget.Label
	attNote  *widget.Label
	addAtt   *widget.Button
}

// lineRow is the widgets of one invoice line: entries while the invoice
// may change, plain text (the *Lbl fields; the entries nil) once it may not.
type lineRow struct {
	box      fyne.CanvasObject
	desc     *widget.Entry
	kind     *widget.Label
	qty      *widget.Entry
	rate     *widget.Entry
	subtotal *widget.Label
	remove   *widget.Button

	descLbl, qtyLbl, rateLbl *widget.Label
}

// invoiceDraft is a work order's draft set aside while another one is open.
type invoiceDraft struct {
	inv       api.Invoice
	loaded    *api.Invoice
	dirty     bool
	savingRow int64
}

// freeLineTypes are the categories of a line the contractor defines itself.
var freeLineTypes = []api.LineItemType{api.LineLabor, api.LineMaterial, api.LineTravel, api.LineOther}

func newInvoiceTab(d *Desk) *invoiceTab {
	t := &invoiceTab{d: d, drafts: map[int64]*invoiceDraft{}}
	t.hidden = widget.NewLabel("")
	t.hidden.Wrapping = fyne.TextWrapWord
	t.hidden.Importance = widget.WarningImportance

	t.badge = newBadge()
	t.details = widget.NewLabel("")
	t.details.Wrapping = fyne.TextWrapWord
	t.editNote = widget.NewLabel("")
	t.editNote.Wrapping = fyne.TextWrapWord
	t.editNote.Importance = widget.WarningImportance
	// Below the buttons, and its line kept while empty: a note that comes
	// and goes above them would move them under the pointer on every Save.
	t.unsaved = widget.NewLabel("")
	t.unsaved.Importance = widget.WarningImportance

	t.number = widget.NewEntry()
	t.number.SetPlaceHolder("e.g. INV-2026-0142")
	t.number.OnChanged = func(s string) {
		if t.rendering {
			return
		}
		t.inv.InvoiceNumber = strings.TrimSpace(s)
		t.edited()
	}
	t.numberLbl = widget.NewLabel("")
	t.numberLbl.Wrapping = fyne.TextWrapWord
	t.dateLbl = widget.NewLabel("")
	t.date = newDateEntry()
	t.date.OnChanged = func(d *time.Time) {
		if t.rendering {
			return
		}
		t.inv.InvoiceDate = invoiceDateFromLocal(d)
		t.edited()
	}

	t.linesBox = container.NewVBox()
	t.noLines = widget.NewLabel("No lines yet: add items from the price list below.")
	t.noLines.Importance = widget.LowImportance
	t.plNote = widget.NewLabel("")
	t.plNote.Wrapping = fyne.TextWrapWord
	t.plNote.Importance = widget.WarningImportance
	t.plNote.Hide()
	t.priceSel = widget.NewSelect(nil, nil)
	t.priceSel.PlaceHolder = "Price list item…"
	t.addItem = widget.NewButtonWithIcon("Add item", theme.ContentAddIcon(), t.onAddItem)
	var types []string
	for _, ty := range freeLineTypes {
		types = append(types, string(ty))
	}
	t.freeType = widget.NewSelect(types, nil)
	t.freeType.PlaceHolder = widestOption(types) // a Select is as wide as its placeholder
	t.freeType.SetSelectedIndex(0)
	t.addFree = widget.NewButtonWithIcon("Add line", theme.ContentAddIcon(), t.onAddFree)
	t.addTax = widget.NewButtonWithIcon("Add tax line", theme.ContentAddIcon(), t.onAddTax)
	t.freeBox = container.NewHBox(widget.NewLabel("Your own line:"), t.freeType, t.addFree)
	t.discount = widget.NewEntry()
	t.discount.OnChanged = t.onDiscount // its placeholder follows the currency (show)
	t.discTitle = widget.NewLabel("Discount")
	t.inputErr = widget.NewLabel("")
	t.inputErr.Importance = widget.DangerImportance
	t.inputErr.Wrapping = fyne.TextWrapWord

	t.linesSum = widget.NewLabel("")
	t.discLbl = widget.NewLabel("")
	t.total = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})

	t.gauge = widget.NewProgressBar()
	// The bar stops at Max; the words must not, or an overrun reads "100%".
	t.gauge.TextFormatter = func() string { return fmt.Sprintf("%.0f%% of the NTE", t.gaugeShare*100) }
	t.gaugeTheme = &nteGaugeTheme{}
	t.gaugeBox = container.NewThemeOverride(t.gauge, t.gaugeTheme)
	t.nteLbl = widget.NewLabel("")
	t.nteWarn = widget.NewLabel("")
	t.nteWarn.Wrapping = fyne.TextWrapWord
	t.requestNte = widget.NewButtonWithIcon("Request NTE increase", theme.WarningIcon(), t.onRequestNte)
	t.requestNte.Importance = widget.DangerImportance
	t.requestRow = container.NewHBox(t.requestNte)

	t.problems = widget.NewLabel("")
	t.problems.Wrapping = fyne.TextWrapWord
	t.warnings = widget.NewLabel("")
	t.warnings.Wrapping = fyne.TextWrapWord
	t.warnings.Importance = widget.WarningImportance
	t.settled = widget.NewLabel("")
	t.settled.Wrapping = fyne.TextWrapWord
	t.settled.Hide()
	t.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), t.onSave)
	t.submit = widget.NewButtonWithIcon("Submit invoice", theme.MailSendIcon(), t.onSubmit)
	t.submit.Importance = widget.HighImportance
	t.del = widget.NewButtonWithIcon("Delete…", theme.DeleteIcon(), t.onDelete)
	t.lastAction = widget.NewLabel("")
	t.lastAction.Wrapping = fyne.TextWrapWord
	t.buttons = container.NewHBox(t.del, layout.NewSpacer(), t.save, t.submit)

	t.attBox = container.NewVBox()
	t.attEmpty = widget.NewLabel("No files on the invoice.")
	t.attEmpty.Importance = widget.LowImportance
	t.attNote = widget.NewLabel("")
	t.attNote.Importance = widget.LowImportance
	t.attNote.Wrapping = fyne.TextWrapWord
	t.addAtt = widget.NewButtonWithIcon("Add file…", theme.ContentAddIcon(), t.onAddAttachment)
	return t
}

func (t *invoiceTab) title() string       { return "Invoice" }
func (t *invoiceTab) icon() fyne.Resource { return theme.DocumentIcon() }

func (t *invoiceTab) content() fyne.CanvasObject {
	if t.scroll != nil {
		return t.scroll // built once: the widgets can have only one parent
	}
	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
	}
	status := container.NewVBox(container.NewHBox(heading("Invoice"), t.badge), t.details, t.editNote)
	head := widget.NewForm(
		widget.NewFormItem("Invoice number", container.NewStack(t.number, t.numberLbl)),
		widget.NewFormItem("Invoice date", container.NewStack(t.date, t.dateLbl)),
	)
	picker := container.NewBorder(nil, nil, nil, t.addItem, t.priceSel)
	t.adders = container.NewVBox(t.plNote, picker, container.NewHBox(t.freeBox, t.addTax), t.inputErr)
	t.discEntry = fixed(120, t.discount)
	t.discRow = container.NewHBox(layout.NewSpacer(), t.discTitle, t.discEntry, t.discLbl)
	totals := container.NewVBox(
		container.NewHBox(layout.NewSpacer(), t.linesSum),
		t.discRow,
		container.NewHBox(layout.NewSpacer(), t.total),
	)
	nte := container.NewVBox(heading("Against the NTE"), t.nteLbl, t.gaugeBox, t.nteWarn, t.requestRow)
	// What changes when the person saves or submits (the unsaved note, the
	// last action) sits below the buttons, so the buttons stay put.
	actions := container.NewVBox(t.problems, t.warnings, t.settled, t.buttons, t.unsaved, t.lastAction)
	atts := container.NewVBox(
		container.NewBorder(nil, nil, heading("Invoice attachments"), t.addAtt),
		t.attNote, t.attEmpty, t.attBox)
	t.body = container.NewVBox(status, head, widget.NewSeparator(),
		heading("Lines"), t.linesBox, t.noLines, t.adders, totals, widget.NewSeparator(),
		nte, widget.NewSeparator(), actions, widget.NewSeparator(), atts)
	t.scroll = container.NewVScroll(container.NewPadded(container.NewVBox(t.hidden, t.body)))
	return t.scroll
}

func (t *invoiceTab) show(wo *api.WorkOrder) {
	switching := t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId
	if switching {
		t.stashDraft()
	}
	t.wo = wo
	if switching {
		t.dirty, t.savingRow, t.fresh = false, 0, true
		t.submitTried = false
		t.inputErr.SetText("")
		// A JPY discount is "0", not "0.00": the currency's own minor units.
		t.discount.SetPlaceHolder(decimal.Zero.StringFixed(t.minor()))
	}
	if !wo.InvoiceVisible() {
		t.hidden.SetText(fmt.Sprintf("%s was received before service version 4.1 (13 September 2018). "+
			"The service hides the invoice of such work orders until they are Completed (checked out); "+
			"it is %s now. The invoice appears here once the work is completed.", wo.WorkOrderNumber, statusText(wo.Status)))
		t.hidden.Show()
		t.body.Hide()
		return
	}
	t.hidden.Hide()
	t.body.Show()
	ctx := context.Background()
	t.pl, _ = t.d.store.PriceList(ctx, wo.WorkOrderId)
	t.stored = nil
	if inv, err := t.d.store.Invoice(ctx, wo.WorkOrderId); err == nil {
		t.stored = inv
	}
	reload := false
	switch {
	case t.fresh:
		t.fresh = false
		reload = !t.restoreDraft()
	case t.dirty && t.stored != nil && !t.stored.Status.Editable():
		// The service moved the invoice on (submitted, authorized, paid):
		// the edits can no longer be sent, so show what it holds.
		reload = true
	}
	// Reloading rebuilds the line rows, which would take the focus from an
	// entry; skip it when the service's invoice has not changed.
	if reload || !(t.dirty || t.saveInFlight()) && !reflect.DeepEqual(t.stored, t.loaded) {
		t.loadDraft()
	}
	t.renderStatus()
	t.renderAdders()
	t.renderAttachments()
	t.recompute()
	t.relayout()
}

// relayout re-runs the tab's layout: rows, notes and warnings come and go,
// and a Fyne box only re-lays out its children when it is refreshed itself.
func (t *invoiceTab) relayout() {
	if t.body != nil {
		t.body.Refresh()
	}
}

// saveInFlight reports whether the draft waits for a queued save. A refused
// save hands the draft back to the person to fix.
func (t *invoiceTab) saveInFlight() bool {
	if t.savingRow == 0 {
		return false
	}
	row, err := t.d.store.OutboxRow(context.Background(), t.savingRow)
	if err != nil {
		t.savingRow = 0
		return false
	}
	switch row.State {
	case storage.OutboxPending, storage.OutboxSending:
		return true
	case storage.OutboxFailed:
		t.savingRow = 0
		t.dirty = true
		return true
	}
	t.savingRow = 0
	return false
}

// stashDraft sets the open work order's draft aside when it holds edits or
// waits for a save, so coming back to the work order restores it.
func (t *invoiceTab) stashDraft() {
	if t.wo == nil || t.fresh {
		return // nothing was loaded for it (its invoice was hidden)
	}
	id := t.wo.WorkOrderId
	if !t.dirty && t.savingRow == 0 {
		delete(t.drafts, id)
		return
	}
	inv := t.inv
	inv.LineItems = append([]api.LineItem(nil), t.inv.LineItems...)
	t.drafts[id] = &invoiceDraft{inv: inv, loaded: t.loaded, dirty: t.dirty, savingRow: t.savingRow}
}

// restoreDraft puts back the draft set aside for the open work order; false
// when there is none or it may no longer be sent, because the replica's
// invoice has meanwhile moved to a status that takes no changes.
func (t *invoiceTab) restoreDraft() bool {
	id := t.wo.WorkOrderId
	dr, ok := t.drafts[id]
	delete(t.drafts, id)
	if !ok || t.stored != nil && !t.stored.Status.Editable() {
		return false
	}
	t.inv, t.loaded, t.dirty, t.savingRow = dr.inv, dr.loaded, dr.dirty, dr.savingRow
	t.renderDraft()
	return true
}

// loadDraft copies the replica's invoice (or an empty one) into the form.
func (t *invoiceTab) loadDraft() {
	t.dirty = false
	t.loaded = t.stored
	if t.stored != nil {
		t.inv = *t.stored
		t.inv.LineItems = append([]api.LineItem(nil), t.stored.LineItems...)
	} else {
		t.inv = api.Invoice{WorkOrderId: t.wo.WorkOrderId}
	}
	t.inv.Currency = t.wo.Currency
	t.inv.StampCurrency()
	t.renderDraft()
}

// renderDraft fills the form from the draft.
func (t *invoiceTab) renderDraft() {
	t.rendering = true
	t.number.SetText(t.inv.InvoiceNumber)
	t.date.SetDate(invoiceDateToLocal(t.inv.InvoiceDate))
	if t.inv.DiscountAmount.IsZero() {
		t.discount.SetText("")
	} else {
		t.discount.SetText(amountText(t.inv.DiscountAmount.In(t.wo.Currency)))
	}
	t.rendering = false
	t.numberLbl.SetText(orDash(t.inv.InvoiceNumber))
	if d := invoiceDateToLocal(t.inv.InvoiceDate); d != nil {
		t.dateLbl.SetText(d.Format("2 Jan 2006"))
	} else {
		t.dateLbl.SetText("—")
	}
	t.inputErr.SetText("")
	t.rebuildLines()
}

// invoiceDateFromLocal keeps the calendar day picked, as a UTC midnight:
// an invoice date is a day, not an instant, and must not shift by a zone.
func invoiceDateFromLocal(d *time.Time) *time.Time {
	if d == nil {
		return nil
	}
	u := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	return &u
}

func invoiceDateToLocal(d *time.Time) *time.Time {
	if d == nil || d.IsZero() {
		return nil
	}
	u := d.UTC()
	l := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.Local)
	return &l
}

// status is the invoice status as the service last told it; the draft's
// copy may be older.
func (t *invoiceTab) status() api.InvoiceStatus {
	if t.stored != nil {
		return t.stored.Status
	}
	return t.inv.Status
}

// editable says whether the invoice may change now, and why not.
func (t *invoiceTab) editable() (bool, string) {
	if err := t.wo.CanEditInvoice(&api.Invoice{Status: t.status()}); err != nil {
		return false, sentence(err.Error()) + "."
	}
	return true, ""
}

func invoiceStatusColor(s api.InvoiceStatus) color.Color {
	switch s {
	case api.InvoiceSubmitted, api.InvoicePendingVerification:
		return colSubmitted
	case api.InvoiceAuthorized, api.InvoicePaid:
		return colApproved
	case api.InvoiceDisputed:
		return colRejected
	}
	return colNeutral
}

func (t *invoiceTab) renderStatus() {
	st := t.status()
	if st == "" {
		st = api.InvoiceDraft
	}
	t.badge.Set(statusText(st), invoiceStatusColor(st))
	inv := t.stored
	var parts []string
	if inv == nil {
		parts = append(parts, "The invoice has not been fetched from the service yet; it is loaded when the work order is opened while online. What you save replaces the invoice the service holds.")
	} else {
		if inv.AuthNumber != "" {
			parts = append(parts, "Authorization number "+inv.AuthNumber)
		}
		if inv.CheckNumber != "" {
			parts = append(parts, "Check number "+inv.CheckNumber)
		}
		if inv.PaidDate != nil {
			parts = append(parts, "Paid on "+localTime(*inv.PaidDate))
		}
		if inv.SubmissionDeadline != nil && inv.Status.Editable() { // a deadline to submit by, until submitted
			parts = append(parts, "Submit by "+deadlineText(inv.SubmissionDeadline))
		}
		if inv.IsPreBilled || t.wo.IsPreBilled {
			parts = append(parts, "Pre-billed: submitting this invoice is how the work order is accepted")
		}
		if inv.Status == api.InvoiceDisputed && inv.Comment != "" {
			parts = append(parts, "The customer disputes it: "+inv.Comment)
		}
	}
	t.details.SetText(strings.Join(parts, "\n"))
	if len(parts) == 0 {
		t.details.Hide() // an empty label would still leave a gap
	} else {
		t.details.Show()
	}
	ok, why := t.editable()
	// A submitted, authorized or paid invoice is not a fault: only a
	// rejected or recalled work order warrants the warning colour.
	if t.wo.Status == api.StatusRejected || t.wo.Status == api.StatusRecalled {
		t.editNote.Importance = widget.WarningImportance
	} else {
		t.editNote.Importance = widget.MediumImportance
	}
	t.editNote.SetText(why)
	t.editNote.Refresh()
	if ok {
		t.editNote.Hide()
	} else {
		t.editNote.Show()
	}
	for _, w := range []fyne.Disableable{t.number, t.date, t.discount, t.priceSel, t.freeType, t.addFree} {
		setEnabled(w, ok)
	}
	// An invoice that takes no changes is read, not edited: its number,
	// date, lines and totals show as text, not as faint disabled entries,
	// and the controls that could not be used are not shown at all.
	showIf(ok, t.number, t.date, t.adders, t.discTitle, t.discEntry, t.buttons, t.unsaved)
	showIf(!ok, t.numberLbl, t.dateLbl)
	t.renderLastAction()
}

// showIf shows the objects when on holds and hides them otherwise.
func showIf(on bool, objs ...fyne.CanvasObject) {
	for _, o := range objs {
		if on {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

// renderAdders offers the price list and, when the customer allows them,
// the contractor's own lines.
func (t *invoiceTab) renderAdders() {
	var opts []string
	problem := t.pl.CurrencyProblem(t.wo.Currency)
	if t.pl != nil && t.pl.AllowPriceListItems && problem == "" {
		for _, it := range t.pl.Items {
			s := priceItemLabel(it, t.wo.Currency)
			if it.IsRateReadOnly {
				s += " (fixed rate)"
			}
			opts = append(opts, s)
		}
	}
	t.priceSel.Options = opts
	t.priceSel.ClearSelected()
	switch {
	case t.pl == nil:
		// Short: the picker's width is its placeholder's, and it shares a
		// row with "Add item" on a narrow detail pane.
		t.priceSel.PlaceHolder = "Price list not loaded yet (loads online)"
	case !t.pl.AllowPriceListItems:
		t.priceSel.PlaceHolder = "This customer has no price list items"
	case problem != "":
		t.priceSel.PlaceHolder = "Price list not usable here"
	default:
		t.priceSel.PlaceHolder = "Price list item…"
	}
	t.priceSel.Refresh()
	if problem != "" {
		t.plNote.SetText(problem + " Add your own lines instead, or ask the customer to correct the price list.")
		t.plNote.Show()
	} else {
		t.plNote.SetText("")
		t.plNote.Hide()
	}
	ok, _ := t.editable()
	setEnabled(t.addItem, ok && len(opts) > 0)
	if t.pl == nil || t.pl.AllowProviderItems {
		t.freeBox.Show()
	} else {
		t.freeBox.Hide()
	}
}

// priceItem finds the price list entry a line refers to.
func (t *invoiceTab) priceItem(id int64) *api.PriceListItem {
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

func (t *invoiceTab) rateFixed(l api.LineItem) bool {
	it := t.priceItem(l.PriceListItemId)
	return it != nil && it.IsRateReadOnly
}

func (t *invoiceTab) minor() int32 { return int32(api.MinorUnits(t.wo.Currency)) }

// rebuildLines makes one row per line; edits then update rows in place so
// the entry being typed in keeps its focus.
func (t *invoiceTab) rebuildLines() {
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

// lineLayout gives the description its own row, over the category, quantity,
// rate and subtotal: the detail pane is narrow, and a description squeezed
// between four number columns could not be read.
func lineLayout(desc, kind, qty, rate, subtotal, remove fyne.CanvasObject) fyne.CanvasObject {
	h := widget.NewEntry().MinSize().Height
	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	numbers := container.NewHBox(fixed(96, kind), fixed(72, qty), fixed(100, rate), layout.NewSpacer(), fixed(100, subtotal))
	return container.NewVBox(container.NewBorder(nil, nil, nil, fixed(36, remove), desc), numbers)
}

func (t *invoiceTab) newLineRow(i int, editable bool) *lineRow {
	if !editable {
		return t.newLineText(i)
	}
	l := t.inv.LineItems[i]
	r := &lineRow{}
	r.desc = widget.NewEntry()
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
	r.qty = widget.NewEntry()
	r.qty.SetText(l.Quantity.String())
	r.qty.Validator = func(s string) error { _, err := parseQuantity(s); return err }
	r.qty.OnChanged = func(s string) {
		if t.rendering {
			return
		}
		q, err := parseQuantity(s)
		if err != nil {
			t.inputErr.SetText(fmt.Sprintf("Line %d: %v. The line keeps %s until you fix it.", i+1, err, t.inv.LineItems[i].Quantity))
			return
		}
		t.inputErr.SetText("")
		t.inv.LineItems[i].Quantity = q
		t.edited()
	}
	r.rate = widget.NewEntry()
	r.rate.SetText(amountText(l.Rate.In(t.wo.Currency)))
	r.rate.Validator = func(s string) error { _, err := parseRate(s, t.wo.Currency); return err }
	r.rate.OnChanged = func(s string) {
		if t.rendering {
			return
		}
		m, err := parseRate(s, t.wo.Currency)
		if err != nil {
			t.inputErr.SetText(fmt.Sprintf("Line %d: %v. The line keeps %s until you fix it.", i+1, err, t.inv.LineItems[i].Rate.Format()))
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
	setEnabled(r.qty, l.Type != api.LineTax)
	setEnabled(r.rate, !t.rateFixed(l))
	r.box = lineLayout(r.desc, r.kind, r.qty, r.rate, r.subtotal, r.remove)
	return r
}

// newLineText shows line i of an invoice that takes no changes as plain
// text in the same columns as the entries.
func (t *invoiceTab) newLineText(i int) *lineRow {
	l := t.inv.LineItems[i]
	kind := string(l.Type)
	if l.PriceListItemId != 0 {
		kind = "Price list"
	}
	r := &lineRow{
		descLbl:  widget.NewLabel(orDash(l.Description)),
		kind:     widget.NewLabel(kind),
		qtyLbl:   widget.NewLabel(l.Quantity.String()),
		rateLbl:  widget.NewLabel(l.Rate.In(t.wo.Currency).Format()),
		subtotal: widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{}),
	}
	r.descLbl.Wrapping = fyne.TextWrapWord
	r.kind.Truncation = fyne.TextTruncateEllipsis
	r.qtyLbl.Truncation = fyne.TextTruncateEllipsis
	r.rateLbl.Truncation = fyne.TextTruncateEllipsis
	r.box = lineLayout(r.descLbl, r.kind, r.qtyLbl, r.rateLbl, r.subtotal, layout.NewSpacer())
	return r
}

// parseQuantity accepts a decimal above zero (hours may be fractional).
func parseQuantity(s string) (decimal.Decimal, error) {
	q, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Zero, errors.New("the quantity must be a number, e.g. 1.5")
	}
	if !q.IsPositive() {
		return decimal.Zero, errors.New("the quantity must be greater than zero")
	}
	return q, nil
}

// parseRate accepts a non-negative amount with at most the currency's decimals.
func parseRate(s, currency string) (api.Money, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	if s == "" {
		return api.Money{Currency: currency}, nil
	}
	m, err := api.NewMoney(s, currency)
	if err != nil {
		return api.Money{}, errors.New("the amount must be a number, e.g. " + decimal.NewFromInt(85).StringFixed(int32(api.MinorUnits(currency))))
	}
	if m.Amount.IsNegative() {
		return api.Money{}, errors.New("the amount cannot be negative")
	}
	if !m.FitsMinorUnits() {
		if api.MinorUnits(currency) == 0 {
			return api.Money{}, fmt.Errorf("%s amounts have no decimals", currency)
		}
		return api.Money{}, fmt.Errorf("%s amounts have at most %d decimals", currency, api.MinorUnits(currency))
	}
	return m, nil
}

func (t *invoiceTab) onDiscount(s string) {
	if t.rendering {
		return
	}
	m, err := parseRate(s, t.wo.Currency)
	if err != nil {
		t.inputErr.SetText("Discount: " + err.Error() + ". The invoice keeps " + t.inv.DiscountAmount.Format() + " until you fix it.")
		return
	}
	t.inputErr.SetText("")
	t.inv.DiscountAmount = m
	t.edited()
}

func (t *invoiceTab) onAddItem() {
	if problem := t.pl.CurrencyProblem(t.wo.Currency); problem != "" {
		t.d.showError(errors.New(problem))
		return
	}
	i := t.priceSel.SelectedIndex()
	if t.pl == nil || i < 0 || i >= len(t.pl.Items) {
		t.d.showError(errors.New("pick an item from the price list first"))
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

func (t *invoiceTab) onAddFree() {
	kind := api.LineItemType(t.freeType.Selected)
	if kind == "" {
		kind = api.LineLabor
	}
	t.addLine(api.LineItem{Type: kind, Quantity: decimal.NewFromInt(1), Rate: api.Money{Currency: t.wo.Currency}})
}

// onAddTax adds the invoice's one tax line; its rate is the tax amount.
func (t *invoiceTab) onAddTax() {
	t.addLine(api.LineItem{Type: api.LineTax, Description: "Tax", Quantity: decimal.NewFromInt(1), Rate: api.Money{Currency: t.wo.Currency}})
}

func (t *invoiceTab) addLine(l api.LineItem) {
	if ok, why := t.editable(); !ok {
		t.d.showError(errors.New(why))
		return
	}
	l.Subtotal = l.ComputedSubtotal()
	t.inv.LineItems = append(t.inv.LineItems, l)
	t.rebuildLines()
	t.edited()
}

func (t *invoiceTab) edited() {
	t.dirty = true
	t.recompute()
}

// recompute refreshes everything derived from the draft: subtotals, totals,
// the NTE gauge, the submit checks and the buttons.
func (t *invoiceTab) recompute() {
	// The notes below wrap; when one changes, the tab is laid out again or
	// a longer note would run under what follows it. Only then: this runs
	// on every keystroke, and relayout refreshes every widget of the tab.
	notes := func() string {
		return fmt.Sprint(t.problems.Text, t.problems.Visible(), t.warnings.Text, t.warnings.Visible(),
			t.settled.Text, t.nteWarn.Text, t.nteWarn.Visible(), t.requestRow.Visible(), t.discRow.Visible())
	}
	before := notes()
	defer func() {
		if notes() != before {
			t.relayout()
		}
	}()
	cur := t.wo.Currency
	for i, r := range t.rows {
		l := t.inv.LineItems[i]
		l.Rate = l.Rate.In(cur)
		r.subtotal.SetText(l.ComputedSubtotal().Format())
	}
	tt := t.inv.Totals(cur)
	t.inv.TotalAmount = tt.Total
	lines := "Lines " + tt.Lines.Format()
	if !tt.Tax.IsZero() {
		lines += " (tax " + tt.Tax.Format() + ")"
	}
	t.linesSum.SetText(lines)
	if tt.Discount.IsZero() {
		t.discLbl.SetText("")
	} else {
		t.discLbl.SetText("−" + tt.Discount.Format())
	}
	t.total.SetText("Total " + tt.Total.Format() + "  " + cur)
	if ok, _ := t.editable(); !ok {
		// Read, not edited: a discount shows as text, and only if there is one.
		t.discRow.Hidden = tt.Discount.IsZero()
		if !tt.Discount.IsZero() {
			t.discLbl.SetText("Discount −" + tt.Discount.Format())
		}
	} else {
		t.discRow.Hidden = false
	}
	hasTax := false
	for _, l := range t.inv.LineItems {
		hasTax = hasTax || l.Type == api.LineTax
	}
	ok, _ := t.editable()
	// Assumption: no composite tax in the customer's service area, so one
	// tax line at most (the service answers 3042 otherwise).
	setEnabled(t.addTax, ok && !hasTax)

	t.renderNte(tt.Total)

	blocking, warnings := t.checks()
	// Past submission the checks would only say "already submitted" in
	// red; the person has nothing to fix, so say where the invoice stands.
	settled := invoiceSettledText(t.status())
	if settled != "" {
		blocking, warnings = nil, nil
		t.settled.SetText(settled)
		t.settled.Show()
	} else {
		t.settled.SetText("")
		t.settled.Hide()
	}
	if !ok {
		// Nothing can be done here (the editing note says why): no to-do list.
		blocking, warnings = nil, nil
	}
	if t.dirty {
		t.unsaved.SetText("Unsaved changes — Save to send them")
	} else {
		t.unsaved.SetText("") // the line stays: see newInvoiceTab
	}
	if len(blocking) == 0 {
		t.submitTried = false
	}
	t.renderChecklist(blocking)
	// The NTE section already says, once, what to do about an overrun.
	shown := slices.DeleteFunc(slices.Clone(warnings), func(w string) bool { return w == t.wo.OverNteWarning(tt.Total) })
	if len(shown) > 0 {
		t.warnings.SetText("• " + strings.Join(shown, "\n• "))
		t.warnings.Show()
	} else {
		t.warnings.SetText("")
		t.warnings.Hide()
	}
	setEnabled(t.save, ok && t.dirty)
	// Submit stays pressable while something is missing: pressing it turns
	// the checklist red instead of leaving the person guessing at a grey
	// button.
	setEnabled(t.submit, ok && settled == "")
	setEnabled(t.del, ok && t.stored != nil && (len(t.stored.LineItems) > 0 || t.stored.InvoiceNumber != ""))
}

// renderChecklist shows what is still missing before the invoice can be
// submitted: a neutral to-do list while the person works on it, red once
// they pressed Submit and the service would refuse it.
func (t *invoiceTab) renderChecklist(blocking []string) {
	if len(blocking) == 0 {
		t.problems.SetText("")
		t.problems.Hide()
		return
	}
	head := "Before you can submit:"
	t.problems.Importance = widget.MediumImportance
	if t.submitTried {
		head = "Not submitted yet — first:"
		t.problems.Importance = widget.DangerImportance
	}
	t.problems.SetText(head + "\n• " + strings.Join(blocking, "\n• "))
	t.problems.Show()
	t.problems.Refresh()
}

// invoiceSettledText says where an invoice stands once it has left the
// contractor's hands (submitted or further); "" while it may be edited and
// submitted (draft, disputed).
func invoiceSettledText(s api.InvoiceStatus) string {
	if s.Editable() {
		return ""
	}
	if waits := invoiceWaits(s); waits != "" {
		return statusText(s) + " — " + waits + "."
	}
	return statusText(s) + " — the service takes no changes or new submission now."
}

// nteGaugeTheme is the app's theme with another primary colour: the
// ProgressBar draws its bar in the primary colour only, so this is how the
// NTE gauge turns amber near the NTE and red above it. A nil primary keeps
// the app's own. It asks the app's settings on every call, so a light/dark
// switch still reaches the gauge (theme.Current would answer with this
// theme itself while the gauge renders, and recurse).
type nteGaugeTheme struct{ primary color.Color }

func (g *nteGaugeTheme) app() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (g *nteGaugeTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNamePrimary && g.primary != nil {
		return g.primary
	}
	return g.app().Color(n, v)
}
func (g *nteGaugeTheme) Font(s fyne.TextStyle) fyne.Resource     { return g.app().Font(s) }
func (g *nteGaugeTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return g.app().Icon(n) }
func (g *nteGaugeTheme) Size(n fyne.ThemeSizeName) float32       { return g.app().Size(n) }

// nteGaugeColor is the gauge's bar colour for a level: the badge amber from
// nteNearShare on, the badge red above the NTE (both read with white text),
// otherwise the theme's own (nil).
func nteGaugeColor(level api.NteLevel) color.Color {
	switch level {
	case api.NteNear:
		return colRequested
	case api.NteOver:
		return colRejected
	}
	return nil
}

func (t *invoiceTab) renderNte(total api.Money) {
	nte := t.wo.Nte.Amount.In(t.wo.Currency)
	level, share := api.NteStanding(total, nte)
	showIf(false, t.requestRow, t.requestNte)
	t.nteWarn.Importance = widget.WarningImportance
	switch level {
	case api.NteNoLimit:
		t.nteLbl.SetText("NTE: No limit. The customer set no maximum for this work order.")
		t.gaugeBox.Hide()
		t.nteWarn.SetText("")
		t.nteWarn.Hide()
		return
	case api.NteWithin:
		t.nteWarn.SetText("")
		t.nteWarn.Hide()
	case api.NteNear:
		left, _ := nte.Add(api.Money{Amount: total.Amount.Neg(), Currency: nte.Currency})
		msg := fmt.Sprintf("Close to the NTE: the total is %.0f%% of it, %s left.", share*100, left.Format())
		if can, _ := nteIncreaseAdvice(t.wo); can {
			msg += " If the work costs more, request an NTE increase before the invoice passes it."
		}
		t.nteWarn.SetText(msg)
		t.nteWarn.Show()
	case api.NteOver:
		// One message, and the button only when it can be used: never
		// advice the person cannot follow next to a disabled button.
		over := api.Money{Amount: total.Amount.Sub(nte.Amount), Currency: nte.Currency}
		can, advice := nteIncreaseAdvice(t.wo)
		t.nteWarn.Importance = widget.DangerImportance
		t.nteWarn.SetText(fmt.Sprintf("Over the NTE by %s: the customer may refuse this invoice or dispute it later. %s", over.Format(), advice))
		t.nteWarn.Show()
		showIf(can, t.requestRow, t.requestNte)
	}
	if ok, _ := t.editable(); !ok {
		// Advice to ask for more money is for invoices still being written;
		// a submitted, authorized or paid one only shows where it stands.
		t.nteWarn.Hide()
		showIf(false, t.requestRow, t.requestNte)
	}
	t.nteLbl.SetText(fmt.Sprintf("Total %s of the NTE %s", total.Format(), nte.Format()))
	t.gaugeBox.Show()
	t.gaugeShare = share
	t.gaugeTheme.primary = nteGaugeColor(level)
	t.gauge.Value = min(share, 1)
	t.gauge.Refresh() // re-reads the colour and the text even when the capped value stays 1
	t.nteWarn.Refresh()
}

// nteIncreaseAdvice says whether an NTE increase (a quote) can be requested
// now, and what the person can do about an invoice above the NTE: exactly
// one thing they are able to do, never a request they cannot make.
func nteIncreaseAdvice(wo *api.WorkOrder) (bool, string) {
	ok, why := quoteAllowed(wo)
	if ok {
		return true, "Request an NTE increase before you submit: the NTE rises when the customer approves your quote."
	}
	// Messages are refused exactly when the work order is closed to
	// everything (rejected, recalled): then the quote is not the reason.
	if wo.Can(api.SendMessage) == nil {
		switch q := wo.Nte.Quote; {
		case q != nil && q.QuoteStatus == api.QuoteSubmitted:
			return false, "Your quote for an increase is waiting for the customer's decision: if they approve it, the NTE rises. " +
				"Until then, wait, or bring the invoice down to the NTE."
		case q != nil && q.QuoteStatus == api.QuoteApproved:
			return false, "The customer already approved a quote, and another increase can be requested only after the customer rejects that one. " +
				"Bring the invoice down to the NTE, or submit it as it is and let the customer decide."
		}
	}
	return false, why
}

// checks runs the service's submit checks (api) on the draft with the status the service
// last reported (a notification may have moved it while the person typed).
func (t *invoiceTab) checks() (blocking, warnings []string) {
	inv := t.inv
	inv.Status = t.status()
	return t.wo.SubmitChecks(&inv, t.pl)
}

// currentLines is the draft's lines with computed subtotals.
func (t *invoiceTab) currentLines() []api.LineItem {
	out := append([]api.LineItem(nil), t.inv.LineItems...)
	for i := range out {
		out[i].Rate = out[i].Rate.In(t.wo.Currency)
		out[i].Subtotal = out[i].ComputedSubtotal()
	}
	return out
}

// onRequestNte opens the quote form filled with the invoice total and its
// lines, so the customer sees what the extra money is for.
func (t *invoiceTab) onRequestNte() {
	if ok, why := quoteAllowed(t.wo); !ok {
		t.d.showError(errors.New(why))
		return
	}
	var q *quoteTab
	for _, tb := range t.d.detail.tabs {
		if qt, ok := tb.(*quoteTab); ok {
			q = qt
		}
	}
	if q == nil {
		return
	}
	for _, it := range t.d.detail.appTabs.Items {
		if it.Text == q.title() {
			t.d.detail.appTabs.Select(it)
		}
	}
	total := t.inv.Totals(t.wo.Currency).Total
	q.prefill(total, t.currentLines(), "Invoice total exceeds the NTE")
}

// draftForSave is the draft as the service expects it.
func (t *invoiceTab) draftForSave() api.Invoice {
	inv := t.inv
	inv.WorkOrderId = t.wo.WorkOrderId
	inv.Currency = t.wo.Currency
	inv.LineItems = t.currentLines()
	inv.TotalAmount = t.inv.Totals(t.wo.Currency).Total
	return inv
}

// queueSave puts the draft in the outbox; false when storage refused it.
func (t *invoiceTab) queueSave() bool {
	row, err := t.d.store.SaveInvoice(t.d.actionCtx(t.wo.WorkOrderId, storage.GroupInvoice), t.wo.WorkOrderId, t.draftForSave())
	if err != nil {
		t.d.showError(err)
		return false
	}
	t.savingRow = row.Id
	t.dirty = false
	return true
}

func (t *invoiceTab) onSave() {
	if t.inputErr.Text != "" {
		t.d.showError(errors.New("fix the highlighted entry first: " + t.inputErr.Text))
		return
	}
	if t.queueSave() {
		t.d.queued("Invoice of " + t.wo.WorkOrderNumber)
		t.recompute()
		t.renderLastAction()
	}
}

// onSubmit saves unsaved changes first (the outbox sends them in order),
// then queues the submission.
func (t *invoiceTab) onSubmit() {
	if t.inputErr.Text != "" {
		t.d.showError(errors.New("fix the highlighted entry first: " + t.inputErr.Text))
		return
	}
	blocking, warnings := t.checks()
	if len(blocking) > 0 {
		// The service would refuse it: the checklist right above the
		// button turns red and says what is missing.
		t.submitTried = true
		t.renderChecklist(blocking)
		t.relayout()
		return
	}
	doSubmit := func() {
		if t.dirty && !t.queueSave() {
			return
		}
		if _, err := t.d.store.SubmitInvoice(t.d.actionCtx(t.wo.WorkOrderId, storage.GroupInvoice), t.wo.WorkOrderId, false); err != nil {
			t.d.showError(err)
			return
		}
		t.d.queued("Submit invoice of " + t.wo.WorkOrderNumber)
		t.recompute()
		t.renderLastAction()
	}
	if len(warnings) == 0 {
		doSubmit()
		return
	}
	dialog.ShowConfirm("Submit above the NTE?", strings.Join(warnings, "\n")+"\n\nSubmit anyway?",
		func(ok bool) {
			if ok {
				doSubmit()
			}
		}, t.d.win)
}

func (t *invoiceTab) onDelete() {
	dialog.ShowConfirm("Delete the invoice?",
		"Its lines, number and date are removed at the service. Attachments stay. This cannot be undone.",
		func(ok bool) {
			if !ok {
				return
			}
			if _, err := t.d.store.DeleteInvoice(t.d.actionCtx(t.wo.WorkOrderId, storage.GroupInvoice), t.wo.WorkOrderId); err != nil {
				t.d.showError(err)
				return
			}
			t.dirty, t.savingRow = false, 0
			t.d.queued("Delete invoice of " + t.wo.WorkOrderNumber)
			t.recompute()
			t.renderLastAction()
		}, t.d.win)
}

// renderLastAction shows the newest invoice action under the buttons, in
// red when the service refused it (with the service's own message).
func (t *invoiceTab) renderLastAction() {
	text, refused := t.lastInvoiceAction()
	if refused {
		t.lastAction.Importance = widget.DangerImportance
	} else {
		t.lastAction.Importance = widget.MediumImportance
	}
	t.lastAction.SetText(text)
	t.lastAction.Refresh()
}

// lastInvoiceAction describes the newest invoice action on the work order;
// a refusal carries the service's own message.
func (t *invoiceTab) lastInvoiceAction() (text string, refused bool) {
	rows, err := t.d.store.OutboxRows(context.Background(), t.wo.WorkOrderId)
	if err != nil {
		return "", false
	}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.Group != storage.GroupInvoice {
			continue
		}
		text := "Last invoice action: " + actionText(r) + " — " + outboxStateText(r)
		if r.State == storage.OutboxFailed {
			text += " Fix the invoice, then retry, edit or discard this action at the top of the work order."
		}
		return text, r.State == storage.OutboxFailed
	}
	return "", false
}

// renderAttachments lists the invoice's files. Invoices carry a handful, so
// a plain box inside the scrolling tab is enough.
func (t *invoiceTab) renderAttachments() {
	atts, _ := t.d.store.InvoiceAttachments(context.Background(), t.wo.WorkOrderId)
	ok, why := t.editable()
	var objs []fyne.CanvasObject
	for _, a := range atts {
		a := a
		open := widget.NewButtonWithIcon("Open", theme.FileIcon(), func() { t.openAttachment(a) })
		remove := widget.NewButtonWithIcon("Remove…", theme.DeleteIcon(), func() { t.confirmRemove(a) })
		setEnabled(remove, ok)
		label := widget.NewLabel(fmt.Sprintf("%s   ·   %s   ·   %s", a.Name, api.HumanSize(a.Size), localTime(a.Created)))
		label.Truncation = fyne.TextTruncateEllipsis
		objs = append(objs, container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), container.NewHBox(open, remove), label))
	}
	t.attBox.Objects = objs
	t.attBox.Refresh()
	if len(atts) == 0 {
		t.attEmpty.Show()
	} else {
		t.attEmpty.Hide()
	}
	setEnabled(t.addAtt, ok)
	if ok {
		t.attNote.SetText("Files up to 20 MB, e.g. receipts or the signed work ticket.")
	} else {
		t.attNote.SetText("Files cannot be added or removed: " + strings.ToLower(why[:1]) + why[1:])
	}
}

func (t *invoiceTab) onAddAttachment() {
	openFileDialog(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		t.addAttachment(path)
	}, t.d.win)
}

func (t *invoiceTab) addAttachment(path string) {
	if _, err := t.d.store.AddInvoiceAttachment(context.Background(), t.wo.WorkOrderId, path); err != nil {
		t.d.showError(err)
		return
	}
	t.d.queued("File for the invoice of " + t.wo.WorkOrderNumber)
	t.renderLastAction()
}

func (t *invoiceTab) confirmRemove(a api.Attachment) {
	woID := t.wo.WorkOrderId
	dialog.ShowConfirm("Remove "+a.Name+"?", "The file is removed from the invoice at the service.", func(ok bool) {
		if !ok {
			return
		}
		if _, err := t.d.store.RemoveInvoiceAttachment(context.Background(), woID, a.AttachmentId); err != nil {
			t.d.showError(err)
			return
		}
		t.d.queued("Remove " + a.Name)
		t.renderLastAction()
	}, t.d.win)
}

// openAttachment asks for a fresh temporary link and hands it to the
// browser; the link is used once and never kept.
func (t *invoiceTab) openAttachment(a api.Attachment) {
	if t.d.online == nil {
		t.d.showError(errors.New("opening files needs a connection to the service"))
		return
	}
	woID := t.wo.WorkOrderId
	t.d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		link, err := t.d.online.InvoiceAttachmentLink(ctx, woID, a.AttachmentId)
		t.d.do(func() {
			if err != nil {
				t.d.showError(fmt.Errorf("could not get a download link for %s: %w", a.Name, err))
				return
			}
			t.d.openLink(link)
		})
	})
}
