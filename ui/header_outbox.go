package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// The work order's header says what the outbox holds for it: the actions
// still waiting ("Check-in queued 10:02"), and each action the service
// refused, in its words, with Retry, Edit and Discard. The person sees
// both where they are looking, not only in the status bar's counter.

// queuedNoun names r's action in a sentence ("Check-in" in "Check-in
// queued 10:02"); a kind a newer version wrote by its summary.
func queuedNoun(r storage.OutboxRow) string {
	if n := r.Kind.Noun(); n != "" {
		return n
	}
	return r.Summary
}

// queuedText says where one waiting action stands.
func queuedText(r storage.OutboxRow) string {
	switch {
	case r.State == storage.OutboxSending:
		return queuedNoun(r) + " sending…"
	case actiontext.Waiting(r):
		return queuedNoun(r) + " queued " + format.Clock(r.Created) + ", waiting for the connection"
	}
	return queuedNoun(r) + " queued " + format.Clock(r.Created)
}

// pendingText is the header's line about the waiting actions ("" for none).
func pendingText(p *storage.Pending) string {
	const most = 3
	var parts []string
	for i, r := range p.Queued {
		if i == most {
			parts = append(parts, fmt.Sprintf("%d more waiting", len(p.Queued)-most))
			break
		}
		parts = append(parts, queuedText(r))
	}
	text := strings.Join(parts, " · ")
	if text != "" && len(p.Refused) > 0 {
		text += " — waiting behind the refused action below"
	}
	return text
}

// refusalView is one refused action in the header.
type refusalView struct {
	row     storage.OutboxRow
	box     fyne.CanvasObject
	title   *widget.Label
	text    *widget.Label
	retry   *widget.Button
	edit    *widget.Button
	discard *widget.Button
}

// refusalTitle names a refused action and when it was refused.
func refusalTitle(r storage.OutboxRow) string {
	if r.MayHaveBeenSent() {
		return actiontext.What(r) + " — may have been sent " + format.Clock(r.Updated)
	}
	return actiontext.What(r) + " — refused by the service " + format.Clock(r.Updated)
}

func (d *Desk) newRefusalView(woID int64, r storage.OutboxRow) *refusalView {
	v := &refusalView{row: r}
	v.title = widget.NewLabelWithStyle(refusalTitle(r), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Wrapping = fyne.TextWrapWord
	v.title.Importance = widget.DangerImportance
	text := format.Capital(strings.TrimSpace(r.Error))
	switch {
	case r.Asked() != nil:
		text = format.Sentence(r.Error) // our own words, which end as a sentence before anything added to them
	case r.MayHaveBeenSent():
		text = actiontext.Unsure(r)
	}
	if why := d.colleagueFirst(woID, r); why != "" {
		text += " " + why
	}
	if c := d.correcting; c != nil && c.row == r.Id {
		text += " " + correctingHint(r)
	}
	v.text = arrange.Wrapped(widget.NewLabel(text))
	id := r.Id
	v.retry = widget.NewButtonWithIcon(actiontext.Retry(r), theme.ViewRefreshIcon(), func() { d.retryAction(id) })
	v.discard = widget.NewButtonWithIcon("Discard…", theme.DeleteIcon(), func() { d.discardAction(id) })
	v.edit = widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { d.editRefused(r) })
	if c := d.correcting; c != nil && c.row == r.Id {
		v.edit.SetText("Stop editing")
		v.edit.SetIcon(theme.CancelIcon())
		v.edit.OnTapped = d.stopCorrecting
	}
	arrange.ShowIf(r.Correctable() && !r.MayHaveBeenSent(), v.edit)
	if q := r.Asked(); q != nil {
		// Not refused: stopped before it was sent (the note changed since
		// the edit began). The person chooses which stays.
		v.title.SetText(actiontext.What(r) + " — " + q.Title)
		v.title.Importance = widget.WarningImportance
		v.retry.SetText(q.Keep)
		v.retry.OnTapped = func() { d.keepMine(r) }
		v.discard.SetText(q.Take)
		v.discard.OnTapped = func() { d.takeTheirs(id) }
		if c := d.correcting; c == nil || c.row != r.Id {
			v.edit.SetText(q.Merge)
		}
	}
	buttons := container.NewHBox(layout.NewSpacer(), v.retry, v.edit, v.discard)
	icon := widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon()))
	v.box = container.NewBorder(nil, nil, container.NewVBox(icon), nil, container.NewVBox(v.title, v.text, buttons))
	return v
}

// retryAction sends a refused (or waiting) action again. It takes its turn
// among the window's writes, so a correction tapped before it is queued
// first; retrying the action being corrected ends the correction, so a
// correction sent afterwards is a new action, not a second copy by surprise.
func (d *Desk) retryAction(id int64) {
	if c := d.correcting; c != nil && c.row == id {
		d.correcting = nil
	}
	store := d.store
	var row *storage.OutboxRow
	d.write(func(ctx context.Context) (err error) {
		row, err = store.Retry(ctx, id)
		return err
	}, func(err error) {
		if err != nil {
			d.showError(err)
			return
		}
		d.status.Queued(actiontext.What(*row) + ": sent again")
		d.changed(row.WorkOrderIds)
	})
}

// discardAction gives up on an action once the person confirms it.
func (d *Desk) discardAction(id int64) {
	dialogs.Final("Discard this action?",
		"It will not be sent to the service. Actions queued after it on this work order go out next.",
		"Discard", true, func(ok bool) {
			if ok {
				d.discardRow(id)
			}
		}, d.win)
}

// discardRow removes outbox row id, unsent, and shows its work orders
// without it.
func (d *Desk) discardRow(id int64) {
	store := d.store
	var row *storage.OutboxRow
	d.write(func(ctx context.Context) error {
		row, _ = store.OutboxRow(ctx, id)
		return store.Discard(ctx, id)
	}, func(err error) {
		if err != nil {
			d.showError(err)
			return
		}
		if row != nil {
			d.changed(row.WorkOrderIds)
		}
	})
}

// renderOutbox shows the open work order's waiting and refused actions in
// its header.
func (v *detailView) renderOutbox() {
	p := v.pending
	if p == nil {
		return
	}
	if c := v.d.correcting; c != nil && c.wo == p.Expected.WorkOrderId && !slices.ContainsFunc(p.Refused, func(r storage.OutboxRow) bool { return r.Id == c.row }) {
		v.d.correcting = nil // corrected (replaced), retried or discarded
	}
	text := pendingText(p)
	v.queued.SetText(text)
	arrange.ShowIf(text != "", v.queued)
	v.refusals = v.refusals[:0]
	var objs []fyne.CanvasObject
	for _, r := range p.Refused {
		rv := v.d.newRefusalView(p.Expected.WorkOrderId, r)
		v.refusals = append(v.refusals, rv)
		objs = append(objs, rv.box)
	}
	v.refused.Objects = objs
	v.refused.Refresh()
	arrange.ShowIf(len(objs) > 0, v.refused)
}
