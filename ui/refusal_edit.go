package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Edit on a refused action puts what the person entered back into its form
// (storage reads it back: OutboxRow.Draft), for them to correct and queue
// again. The refused row stays until the corrected one is queued, which
// replaces it in the same step (storage.Replacing): giving up loses nothing.

// correction is a refused action the person is correcting in its form.
type correction struct {
	wo, row int64
	group   storage.OutboxGroup // the part of the work order its form is in
	kind    storage.OutboxKind
	draft   *storage.Draft // what the refused action carried
}

// correctingWhere tells where a refused action is corrected, and how it is
// queued again.
var correctingWhere = map[storage.OutboxKind]string{
	storage.KindReject:        "in the reason dialog and reject again",
	storage.KindMessage:       "in the Messages tab and send it",
	storage.KindQuote:         "in the Quote tab and submit it",
	storage.KindAppointment:   "in the Visit tab and set the scheduled start",
	storage.KindCheckIn:       "in the Visit tab and check in",
	storage.KindPause:         "in the Visit tab and pause",
	storage.KindCheckOut:      "in the Visit tab and check out",
	storage.KindInvoiceSave:   "in the Invoice tab and save it",
	storage.KindInvoiceSubmit: "in the Invoice tab and submit it",
}

// correctingHint tells the person, while they correct r, what happens next.
func correctingHint(r storage.OutboxRow) string {
	where, ok := correctingWhere[r.Kind]
	if !ok {
		where = "and queue it again"
	}
	return "Correct it " + where + ": the corrected one replaces this one."
}

// actionCtx is the context for queueing an action on work order woID from
// the form of group: while the person corrects a refused action there, the
// new action replaces it.
func (d *Desk) actionCtx(woID int64, group storage.OutboxGroup) context.Context {
	ctx := context.Background()
	if c := d.correcting; c != nil && c.wo == woID && c.group == group {
		return storage.Replacing(ctx, c.row)
	}
	return ctx
}

// keptComment is the comment the refused action of kind on woID being
// corrected carried, for forms without a field for it (a check-out's): the
// correction keeps it rather than drop what the person had written.
func (d *Desk) keptComment(woID int64, kind storage.OutboxKind) string {
	if c := d.correcting; c != nil && c.wo == woID && c.kind == kind && c.draft != nil {
		return c.draft.Text
	}
	return ""
}

// keptPte is the access type ("Appointment", "Call first") a new scheduled
// start goes out with: the one of the refused appointment being corrected,
// else the work order's own, so that moving the start never drops it.
func (d *Desk) keptPte(wo *api.WorkOrder) string {
	if c := d.correcting; c != nil && c.wo == wo.WorkOrderId && c.kind == storage.KindAppointment && c.draft != nil && c.draft.Pte != "" {
		return c.draft.Pte
	}
	if wo.Schedule != nil {
		return wo.Schedule.Pte
	}
	return ""
}

// stopCorrecting gives up correcting: the refused action stays as it was.
func (d *Desk) stopCorrecting() {
	d.correcting = nil
	d.detail.renderOutbox()
}

// editRefused opens the form of refused action r with what the person had
// entered. A form holding something else they typed and have not queued
// is not overwritten without asking.
func (d *Desk) editRefused(r storage.OutboxRow) {
	if !r.Correctable() {
		return
	}
	woID := r.WorkOrderIds[0]
	if d.detail.wo == nil || d.detail.wo.WorkOrderId != woID {
		d.detail.open(woID)
	}
	if d.detail.wo == nil || d.detail.wo.WorkOrderId != woID {
		return // it could not be opened (said so)
	}
	draft, _ := r.Draft(d.detail.wo.Currency)
	v := d.detail
	start := func(fill func()) {
		d.correcting = &correction{wo: woID, row: r.Id, group: r.Group, kind: r.Kind, draft: draft}
		if fill != nil {
			fill()
		}
		v.renderOutbox()
	}
	switch r.Kind {
	case storage.KindReject:
		start(func() { d.showRejectWith([]int64{woID}, draft.Text, d.stopCorrecting) })
		return
	case storage.KindMessage:
		if t, ok := tabIn[*messagesTab](v); ok {
			v.selectTab(t)
			d.unlessTyped(t.holdsOther(draft), "The Messages tab holds a message you have not sent.", "message", func() {
				start(func() { t.edit(draft.Text, draft.Visibility) })
			})
			return
		}
	case storage.KindQuote:
		if t, ok := tabIn[*quoteTab](v); ok {
			v.selectTab(t)
			d.unlessTyped(t.holdsOther(draft), "The Quote tab holds a quote you have not submitted.", "quote", func() {
				start(func() {
					t.clearForm()
					t.prefill(draft.Amount, draft.Lines, draft.Text)
				})
			})
			return
		}
	case storage.KindAppointment:
		if t, ok := tabIn[*visitTab](v); ok {
			v.selectTab(t)
			start(func() { t.editSchedule(draft.At) })
			return
		}
	case storage.KindCheckIn, storage.KindPause, storage.KindCheckOut:
		if t, ok := tabIn[*visitTab](v); ok {
			v.selectTab(t)
			typed := r.Kind == storage.KindCheckOut && t.form.holdsOther(draft.Completion)
			d.unlessTyped(typed, "The check-out form holds completion details you have not sent.", "check-out", func() {
				start(func() {
					t.editVisit(draft.At)
					if r.Kind == storage.KindCheckOut {
						t.form.fill(draft.Completion)
					}
				})
			})
			return
		}
	case storage.KindInvoiceSave, storage.KindInvoiceSubmit:
		if t, ok := tabIn[*invoiceTab](v); ok {
			v.selectTab(t)
			if draft.Invoice == nil {
				start(nil) // a submission: the invoice as saved
				return
			}
			d.unlessTyped(t.holdsOther(*draft.Invoice), "The Invoice tab holds changes you have not saved.", "invoice", func() {
				start(func() { t.editDraft(*draft.Invoice) })
			})
			return
		}
	}
	start(nil)
}

// unlessTyped runs fill at once, or, when the form holds something else
// the person typed (typed), first asks whether to replace it with the
// refused what. Keeping it starts no correction: what they typed is not
// queued in the refused action's place by surprise.
func (d *Desk) unlessTyped(typed bool, holds, what string, fill func()) {
	if !typed {
		fill()
		return
	}
	c := newConfirm("Replace what you typed?", holds+" Replace what you typed with the refused "+what+"?", func(ok bool) {
		if ok {
			fill()
		}
	}, d.win)
	c.SetConfirmText("Replace")
	c.SetDismissText("Keep what I typed")
	c.Show()
}

// tabIn is the detail view's tab of type T.
func tabIn[T tab](v *detailView) (T, bool) {
	for _, t := range v.tabs {
		if x, ok := t.(T); ok {
			return x, true
		}
	}
	return *new(T), false
}

// selectTab shows tab t (by its title: a compact tab bar shows no names).
func (v *detailView) selectTab(t tab) { v.showTab(t.title()) }

// edit puts a refused message back into the compose box.
func (t *messagesTab) edit(text string, vis api.MessageVisibility) {
	t.text.SetText(text)
	if label, ok := visibilityLabels[vis]; ok {
		t.vis.SetSelected(label)
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(t.text); c != nil {
		c.Focus(t.text)
	}
}

// holdsOther reports whether the compose box holds a message other than
// the refused one.
func (t *messagesTab) holdsOther(d *storage.Draft) bool {
	typed := strings.TrimSpace(t.text.Text)
	return typed != "" && typed != strings.TrimSpace(d.Text)
}

// holdsOther reports whether the quote form holds an amount, reason or
// lines other than the refused quote's.
func (t *quoteTab) holdsOther(d *storage.Draft) bool {
	reason := strings.TrimSpace(t.reason.Text)
	if strings.TrimSpace(t.amount.Text) == "" && reason == "" && len(t.lines) == 0 {
		return false
	}
	if reason != strings.TrimSpace(d.Text) || len(t.lines) != len(d.Lines) {
		return true
	}
	if len(t.lines) == 0 {
		return strings.TrimSpace(t.amount.Text) != amountText(d.Amount)
	}
	for i, l := range t.lines {
		if lineKey(l) != lineKey(d.Lines[i]) {
			return true
		}
	}
	return false
}

// holdsOther reports whether the invoice form holds unsaved changes other
// than the refused save's content.
func (t *invoiceTab) holdsOther(inv api.Invoice) bool {
	return t.dirty && invoiceKey(t.inv) != invoiceKey(inv)
}

// lineKey is what the person sets of a line, to compare two.
func lineKey(l api.LineItem) string {
	return fmt.Sprintf("%s|%s|%s|%s|%d", l.Type, l.Description, l.Quantity, l.Rate.Amount, l.PriceListItemId)
}

// invoiceKey is what the person edits of an invoice, to compare two.
func invoiceKey(inv api.Invoice) string {
	var b strings.Builder
	date := ""
	if inv.InvoiceDate != nil {
		date = inv.InvoiceDate.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(&b, "%s|%s|%s", inv.InvoiceNumber, date, inv.DiscountAmount.Amount)
	for _, l := range inv.LineItems {
		b.WriteString("\n" + lineKey(l))
	}
	return b.String()
}

// editSchedule puts a refused scheduled start back into its pickers.
func (t *visitTab) editSchedule(at *time.Time) {
	if at == nil {
		return
	}
	lt := at.In(time.Local)
	t.schedDate.SetDate(&lt)
	t.schedTime.setTime(lt)
}

// editVisit puts the moment of a refused check-in, pause or check-out back:
// the back-dated time, or "now" for one recorded as it was sent.
func (t *visitTab) editVisit(at *time.Time) {
	if at == nil {
		t.when.SetSelected(whenNow)
		return
	}
	lt := at.In(time.Local)
	t.when.SetSelected(whenEarlier)
	t.backDate.SetDate(&lt)
	t.backTime.setTime(lt)
}

// editDraft puts a refused invoice save back into the form, as unsaved edits.
func (t *invoiceTab) editDraft(inv api.Invoice) {
	inv.LineItems = append([]api.LineItem(nil), inv.LineItems...)
	inv.WorkOrderId = t.wo.WorkOrderId
	inv.Currency = t.wo.Currency
	inv.StampCurrency()
	t.inv = inv
	t.dirty = true
	t.renderDraft()
	t.recompute()
	t.relayout()
}
