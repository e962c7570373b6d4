package decision

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// Accept queues acceptance of one work order, the one the detail shows.
func (d *Decision) Accept(wo *api.WorkOrder) {
	store, id, what := d.queue, wo.WorkOrderId, "Accept "+wo.WorkOrderNumber
	_, accept, _ := d.win.Shown()
	d.win.Act([]fyne.Disableable{accept}, func(ctx context.Context) error {
		_, err := store.Accept(ctx, id, "")
		return err
	}, func(err error) {
		if err != nil {
			d.win.ShowError(err)
			return
		}
		d.win.Queued(what)
	})
}

// BulkAccept queues one bulk acceptance and shows each work order's result
// as the service answers.
func (d *Decision) BulkAccept(ids []int64) {
	if len(ids) == 0 {
		return
	}
	store := d.queue
	var row *storage.OutboxRow
	d.win.KeepInList(ids...)
	d.win.Act(d.win.BulkControls(), func(ctx context.Context) (err error) {
		row, err = store.BulkAccept(ctx, ids)
		return err
	}, func(err error) {
		if err != nil {
			d.win.ShowError(err)
			return
		}
		d.win.Untick(ids)
		d.win.ShowResults("Accept", row, ids)
	})
}

// ShowReject asks for the reason (required, up to 3000 characters) and
// rejects one or several work orders. Reject stays disabled until the
// reason is valid, so the dialog never closes on a mistake, and only a
// tap on it (or Space on it) rejects.
func (d *Decision) ShowReject(ids []int64) { d.ShowRejectWith(ids, "", nil) }

// ShowRejectWith is ShowReject with the reason filled in (a refused
// rejection being corrected); cancelled, if set, runs when the person
// gives up.
func (d *Decision) ShowRejectWith(ids []int64, text string, cancelled func()) {
	if len(ids) == 0 {
		return
	}
	reason := dialogs.NewMultiLineEntry()
	reason.SetText(text)
	reason.SetPlaceHolder("Why you will not do this work (the customer sees it)")
	reason.SetMinRowsVisible(4)
	reason.Validator = func(s string) error { return api.CheckText("reason", s, true) }
	what := "this work order"
	if len(ids) > 1 {
		what = fmt.Sprintf("these %d work orders", len(ids))
	}
	warn := widget.NewLabel("Rejecting " + what + " is final: nothing more can be done on a rejected work order.")
	warn.Wrapping = fyne.TextWrapWord
	item := widget.NewFormItem("Reason", reason)
	item.HintText = fmt.Sprintf("Required, up to %d characters", api.MaxCommentLength)
	// Final: only the Reject button rejects; Enter keeps the dialog and
	// what was typed in it (issue 38: Enter never does what cannot be
	// undone).
	dlg := dialogs.FinalForm("Reject "+what, "Reject", []*widget.FormItem{widget.NewFormItem("", warn), item}, func(ok bool) {
		if !ok {
			if cancelled != nil {
				cancelled()
			}
			return
		}
		d.reject(ids, reason.Text, func(err error) {
			// The dialog is gone: bring it back with what was typed, under
			// the error, so a refused reason is corrected, not retyped.
			d.ShowRejectWith(ids, reason.Text, cancelled)
			d.win.ShowError(err)
		})
	}, d.win.Window())
	dlg.Resize(fyne.NewSize(560, 340))
	dlg.Show()
	d.win.Window().Canvas().Focus(reason)
}

// reject validates the reason and queues the rejection; a bad reason
// changes nothing. failed gets what stopped it (the reason refused, or the
// replica unable to queue it).
func (d *Decision) reject(ids []int64, reason string, failed func(error)) {
	reason = strings.TrimSpace(reason)
	if err := api.CheckText("reason", reason, true); err != nil {
		failed(err)
		return
	}
	store := d.queue
	controls := d.win.BulkControls()
	// Read now, on the main goroutine: while the person corrects a refused
	// rejection, the new one replaces it.
	rctx := context.Background()
	what := "Rejection"
	if len(ids) == 1 {
		if wo, _, rejectBtn := d.win.Shown(); wo != nil && wo.WorkOrderId == ids[0] {
			controls = []fyne.Disableable{rejectBtn}
			what = "Reject " + wo.WorkOrderNumber // as "Accept NWR73267"
		}
		rctx = d.win.Replacing(ids[0], outbox.GroupWorkOrder)
	}
	var row *storage.OutboxRow
	d.win.KeepInList(ids...)
	d.win.Act(controls, func(context.Context) (err error) {
		if len(ids) == 1 {
			_, err = store.Reject(rctx, ids[0], reason)
			return err
		}
		row, err = store.BulkReject(rctx, ids, reason)
		return err
	}, func(err error) {
		switch {
		case err != nil:
			failed(err)
		case len(ids) == 1:
			d.win.Untick(ids) // one ticked row, rejected through Reject 1
			d.win.Queued(what)
		default:
			d.win.Untick(ids)
			d.win.ShowResults("Reject", row, ids)
		}
	})
}
