package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/pending"
	"github.com/workorderdesk/workdesk/ui/procedures"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// tab is one page of the detail view; Show is called with the work order
// whenever it is opened or changes. Its methods are exported so that a view
// in a package of its own (ui/invoice) is one.
type tab interface {
	Title() string
	Icon() fyne.Resource
	Content() fyne.CanvasObject
	Show(wo *api.WorkOrder)
}

// detailView is the right pane: the selected work order's header and tabs.
type detailView struct {
	d *Desk
	// wo is the open work order as the person will see it once its queued
	// actions are sent (pending.Expected): what the tabs show and ask.
	wo      *api.WorkOrder
	pending *storage.Pending

	number    *widget.RichText // a heading that follows the theme (dark mode)
	titleRow  *fyne.Container  // number and badges: re-laid out when they change size
	status    *xwidget.Badge
	quote     *xwidget.Badge
	invoice   *xwidget.Badge // where the invoice stands once submitted (the work order stays Checked out)
	header    *fyne.Container
	where     *widget.Label
	colleague *widget.Label   // office mode: a colleague changed it lately
	colRow    *fyne.Container // the colleague line with its icon; hidden when none
	notice    *widget.Label   // why the customer closed it (recalled, on hold); hidden when not
	outbox    *pending.Header // the actions waiting in the outbox, and those refused
	nte       *widget.Label
	accept    *widget.Button
	reject    *widget.Button
	tabs      []tab
	appTabs   *container.AppTabs
	tabsFit   *tabsFit
	empty     fyne.CanvasObject
	body      *fyne.Container
	container *fyne.Container
	scroller  *container.Scroll
}

func newDetailView(d *Desk, tabs []tab) *detailView {
	v := &detailView{d: d, tabs: tabs}
	v.number = widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleSubHeading})
	v.status, v.quote, v.invoice = xwidget.NewBadge(), xwidget.NewBadge(), xwidget.NewBadge()
	v.where = widget.NewLabel("")
	v.where.Truncation = fyne.TextTruncateEllipsis
	v.colleague = widget.NewLabel("")
	v.colleague.Wrapping = fyne.TextWrapWord // a line of its own, never cut short
	v.colleague.Importance = widget.HighImportance
	v.colRow = container.NewBorder(nil, nil, widget.NewIcon(theme.AccountIcon()), nil, v.colleague)
	v.colRow.Hide()
	v.notice = arrange.Wrapped(widget.NewLabel(""))
	v.notice.Importance = widget.WarningImportance
	v.notice.Hide()
	v.outbox = pending.New(d.store, host{d})
	v.nte = widget.NewLabel("")
	v.nte.TextStyle.Bold = true
	v.accept = widget.NewButtonWithIcon("Accept", theme.ConfirmIcon(), func() { d.decision.Accept(v.wo) })
	v.accept.Importance = widget.HighImportance
	v.reject = widget.NewButtonWithIcon("Reject…", theme.CancelIcon(), func() { d.decision.ShowReject([]int64{v.wo.WorkOrderId}) })
	v.reject.Importance = widget.DangerImportance

	// The badges wrap under the number on a narrow pane (a 960-pixel
	// window) rather than widen it.
	v.titleRow = arrange.NewWrapRow(v.number, v.status, v.quote)
	var items []*container.TabItem
	for _, t := range tabs {
		items = append(items, container.NewTabItemWithIcon(t.Title(), t.Icon(), t.Content()))
	}
	v.appTabs = container.NewAppTabs(items...)
	// Eight tabs do not fit across the detail pane; down its side they all
	// show, and the pane is taller than it is wide.
	v.appTabs.SetTabLocation(container.TabLocationLeading)
	v.appTabs.OnSelected = func(*container.TabItem) { v.tabOpened() }

	v.invoice.Hide()
	header := container.NewBorder(nil, nil, nil,
		container.NewVBox(container.NewHBox(widget.NewLabel("NTE:"), v.nte), container.NewHBox(layout.NewSpacer(), v.invoice, v.accept, v.reject)),
		container.NewVBox(v.titleRow, v.where, v.colRow))
	v.header = header
	card := container.NewStack(xwidget.NewThemedFill(theme.ColorNameHeaderBackground),
		container.NewPadded(container.NewVBox(header, v.notice, v.outbox.Queued(), v.outbox.Refused())))
	fit, bar := newTabsFit(v.appTabs)
	v.tabsFit = fit
	v.body = container.NewBorder(card, nil, nil, nil, bar)
	v.titleRow.Layout.(*arrange.WrapRow).OnRowsChanged = func() { arrange.Relayout(v.body) }

	hint := widget.NewLabelWithStyle("Select a work order on the left to see it here.\nIn the list, the Up and Down keys move and Enter opens; "+shortcutLabel("F")+" searches.",
		fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	v.empty = container.NewCenter(hint)
	v.container = container.NewStack(v.empty)
	v.scroller = container.NewHScroll(v.container)
	return v
}

// content never asks the window for width: whatever a tab shows (a long
// file name, a wide invoice line), the window keeps the size the person
// gave it and the pane scrolls sideways instead of growing.
func (v *detailView) content() fyne.CanvasObject { return v.scroller }

// needs is the width the open work order's tabs take without scrolling
// sideways; 0 when none is open.
func (v *detailView) needs() float32 {
	if len(v.container.Objects) == 0 || v.container.Objects[0] != v.body {
		return 0
	}
	return v.body.MinSize().Width
}

// wants is the width the detail is laid out for: its tab bar, named or
// compact, beside arrange.TabWidth.
func (v *detailView) wants(compact bool) float32 {
	return v.tabsFit.stripWidth(compact) + arrange.TabWidth
}

// showTab selects the tab titled title (named or not: a compact bar shows
// icons only); false when there is none.
func (v *detailView) showTab(title string) bool {
	for i, t := range v.tabs {
		if t.Title() == title {
			v.appTabs.SelectIndex(i)
			return true
		}
	}
	return false
}

// selectedTab is the tab shown, nil when none.
func (v *detailView) selectedTab() tab {
	if i := v.appTabs.SelectedIndex(); i >= 0 && i < len(v.tabs) {
		return v.tabs[i]
	}
	return nil
}

// open shows work order id read from the replica, with its outbox.
func (v *detailView) open(id int64) {
	p, err := v.d.store.Pending(context.Background(), id)
	if err != nil {
		v.d.showError(fmt.Errorf("opening work order %d: %w", id, err))
		return
	}
	v.show(p)
	v.d.refreshDetails(id)
	v.tabOpened()
}

// tabOpened re-reads what the tab shown reads from the service beyond the
// work order: the Procedures tab, GET /api/procedure.
func (v *detailView) tabOpened() {
	if _, ok := v.selectedTab().(*procedures.Tab); ok && v.wo != nil {
		v.d.refreshProcedures(v.wo.WorkOrderId)
	}
}

// show renders the work order in the header and every tab, keeping the
// current tab. The status and the buttons are those its queued actions
// will give it, marked as queued until the service has them. Another work
// order starts every tab at its top; the same one, refreshed in place (a
// notification, a sync), keeps where the person had scrolled.
func (v *detailView) show(p *storage.Pending) {
	wo := p.Expected
	switching := v.wo == nil || v.wo.WorkOrderId != wo.WorkOrderId
	v.wo, v.pending = wo, p
	if len(v.container.Objects) == 0 || v.container.Objects[0] != v.body {
		v.container.Objects = []fyne.CanvasObject{v.body}
		v.container.Refresh()
	}
	v.number.Segments[0].(*widget.TextSegment).Text = wo.WorkOrderNumber
	v.number.Refresh()
	status := format.Status(wo.Status)
	if p.StatusQueued() {
		status += " · queued"
	}
	v.status.Set(status, palette.Status(wo.Status))
	v.status.SetQueued(p.StatusQueued())
	if q := wo.Nte.Quote; q != nil {
		text := "Quote " + strings.ToLower(format.Status(q.QuoteStatus)) // "Quote submitted", as "Invoice disputed"
		if r := p.Replica.Nte.Quote; r == nil || r.QuoteStatus != q.QuoteStatus {
			text += " · queued"
		}
		v.quote.Set(text, palette.Quote(q.QuoteStatus))
		v.quote.Show()
	} else {
		// Hidden, not empty: an empty badge still took a place in the
		// title row and, beside a long NTE and the invoice pill, wrapped
		// to a second line of its own, pushing the customer line over
		// the first tab's icon (A10).
		v.quote.Set("", nil)
		v.quote.Hide()
	}
	v.renderOutbox()
	grown := false
	if text, fill := invoiceBadge(v.d.storedInvoice(wo.WorkOrderId)); text != v.invoice.Text() || v.invoice.Visible() != (text != "") {
		v.invoice.Set(text, fill)
		arrange.ShowIf(text != "", v.invoice)
		grown = true // the pill under the NTE widens that column, and the header grows
	}
	where := wo.Customer.Name
	if site := wo.SiteName(); site != "" {
		where += " · " + site
	}
	if wo.WorkType != nil && wo.WorkType.Name != "" {
		where += " · " + wo.WorkType.Name
	}
	v.where.SetText(where)
	if note := v.d.colleagueNote(wo.WorkOrderId); note != v.colleague.Text || v.colRow.Visible() != (note != "") {
		v.colleague.SetText(note)
		arrange.ShowIf(note != "", v.colRow)
		grown = true // a line more or less: the tabs move
	}
	if note := v.d.customerNotice(p.Replica); note != v.notice.Text || v.notice.Visible() != (note != "") {
		v.notice.SetText(note)
		arrange.ShowIf(note != "", v.notice)
	}
	v.titleRow.Refresh()
	if wo.Nte.Amount.IsZero() {
		v.nte.SetText("no limit") // a currency beside it would read as an amount
	} else {
		v.nte.SetText(format.Nte(wo.Nte.Amount) + "  " + wo.Currency)
	}
	arrange.ShowIf(wo.Can(api.Accept) == nil, v.accept)
	arrange.ShowIf(wo.Can(api.Reject) == nil, v.reject)
	if grown || switching {
		// Once every text of the header is set: laid out when the pill
		// came, before the NTE beside it had its text, the header kept
		// its old height and the customer line was drawn over the
		// Summary tab's icon (A10), the first work order opened after a
		// start above all.
		arrange.Relayout(v.body)
	}
	for _, t := range v.tabs {
		t.Show(wo)
	}
	if switching {
		for _, it := range v.appTabs.Items {
			scrollToTop(it.Content)
		}
	}
}

// scrollToTop scrolls back to the top every scroll, list and tree under o
// that a tab lays out itself (through containers, scrolls and splits; the
// insides of other widgets are theirs).
func scrollToTop(o fyne.CanvasObject) {
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			scrollToTop(ch)
		}
	case *container.Scroll:
		if c.Offset.Y != 0 {
			c.ScrollToOffset(fyne.NewPos(c.Offset.X, 0))
		}
		scrollToTop(c.Content)
	case *container.Split:
		scrollToTop(c.Leading)
		scrollToTop(c.Trailing)
	case *widget.List:
		c.ScrollToTop()
	case *widget.Tree:
		c.ScrollToTop()
	}
}

// reloadIfOpen re-reads the open work order when it is among changed,
// refreshing the header and tabs in place.
func (v *detailView) reloadIfOpen(changed []int64) {
	if v.wo == nil {
		return
	}
	for _, id := range changed {
		if id == v.wo.WorkOrderId {
			if p, err := v.d.store.Pending(context.Background(), id); err == nil {
				v.show(p)
			}
			return
		}
	}
}
