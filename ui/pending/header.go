package pending

import (
	"context"
	"fmt"
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

// Header is the header's lines about the open work order's actions.
type Header struct {
	queue Queue
	win   Window

	queued  *widget.Label   // the actions waiting in the outbox
	refused *fyne.Container // the actions the service refused
}

// New is the header's lines, answering through queue and win; nothing
// shows until Show.
func New(queue Queue, win Window) *Header {
	h := &Header{queue: queue, win: win}
	h.queued = arrange.Wrapped(widget.NewLabel(""))
	h.queued.Importance = widget.WarningImportance
	h.queued.Hide()
	h.refused = container.NewVBox()
	return h
}

// Queued is the line about the waiting actions; Refused holds one box per
// refused or stopped action. Each is hidden while it has nothing to say.
func (h *Header) Queued() *widget.Label    { return h.queued }
func (h *Header) Refused() *fyne.Container { return h.refused }

// Show says what p holds: its waiting and refused actions.
func (h *Header) Show(p *storage.Pending) {
	text := pendingText(p)
	h.queued.SetText(text)
	arrange.ShowIf(text != "", h.queued)
	var objs []fyne.CanvasObject
	for _, r := range p.Refused {
		objs = append(objs, h.newRefusalView(p.Expected.WorkOrderId, r).box)
	}
	h.refused.Objects = objs
	h.refused.Refresh()
	arrange.ShowIf(len(objs) > 0, h.refused)
}

// Noun names r's action in a sentence ("Check-in" in "Check-in
// queued 10:02"); a kind a newer version wrote by its summary.
func Noun(r storage.OutboxRow) string {
	if n := r.Kind.Noun(); n != "" {
		return n
	}
	return r.Summary
}

// queuedText says where one waiting action stands.
func queuedText(r storage.OutboxRow) string {
	switch {
	case r.State == storage.OutboxSending:
		return Noun(r) + " sending…"
	case actiontext.Waiting(r):
		return Noun(r) + " queued " + format.Clock(r.Created) + ", waiting for the connection"
	}
	return Noun(r) + " queued " + format.Clock(r.Created)
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

func (h *Header) newRefusalView(woID int64, r storage.OutboxRow) *refusalView {
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
	if why := h.win.ColleagueFirst(woID, r); why != "" {
		text += " " + why
	}
	if h.win.Correcting(r.Id) {
		text += " " + h.win.CorrectingHint(r)
	}
	v.text = arrange.Wrapped(widget.NewLabel(text))
	id := r.Id
	v.retry = widget.NewButtonWithIcon(actiontext.Retry(r), theme.ViewRefreshIcon(), func() { h.Retry(id) })
	v.discard = widget.NewButtonWithIcon("Discard…", theme.DeleteIcon(), func() { h.Discard(id) })
	v.edit = widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { h.win.Edit(r) })
	if h.win.Correcting(r.Id) {
		v.edit.SetText("Stop editing")
		v.edit.SetIcon(theme.CancelIcon())
		v.edit.OnTapped = h.win.StopCorrecting
	}
	arrange.ShowIf(r.Correctable() && !r.MayHaveBeenSent(), v.edit)
	if q := r.Asked(); q != nil {
		// Not refused: stopped before it was sent (the note changed since
		// the edit began). The person chooses which stays.
		v.title.SetText(actiontext.What(r) + " — " + q.Title)
		v.title.Importance = widget.WarningImportance
		v.retry.SetText(q.Keep)
		v.retry.OnTapped = func() { h.keepMine(r) }
		v.discard.SetText(q.Take)
		v.discard.OnTapped = func() { h.takeTheirs(id) }
		if !h.win.Correcting(r.Id) {
			v.edit.SetText(q.Merge)
		}
	}
	buttons := container.NewHBox(layout.NewSpacer(), v.retry, v.edit, v.discard)
	icon := widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon()))
	v.box = container.NewBorder(nil, nil, container.NewVBox(icon), nil, container.NewVBox(v.title, v.text, buttons))
	return v
}

// Retry sends a refused (or waiting) action again. It takes its turn
// among the window's writes, so a correction tapped before it is queued
// first; retrying the action being corrected ends the correction, so a
// correction sent afterwards is a new action, not a second copy by surprise.
func (h *Header) Retry(id int64) {
	h.win.EndCorrecting(id)
	store := h.queue
	var row *storage.OutboxRow
	h.win.Write(func(ctx context.Context) (err error) {
		row, err = store.Retry(ctx, id)
		return err
	}, func(err error) {
		if err != nil {
			h.win.ShowError(err)
			return
		}
		h.win.Queued(actiontext.What(*row) + ": sent again")
		h.win.Changed(row.WorkOrderIds)
	})
}

// Discard gives up on an action once the person confirms it.
func (h *Header) Discard(id int64) {
	dialogs.Final("Discard this action?",
		"It will not be sent to the service. Actions queued after it on this work order go out next.",
		"Discard", true, func(ok bool) {
			if ok {
				h.discardRow(id)
			}
		}, h.win.Window())
}

// discardRow removes outbox row id, unsent, and shows its work orders
// without it.
func (h *Header) discardRow(id int64) {
	store := h.queue
	var row *storage.OutboxRow
	h.win.Write(func(ctx context.Context) error {
		row, _ = store.OutboxRow(ctx, id)
		return store.Discard(ctx, id)
	}, func(err error) {
		if err != nil {
			h.win.ShowError(err)
			return
		}
		if row != nil {
			h.win.Changed(row.WorkOrderIds)
		}
	})
}
