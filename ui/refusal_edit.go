package ui

import (
	"context"
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

// stopCorrecting gives up correcting: the refused action stays as it was.
func (d *Desk) stopCorrecting() {
	d.correcting = nil
	d.detail.renderOutbox()
}

// editRefused opens the form of refused action r with what the person had
// entered.
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
	d.correcting = &correction{wo: woID, row: r.Id, group: r.Group}
	v := d.detail
	switch r.Kind {
	case storage.KindReject:
		d.showRejectWith([]int64{woID}, draft.Text, d.stopCorrecting)
	case storage.KindMessage:
		if t, ok := tabIn[*messagesTab](v); ok {
			v.selectTab(t)
			t.edit(draft.Text, draft.Visibility)
		}
	case storage.KindQuote:
		if t, ok := tabIn[*quoteTab](v); ok {
			v.selectTab(t)
			t.clearForm()
			t.prefill(draft.Amount, draft.Lines, draft.Text)
		}
	case storage.KindAppointment:
		if t, ok := tabIn[*visitTab](v); ok {
			v.selectTab(t)
			t.editSchedule(draft.At)
		}
	case storage.KindCheckIn, storage.KindPause, storage.KindCheckOut:
		if t, ok := tabIn[*visitTab](v); ok {
			v.selectTab(t)
			t.editVisit(draft.At)
		}
	case storage.KindInvoiceSave, storage.KindInvoiceSubmit:
		if t, ok := tabIn[*invoiceTab](v); ok {
			v.selectTab(t)
			if draft.Invoice != nil {
				t.editDraft(*draft.Invoice)
			}
		}
	}
	v.renderOutbox()
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
