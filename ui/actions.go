package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// accept queues acceptance of one work order.
func (d *Desk) accept(wo *api.WorkOrder) {
	store, id, what := d.store, wo.WorkOrderId, "Accept "+wo.WorkOrderNumber
	d.act([]fyne.Disableable{d.detail.accept}, func(ctx context.Context) error {
		_, err := store.Accept(ctx, id, "")
		return err
	}, func(err error) {
		if err != nil {
			d.showError(err)
			return
		}
		d.status.Queued(what)
	})
}

// bulkAccept queues one bulk acceptance and shows each work order's result
// as the service answers.
func (d *Desk) bulkAccept(ids []int64) {
	if len(ids) == 0 {
		return
	}
	store := d.store
	var row *storage.OutboxRow
	d.list.Keep(ids...)
	d.act(d.bulkButtons(), func(ctx context.Context) (err error) {
		row, err = store.BulkAccept(ctx, ids)
		return err
	}, func(err error) {
		if err != nil {
			d.showError(err)
			return
		}
		d.list.Untick(ids)
		d.results.Show("Accept", row, ids)
	})
}

// showReject asks for the reason (required, up to 3000 characters) and
// rejects one or several work orders. Reject stays disabled until the
// reason is valid, so the dialog never closes on a mistake, and only a
// tap on it (or Space on it) rejects.
func (d *Desk) showReject(ids []int64) { d.showRejectWith(ids, "", nil) }

// showRejectWith is showReject with the reason filled in (a refused
// rejection being corrected); cancelled, if set, runs when the person
// gives up.
func (d *Desk) showRejectWith(ids []int64, text string, cancelled func()) {
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
			d.showRejectWith(ids, reason.Text, cancelled)
			d.showError(err)
		})
	}, d.win)
	dlg.Resize(fyne.NewSize(560, 340))
	dlg.Show()
	d.win.Canvas().Focus(reason)
}

// reject validates the reason and queues the rejection; a bad reason
// changes nothing. failed gets what stopped it (the reason refused, or the
// replica unable to queue it).
func (d *Desk) reject(ids []int64, reason string, failed func(error)) {
	reason = strings.TrimSpace(reason)
	if err := api.CheckText("reason", reason, true); err != nil {
		failed(err)
		return
	}
	store := d.store
	controls := d.bulkButtons()
	// Read now, on the main goroutine: while the person corrects a refused
	// rejection, the new one replaces it.
	rctx := context.Background()
	what := "Rejection"
	if len(ids) == 1 {
		if d.detail.wo != nil && d.detail.wo.WorkOrderId == ids[0] {
			controls = []fyne.Disableable{d.detail.reject}
			what = "Reject " + d.detail.wo.WorkOrderNumber // as "Accept NWR73267"
		}
		rctx = d.actionCtx(ids[0], outbox.GroupWorkOrder)
	}
	var row *storage.OutboxRow
	d.list.Keep(ids...)
	d.act(controls, func(context.Context) (err error) {
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
			d.list.Untick(ids) // one ticked row, rejected through Reject 1
			d.status.Queued(what)
		default:
			d.list.Untick(ids)
			d.results.Show("Reject", row, ids)
		}
	})
}

// bulkButtons are the list's Accept N and Reject N: while a bulk action is
// being queued, neither starts another.
func (d *Desk) bulkButtons() []fyne.Disableable {
	return d.list.BulkControls()
}

// openURL asks the system to open a download link in a browser; an error
// says it did not (no browser, no opener), in plain words. It may wait on
// the system: call it off the main goroutine.
func (d *Desk) openURL(link api.DownloadURL) error {
	u, err := url.Parse(link.URL)
	if err != nil {
		return errors.New("the service returned an invalid download link")
	}
	open := d.deps.OpenURL
	if open == nil {
		open = d.app.OpenURL
	}
	return open(u)
}

// A refused rejection is corrected in its reason dialog.
var _ = correctIn(outbox.FormReason, "in the reason dialog", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	start(func() { d.showRejectWith([]int64{v.wo.WorkOrderId}, draft.Text, d.stopCorrecting) })
	return true
})
