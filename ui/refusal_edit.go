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
	form    storage.Form        // where it is corrected
	draft   *storage.Draft      // what the refused action carried
}

// formPlace says where a form is, in a sentence.
func formPlace(f storage.Form) string {
	switch f {
	case storage.FormReason:
		return "in the reason dialog"
	case storage.FormMessage:
		return "in the Messages tab"
	case storage.FormQuote:
		return "in the Quote tab"
	case storage.FormSchedule, storage.FormVisit, storage.FormCheckOut:
		return "in the Visit tab"
	case storage.FormInvoice:
		return "in the Invoice tab"
	}
	return ""
}

// correctingHint tells the person, while they correct r, what happens
// next: where it is corrected and how it is queued again.
func correctingHint(r storage.OutboxRow) string {
	where := "and queue it again"
	if form, again := r.Kind.CorrectedIn(); formPlace(form) != "" {
		where = formPlace(form) + " and " + again
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

// keptComment is the comment the refused action on woID being corrected
// in form carried, for forms without a field for it (a check-out's): the
// correction keeps it rather than drop what the person had written.
func (d *Desk) keptComment(woID int64, form storage.Form) string {
	if c := d.correcting; c != nil && c.wo == woID && c.form == form && c.draft != nil {
		return c.draft.Text
	}
	return ""
}

// keptPte is the access type ("Appointment", "Call first") a new scheduled
// start goes out with: the one of the refused appointment being corrected,
// else the work order's own, so that moving the start never drops it.
func (d *Desk) keptPte(wo *api.WorkOrder) string {
	if c := d.correcting; c != nil && c.wo == wo.WorkOrderId && c.form == storage.FormSchedule && c.draft != nil && c.draft.Pte != "" {
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
	form, _ := r.Kind.CorrectedIn()
	v := d.detail
	start := func(fill func()) {
		d.correcting = &correction{wo: woID, row: r.Id, group: r.Group, form: form, draft: draft}
		if fill != nil {
			fill()
		}
		v.renderOutbox()
	}
	switch form {
	case storage.FormReason:
		start(func() { d.showRejectWith([]int64{woID}, draft.Text, d.stopCorrecting) })
		return
	case storage.FormMessage:
		if t, ok := tabIn[*messagesTab](v); ok {
			v.selectTab(t)
			d.unlessTyped(t.holdsOther(draft), "The Messages tab holds a message you have not sent.", "message", func() {
				start(func() { t.edit(draft.Text, draft.Visibility) })
			})
			return
		}
	case storage.FormQuote:
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
	case storage.FormSchedule:
		if t, ok := tabIn[*visitTab](v); ok {
			v.selectTab(t)
			start(func() { t.editSchedule(draft.At) })
			return
		}
	case storage.FormVisit, storage.FormCheckOut:
		if t, ok := tabIn[*visitTab](v); ok {
			v.selectTab(t)
			completes := form == storage.FormCheckOut
			typed := completes && t.form.holdsOther(draft.Completion)
			d.unlessTyped(typed, "The check-out form holds completion details you have not sent.", "check-out", func() {
				start(func() {
					t.editVisit(draft.At)
					if completes {
						t.form.fill(draft.Completion)
					}
				})
			})
			return
		}
	case storage.FormInvoice:
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

// selectTab shows tab t.
func (v *detailView) selectTab(t tab) {
	for _, it := range v.appTabs.Items {
		if it.Text == t.title() {
			v.appTabs.Select(it)
			return
		}
	}
}

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
