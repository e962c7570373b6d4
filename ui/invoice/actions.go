package invoice

// The invoice's own actions (save, submit, delete), queued in the
// background through the outbox, and the newest of them under the buttons.

import (
	"context"
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
	"github.com/workorderdesk/workdesk/ui/format"
)

// draftForSave is the draft as the service expects it.
func (t *Tab) draftForSave() api.Invoice {
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
func (t *Tab) actionControls() []fyne.Disableable {
	return []fyne.Disableable{t.save, t.submit, t.del}
}

// saveQueued settles the draft of work order woID once its save was
// queued (row) or refused (err): the draft then waits for the row, or is
// unsaved again. The person may have opened another work order meanwhile.
func (t *Tab) saveQueued(woID int64, row *storage.OutboxRow, err error) {
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

func (t *Tab) onSave() {
	if t.inputErr.Text != "" {
		t.win.ShowError(dialogs.NotYet("fix the highlighted entry first: " + t.inputErr.Text))
		return
	}
	if t.win.Busy(t.save) {
		return
	}
	queue, woID, number, draft := t.queue, t.wo.WorkOrderId, t.wo.WorkOrderNumber, t.draftForSave()
	t.dirty, t.savingRow = false, queueing
	var row *storage.OutboxRow
	rctx := t.win.Replacing(woID, outbox.GroupInvoice) // read now: a correction replaces the refused one
	t.win.Act(t.actionControls(), func(context.Context) (err error) {
		row, err = queue.SaveInvoice(rctx, woID, draft)
		return err
	}, func(err error) {
		t.saveQueued(woID, row, err)
		if err != nil {
			t.win.ShowError(err)
		} else {
			t.win.Queued("Invoice of " + number)
		}
		t.rerender(woID)
	})
}

// rerender shows the buttons, checks and last action again after an action
// on work order woID was queued, if it is still the one open.
func (t *Tab) rerender(woID int64) {
	if t.wo != nil && t.wo.WorkOrderId == woID {
		t.recompute()
		t.renderLastAction()
	}
}

// onSubmit saves unsaved changes first (the outbox sends them in order),
// then queues the submission.
func (t *Tab) onSubmit() {
	if t.inputErr.Text != "" {
		t.win.ShowError(dialogs.NotYet("fix the highlighted entry first: " + t.inputErr.Text))
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
		if t.win.Busy(t.submit) {
			return
		}
		queue, woID, number := t.queue, t.wo.WorkOrderId, t.wo.WorkOrderNumber
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
		rctx := t.win.Replacing(woID, outbox.GroupInvoice)
		t.win.Act(t.actionControls(), func(context.Context) error {
			if draft != nil {
				if saved, saveErr = queue.SaveInvoice(rctx, woID, *draft); saveErr != nil {
					return saveErr
				}
			}
			_, err := queue.SubmitInvoice(rctx, woID, false)
			return err
		}, func(err error) {
			if draft != nil {
				t.saveQueued(woID, saved, saveErr)
			}
			if err != nil {
				t.win.ShowError(err)
			} else {
				t.win.Queued("Submit invoice of " + number)
			}
			t.rerender(woID)
		})
	}
	// Submitting cannot be taken back (only the customer's dispute reopens
	// the invoice): ask first, with the total and the NTE it is weighed
	// against, and any warning the service's checks give.
	dialogs.Final("Submit the invoice?", t.submitQuestion(warnings), "Submit invoice", false,
		func(ok bool) {
			if ok {
				doSubmit()
			}
		}, t.win.Window())
}

// submitQuestion is what the person reads before submitting: the total,
// the NTE, that it is final, and the checks' warnings.
func (t *Tab) submitQuestion(warnings []string) string {
	cur := t.wo.Currency
	total, nte := t.inv.Totals(cur).Total, t.wo.Nte.Amount.In(cur)
	against := "no NTE is set on this work order"
	if level, _ := api.NteStanding(total, nte); level != api.NteNoLimit {
		against = "NTE " + format.Money(nte) + " " + cur
	}
	msg := fmt.Sprintf("The invoice of %s comes to %s %s; %s.\n\n"+
		"Once submitted it cannot be changed, unless the customer disputes it.",
		t.wo.WorkOrderNumber, format.Money(total), cur, against)
	if len(warnings) > 0 {
		msg += "\n\n" + strings.Join(warnings, "\n")
	}
	return msg
}

func (t *Tab) onDelete() {
	queue, woID, number := t.queue, t.wo.WorkOrderId, t.wo.WorkOrderNumber
	dialogs.Final("Delete the invoice?",
		"Its lines, number and date are removed at the service. Attachments stay. This cannot be undone.",
		"Delete invoice", true, func(ok bool) {
			if !ok {
				return
			}
			rctx := t.win.Replacing(woID, outbox.GroupInvoice)
			t.win.Act(t.actionControls(), func(context.Context) error {
				_, err := queue.DeleteInvoice(rctx, woID)
				return err
			}, func(err error) {
				if err != nil {
					t.win.ShowError(err)
					return
				}
				if t.wo != nil && t.wo.WorkOrderId == woID && !t.fresh {
					t.dirty, t.savingRow = false, 0
				} else {
					delete(t.drafts, woID)
				}
				t.win.Queued("Delete invoice of " + number)
				t.rerender(woID)
			})
		}, t.win.Window())
}

// renderLastAction shows the newest invoice action under the buttons, in
// red when the service refused it (with the service's own message).
func (t *Tab) renderLastAction() {
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
func (t *Tab) lastInvoiceAction() (text string, refused bool) {
	rows, err := t.replica.OutboxRows(context.Background(), t.wo.WorkOrderId)
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

// HoldsOther reports whether the invoice form holds unsaved changes other
// than the refused save's content.
func (t *Tab) HoldsOther(inv api.Invoice) bool {
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
		fmt.Fprintf(&b, "\n%s|%s|%s|%s|%d", l.Type, l.Description, l.Quantity, l.Rate.Amount, l.PriceListItemId)
	}
	return b.String()
}

// EditDraft puts a refused invoice save back into the form, as unsaved edits.
func (t *Tab) EditDraft(inv api.Invoice) {
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
