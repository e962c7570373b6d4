package invoice

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/files"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// Tab builds the invoice from the customer's price list, weighs it
// against the NTE and saves, submits or deletes it through the outbox.
//
// The form edits a copy of the invoice (draft). It is replaced by the
// replica's invoice whenever the person has nothing unsaved and no save is
// on its way, so the service's own numbers and status changes show up; while
// a save waits in the outbox the draft stays on screen, since the replica
// still holds the old invoice until the service answers.
type Tab struct {
	replica Replica
	queue   Queue
	links   Links
	win     Window
	other   Elsewhere

	wo *api.WorkOrder
	pl *api.PriceList

	stored    *api.Invoice // the replica's invoice; nil when never fetched
	loaded    *api.Invoice // what the draft was last loaded from
	inv       api.Invoice  // the draft on screen
	dirty     bool
	savingRow int64 // the queued save the draft waits for (0 = none, queueing = being queued)
	rendering bool  // SetText while rebuilding is not an edit

	// drafts keeps, for the session, the unsaved (or still saving) drafts
	// of the work orders the person left for another one, so clicking around
	// the list does not throw their edits away. The open work order's draft
	// lives in the fields above, never in the map.
	drafts map[int64]*invoiceDraft
	fresh  bool // a work order was just opened: restore or load its draft

	scroll  *container.Scroll
	content *fyne.Container // the scroll, and the footer under it

	hidden *widget.Label
	body   *fyne.Container

	badge    *xwidget.Badge
	details  *widget.Label
	editNote *widget.Label
	unsaved  *widget.Label

	number    *xwidget.WheelEntry
	date      *xwidget.DateEntry
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
	discount *xwidget.WheelEntry
	inputErr *widget.Label
	adders   *fyne.Container // everything that adds lines: hidden when nothing may change

	discTitle *widget.Label
	discEntry fyne.CanvasObject // the discount entry in its fixed-width box
	discRow   *fyne.Container

	linesSum *widget.Label
	discLbl  *widget.Label
	total    *widget.Label

	gauge      *xwidget.Gauge
	nteWarn    *widget.Label
	requestNte *widget.Button
	// askMore writes to the customer for more money when no quote can be
	// submitted (one is approved already): the service has no call for it.
	askMore    *widget.Button
	requestRow *fyne.Container

	problems   *widget.Label
	warnings   *widget.Label
	settled    *widget.Label
	save       *widget.Button
	submit     *widget.Button
	del        *widget.Button
	buttons    *fyne.Container // the footer: what is missing, beside Save and Submit
	delRow     *fyne.Container
	lastAction *widget.Label
	// submitTried: the person pressed Submit while something was still
	// missing, so the checklist turns red until it is complete.
	submitTried bool

	files *files.Panel
}

// lineRow is the widgets of one invoice line: entries while the invoice
// may change, plain text (the *Lbl fields; the entries nil) once it may not.
type lineRow struct {
	box      fyne.CanvasObject
	desc     *xwidget.WheelEntry
	kind     *widget.Label
	qty      *xwidget.WheelEntry
	rate     *xwidget.WheelEntry
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

// New makes the tab; Show fills it with a work order.
func New(replica Replica, queue Queue, links Links, win Window, other Elsewhere) *Tab {
	t := &Tab{replica: replica, queue: queue, links: links, win: win, other: other, drafts: map[int64]*invoiceDraft{}}
	t.hidden = widget.NewLabel("")
	t.hidden.Wrapping = fyne.TextWrapWord
	t.hidden.Importance = widget.WarningImportance

	t.badge = xwidget.NewBadge()
	t.details = widget.NewLabel("")
	t.details.Wrapping = fyne.TextWrapWord
	t.editNote = widget.NewLabel("")
	t.editNote.Wrapping = fyne.TextWrapWord
	t.editNote.Importance = widget.WarningImportance
	// Below the buttons, and its line kept while empty: a note that comes
	// and goes above them would move them under the pointer on every Save.
	t.unsaved = widget.NewLabel("")
	t.unsaved.Wrapping = fyne.TextWrapWord
	t.unsaved.Hide()
	t.unsaved.Importance = widget.WarningImportance

	t.number = xwidget.NewWheelEntry(t.form)
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
	t.date = xwidget.NewDateEntry(format.Calendar{})
	// An example day as placeholder read as a date already filled in
	// (issue 38): empty, the field says so.
	t.date.SetPlaceHolder(noDate)
	t.date.Form = t.form
	t.date.OnChanged = func(d *time.Time) {
		if t.rendering {
			return
		}
		t.inv.InvoiceDate = invoiceDateFromLocal(d)
		t.edited()
	}

	t.linesBox = container.NewVBox()
	t.noLines = arrange.Wrapped(widget.NewLabel("No lines yet: add items from the price list below."))
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
	t.freeType.PlaceHolder = arrange.WidestOption(types) // a Select is as wide as its placeholder
	t.freeType.SetSelectedIndex(0)
	t.addFree = widget.NewButtonWithIcon("Add line", theme.ContentAddIcon(), t.onAddFree)
	t.addTax = widget.NewButtonWithIcon("Add tax line", theme.ContentAddIcon(), t.onAddTax)
	t.freeBox = container.NewVBox(widget.NewLabel("Your own line:"), container.NewHBox(t.freeType, t.addFree))
	t.discount = xwidget.NewWheelEntry(t.form)
	t.discount.OnChanged = t.onDiscount // its placeholder follows the currency (show)
	t.discTitle = widget.NewLabel("Discount")
	t.inputErr = widget.NewLabel("")
	t.inputErr.Importance = widget.DangerImportance
	t.inputErr.Wrapping = fyne.TextWrapWord

	t.linesSum = widget.NewLabel("")
	t.discLbl = widget.NewLabel("")
	t.total = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})

	t.gauge = newNteGauge()
	t.nteWarn = widget.NewLabel("")
	t.nteWarn.Wrapping = fyne.TextWrapWord
	t.requestNte = widget.NewButtonWithIcon("Request NTE increase", theme.WarningIcon(), t.onRequestNte)
	t.requestNte.Importance = widget.DangerImportance
	t.askMore = widget.NewButtonWithIcon("Ask the customer for more…", theme.MailComposeIcon(), t.onAskMore)
	t.requestRow = container.NewHBox(t.requestNte, t.askMore)

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
	// Save and Submit stay at the foot of the tab, outside its scroll,
	// with what is still missing right above them: on a window of any
	// height the person sees why Submit would not go without scrolling
	// down to it. The list takes the footer's width (beside the buttons,
	// in a detail pane 400 px wide, it wrapped to seven lines), and so
	// does the unsaved note over it, shown only while something is unsaved:
	// beside the buttons, at 1024x700, it wrapped to five lines and
	// stretched Save and Submit into tall blocks. The footer sits at the
	// foot of the tab, so the buttons stay put as the note comes and goes.
	t.buttons = container.NewVBox(widget.NewSeparator(), t.unsaved, t.problems,
		container.NewHBox(layout.NewSpacer(), t.save, t.submit))
	// Delete… apart from them, in the form: it is rarely wanted, and on a
	// narrow pane the three in a row made the tab the widest of the detail.
	t.delRow = container.NewHBox(t.del)

	// Inline: an invoice carries a handful of files, and the tab scrolls.
	t.files = files.NewPanel(win, replica, true, arrange.Heading("Invoice attachments"))
	t.files.NoPlace = "files can be added to the invoice once the service shows it"
	return t
}

// form is the invoice's scroll: the wheel moves it over the fields too.
func (t *Tab) form() *container.Scroll { return t.scroll }

// Title and Icon name the tab in the detail's tab bar.
func (t *Tab) Title() string { return "Invoice" }

// SaveButton is the draft's Save, which Ctrl+S presses.
func (t *Tab) SaveButton() *widget.Button { return t.save }

func (t *Tab) Icon() fyne.Resource { return theme.DocumentIcon() }

// Content is the tab, built once.
func (t *Tab) Content() fyne.CanvasObject {
	if t.content != nil {
		return t.content // built once: the widgets can have only one parent
	}
	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
	}
	status := container.NewVBox(container.NewHBox(arrange.Heading("Invoice"), t.badge), t.details, t.editNote)
	// Each label above its field on a narrow pane, where beside it the
	// whole date did not fit (issue 38).
	head := arrange.NewFields(
		widget.NewLabel("Invoice number"), container.NewStack(t.number, t.numberLbl),
		widget.NewLabel("Invoice date"), container.NewStack(t.date, t.dateLbl),
	)
	// The item on a row of its own, as on the Quote tab: its name and rate
	// need the width a narrow detail pane has.
	picker := container.NewVBox(t.priceSel, container.NewHBox(t.addItem))
	// The tax line on a row of its own: beside the free line it made the
	// tab the widest of the detail on a 1024-pixel laptop.
	t.adders = container.NewVBox(t.plNote, picker, t.freeBox, container.NewHBox(t.addTax), t.inputErr)
	t.discEntry = fixed(120, t.discount)
	t.discRow = container.NewHBox(layout.NewSpacer(), t.discTitle, t.discEntry, t.discLbl)
	totals := container.NewVBox(
		container.NewHBox(layout.NewSpacer(), t.linesSum),
		t.discRow,
		container.NewHBox(layout.NewSpacer(), t.total),
	)
	nte := container.NewVBox(arrange.Heading("Against the NTE"), t.gauge, t.nteWarn, t.requestRow)
	actions := container.NewVBox(t.warnings, t.settled, t.delRow, t.lastAction)
	t.body = container.NewVBox(status, head, widget.NewSeparator(),
		arrange.Heading("Lines"), t.linesBox, t.noLines, t.adders, totals, widget.NewSeparator(),
		nte, widget.NewSeparator(), actions, widget.NewSeparator(), t.files)
	t.scroll = container.NewVScroll(container.NewPadded(container.NewVBox(t.hidden, t.body)))
	t.content = container.NewBorder(nil, container.NewPadded(t.buttons), nil, nil, t.scroll)
	head.Layout.(*arrange.Fields).OnStackedChanged = func() { arrange.Relayout(t.body) }
	return t.content
}

// noDate is what the invoice date reads while it is not set.
const noDate = "Not set: type or pick a day"

// Show fills the tab with wo, whenever it is opened or changes: another
// work order's unsaved draft is set aside for when it comes back.
func (t *Tab) Show(wo *api.WorkOrder) {
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
			"it is %s now. The invoice appears here once the work is completed.", wo.WorkOrderNumber, format.Status(wo.Status)))
		t.hidden.Show()
		t.body.Hide()
		t.buttons.Hide()
		t.files.SetPlace(nil) // a drop here must not reach the invoice shown before
		return
	}
	t.hidden.Hide()
	t.body.Show()
	ctx := context.Background()
	t.pl, _ = t.replica.PriceList(ctx, wo.WorkOrderId)
	t.stored = nil
	if inv, err := t.replica.Invoice(ctx, wo.WorkOrderId); err == nil {
		t.stored = inv
	}
	reload := false
	switch {
	case t.fresh:
		t.fresh = false
		reload = !t.restoreDraft()
	case t.stored != nil && !t.stored.Status.Editable():
		// The service moved the invoice on (submitted, authorized, paid):
		// the edits can no longer be sent, so show what it holds, also
		// while the save that went with the submission is still being
		// queued (the sender can deliver both before Act hands back: the
		// form then kept its entries and an empty number and date).
		reload = t.dirty || !reflect.DeepEqual(t.stored, t.loaded)
	}
	// Reloading rebuilds the line rows, which would take the focus from an
	// entry; skip it when the service's invoice has not changed.
	if reload || !(t.dirty || t.saveInFlight()) && !reflect.DeepEqual(t.stored, t.loaded) {
		t.loadDraft()
	}
	t.renderStatus()
	t.renderAdders()
	t.files.SetPlace(t.invoicePlace())
	t.recompute()
	t.relayout()
}

// relayout re-runs the tab's layout: rows, notes and warnings come and go,
// and a Fyne box only re-lays out its children when it is refreshed or
// resized itself.
func (t *Tab) relayout() {
	if t.body != nil {
		arrange.Relayout(t.content) // the footer's list may have grown
		arrange.Relayout(t.body)
	}
}

// saveInFlight reports whether the draft waits for a queued save. A refused
// save hands the draft back to the person to fix.
func (t *Tab) saveInFlight() bool {
	switch t.savingRow {
	case 0:
		return false
	case queueing:
		return true
	}
	row, err := t.replica.OutboxRow(context.Background(), t.savingRow)
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
func (t *Tab) stashDraft() {
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
func (t *Tab) restoreDraft() bool {
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
func (t *Tab) loadDraft() {
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
func (t *Tab) renderDraft() {
	t.rendering = true
	t.number.SetText(t.inv.InvoiceNumber)
	t.date.SetDate(invoiceDateToLocal(t.inv.InvoiceDate))
	if t.inv.DiscountAmount.IsZero() {
		t.discount.SetText("")
	} else {
		t.discount.SetText(format.Amount(t.inv.DiscountAmount.In(t.wo.Currency)))
	}
	t.rendering = false
	t.numberLbl.SetText(format.OrDash(t.inv.InvoiceNumber))
	if d := invoiceDateToLocal(t.inv.InvoiceDate); d != nil {
		t.dateLbl.SetText(format.Day(*d))
	} else {
		t.dateLbl.SetText("—")
	}
	t.inputErr.SetText("")
	t.rebuildLines()
}

// invoicePlace is the invoice's files as the attachment panel needs them:
// read from the replica, added and removed only while the invoice may change.
func (t *Tab) invoicePlace() *files.Place {
	ok, why := t.editable()
	note, whyNot := "Files up to 20 MB, e.g. receipts or the signed work ticket.", ""
	if !ok {
		note, whyNot = "Files cannot be added or removed: "+strings.ToLower(why[:1])+why[1:], why
	}
	replica, queue, links, woID := t.replica, t.queue, t.links, t.wo.WorkOrderId
	return &files.Place{
		Key: fmt.Sprintf("invoice %d", woID), WoID: woID, What: "the invoice of " + t.wo.WorkOrderNumber, From: "the invoice",
		Note: note, Empty: "No files on the invoice.", WhyNot: whyNot, CanRemove: ok,
		List: func(ctx context.Context) ([]api.Attachment, error) { return replica.InvoiceAttachments(ctx, woID) },
		Add: func(path string) func(context.Context) error {
			return func(ctx context.Context) error { _, err := queue.AddInvoiceAttachment(ctx, woID, path); return err }
		},
		Remove: func(id string) func(context.Context) error {
			return func(ctx context.Context) error { _, err := queue.RemoveInvoiceAttachment(ctx, woID, id); return err }
		},
		Link: func(ctx context.Context, id string) (api.DownloadURL, error) {
			return links.InvoiceAttachmentLink(ctx, woID, id)
		},
		Mine: func(r storage.OutboxRow) bool {
			return r.Touches.Has(outbox.InvoiceAttachments)
		},
	}
}

// AddFiles attaches files dropped on the window while the tab is shown.
func (t *Tab) AddFiles(paths []string) { t.files.AddFiles(paths) }
