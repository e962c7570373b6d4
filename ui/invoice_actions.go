package ui

// The invoice's own actions (save, submit, delete), queued in the
// background through the outbox, and the newest of them under the buttons.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// draftForSave is the draft as the service expects it.
func (t *invoiceTab) draftForSave() api.Invoice {
	inv := t.inv
	inv.WorkOrderId = t.wo.WorkOrderId
	inv.Currency = t.wo.Currency
	inv.LineItems = t.currentLines()
	inv.TotalAmount = t.inv.Totals(t.wo.Currency).Total
	return inv
}

// queueing is savingRow while the save is being queued: the draft waits
// for it already, though its outbox row is not there yet.
const queueing = -1

// actionControls are the buttons of the invoice's own actions: while one
// is being queued, none of them starts another.
func (t *invoiceTab) actionControls() []fyne.Disableable {
	return []fyne.Disableable{t.save, t.submit, t.del}
}

// saveQueued settles the draft of work order woID once its save was
// queued (row) or refused (err): the draft then waits for the row, or is
// unsaved again. The person may have opened another work order meanwhile.
func (t *invoiceTab) saveQueued(woID int64, row *storage.OutboxRow, err error) {
	dirty, saving := &t.dirty, &t.savingRow
	if t.wo == nil || t.wo.WorkOrderId != woID || t.fresh {
		dr, ok := t.drafts[woID]
		if !ok {
			return
		}
		dirty, saving = &dr.dirty, &dr.savingRow
	}
	if *saving != queueing {
		return // deleted, or reloaded, meanwhile
	}
	if err != nil {
		*dirty, *saving = true, 0
		return
	}
	*saving = row.Id
}

func (t *invoiceTab) onSave() {
	if t.inputErr.Text != "" {
		t.d.showError(errors.New("fix the highlighted entry first: " + t.inputErr.Text))
		return
	}
	if t.d.busy(t.save) {
		return
	}
	store, woID, number, draft := t.d.store, t.wo.WorkOrderId, t.wo.WorkOrderNumber, t.draftForSave()
	t.dirty, t.savingRow = false, queueing
	var row *storage.OutboxRow
	rctx := t.d.actionCtx(woID, outbox.GroupInvoice) // read now: a correction replaces the refused one
	t.d.act(t.actionControls(), func(context.Context) (err error) {
		row, err = store.SaveInvoice(rctx, woID, draft)
		return err
	}, func(err error) {
		t.saveQueued(woID, row, err)
		if err != nil {
			t.d.showError(err)
		} else {
			t.d.queued("Invoice of " + number)
		}
		t.rerender(woID)
	})
}

// rerender shows the buttons, checks and last action again after an action
// on work order woID was queued, if it is still the one open.
func (t *invoiceTab) rerender(woID int64) {
	if t.wo != nil && t.wo.WorkOrderId == woID {
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
		if t.d.busy(t.submit) {
			return
		}
		store, woID, number := t.d.store, t.wo.WorkOrderId, t.wo.WorkOrderNumber
		var draft *api.Invoice
		if t.dirty {
			d := t.draftForSave()
			draft = &d
			t.dirty, t.savingRow = false, queueing
		}
		var saved *storage.OutboxRow
		var saveErr error
		// Read now: a correction replaces the refused save or submission
		// (each replaces a refused one of its own kind only).
		rctx := t.d.actionCtx(woID, outbox.GroupInvoice)
		t.d.act(t.actionControls(), func(context.Context) error {
			if draft != nil {
				if saved, saveErr = store.SaveInvoice(rctx, woID, *draft); saveErr != nil {
					return saveErr
				}
			}
			_, err := store.SubmitInvoice(rctx, woID, false)
			return err
		}, func(err error) {
			if draft != nil {
				t.saveQueued(woID, saved, saveErr)
			}
			if err != nil {
				t.d.showError(err)
			} else {
				t.d.queued("Submit invoice of " + number)
			}
			t.rerender(woID)
		})
	}
	if len(warnings) == 0 {
		doSubmit()
		return
	}
	dialogs.Confirm("Submit above the NTE?", strings.Join(warnings, "\n")+"\n\nSubmit anyway?",
		func(ok bool) {
			if ok {
				doSubmit()
			}
		}, t.d.win)
}

func (t *invoiceTab) onDelete() {
	store, woID, number := t.d.store, t.wo.WorkOrderId, t.wo.WorkOrderNumber
	dialogs.Confirm("Delete the invoice?",
		"Its lines, number and date are removed at the service. Attachments stay. This cannot be undone.",
		func(ok bool) {
			if !ok {
				return
			}
			rctx := t.d.actionCtx(woID, outbox.GroupInvoice)
			t.d.act(t.actionControls(), func(context.Context) error {
				_, err := store.DeleteInvoice(rctx, woID)
				return err
			}, func(err error) {
				if err != nil {
					t.d.showError(err)
					return
				}
				if t.wo != nil && t.wo.WorkOrderId == woID && !t.fresh {
					t.dirty, t.savingRow = false, 0
				} else {
					delete(t.drafts, woID)
				}
				t.d.queued("Delete invoice of " + number)
				t.rerender(woID)
			})
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
		if r.Group != outbox.GroupInvoice {
			continue
		}
		text := "Last invoice action: " + actiontext.What(r) + " — " + actiontext.State(r)
		if r.State == storage.OutboxFailed {
			text += " Fix the invoice, then retry, edit or discard this action at the top of the work order."
		}
		return text, r.State == storage.OutboxFailed
	}
	return "", false
}

// A refused invoice save is corrected in the invoice form, as unsaved
// edits; a refused submission carries no content (it submits the invoice as
// saved), so the tab is only shown.
var _ = correctIn(outbox.FormInvoice, "in the Invoice tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*invoiceTab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	if draft.Invoice == nil {
		start(nil)
		return true
	}
	d.unlessTyped(t.holdsOther(*draft.Invoice), "The Invoice tab holds changes you have not saved.", "invoice", func() {
		start(func() { t.editDraft(*draft.Invoice) })
	})
	return true
})

// holdsOther reports whether the invoice form holds unsaved changes other
// than the refused save's content.
func (t *invoiceTab) holdsOther(inv api.Invoice) bool {
	return t.dirty && invoiceKey(t.inv) != invoiceKey(inv)
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
