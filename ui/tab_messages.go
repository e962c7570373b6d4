package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// visibilityLabels say who sees a message, in the service's terms.
var visibilityLabels = map[api.MessageVisibility]string{
	api.VisibilityAll:      "Customer and crew",
	api.VisibilityCruOnly:  "Our crew only",
	api.VisibilityCruLeads: "Customer, crew leads",
	api.VisibilityCruSubs:  "Crew, subcontractors",
	api.VisibilityNone:     "Nobody (record only)",
}

// messagesTab is the thread with the customer and the compose box. Our
// messages still in the outbox are in the thread too: "sending…" while they
// wait, and "not sent" with Retry, Edit and Discard if the service refused one.
type messagesTab struct {
	d        *Desk
	wo       *api.WorkOrder
	messages []storage.ThreadMessage
	list     *widget.List
	empty    *widget.Label
	text     *messageEntry
	vis      *widget.Select
	send     *widget.Button
	counter  *widget.Label
}

func newMessagesTab(d *Desk) *messagesTab {
	t := &messagesTab{d: d}
	t.list = widget.NewList(
		func() int { return len(t.messages) },
		func() fyne.CanvasObject {
			who := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			who.Wrapping = fyne.TextWrapWord
			body := widget.NewLabel("")
			body.Wrapping = fyne.TextWrapWord
			buttons := container.NewHBox(
				widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), nil),
				widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), nil),
				widget.NewButtonWithIcon("Discard…", theme.DeleteIcon(), nil))
			return container.NewStack(xwidget.NewThemedTint(theme.ColorNameWarning, 0x24), container.NewVBox(who, body, buttons))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			m := t.messages[i]
			item := o.(*fyne.Container)
			// Internal notes are drawn on a tint, apart from what the
			// customer reads.
			arrange.ShowIf(!m.MessageVisibility.CustomerSees(), item.Objects[0])
			box := item.Objects[1].(*fyne.Container)
			who := box.Objects[0].(*widget.Label)
			who.SetText(messageHeading(m))
			who.Importance = widget.MediumImportance
			if m.Row != nil && m.Row.State == storage.OutboxFailed {
				who.Importance = widget.DangerImportance
			}
			who.Refresh()
			box.Objects[1].(*widget.Label).SetText(m.Text)
			buttons := box.Objects[2].(*fyne.Container)
			if m.Row != nil && m.Row.State == storage.OutboxFailed {
				row := *m.Row
				buttons.Objects[0].(*widget.Button).SetText(actiontext.Retry(row))
				buttons.Objects[0].(*widget.Button).OnTapped = func() { t.d.retryAction(row.Id) }
				arrange.ShowIf(!row.MayHaveBeenSent(), buttons.Objects[1])
				buttons.Objects[1].(*widget.Button).OnTapped = func() { t.d.editRefused(row) }
				buttons.Objects[2].(*widget.Button).OnTapped = func() { t.d.discardAction(row.Id) }
				buttons.Show()
			} else {
				buttons.Hide()
			}
			t.list.SetItemHeight(i, item.MinSize().Height)
		},
	)
	t.empty = widget.NewLabel("No messages yet.")
	t.text = newMessageEntry(func() { t.d.press(t.send, "Messages", api.SendMessage) }, d.typedShortcut)
	t.text.SetPlaceHolder("Write to the customer or the crew…")
	t.text.SetMinRowsVisible(3)
	t.counter = widget.NewLabel("")
	t.counter.Importance = widget.LowImportance
	t.text.OnChanged = func(s string) {
		n := len([]rune(s))
		t.counter.SetText(fmt.Sprintf("%d / %d", n, api.MaxCommentLength))
		if api.CheckText("message", s, false) != nil {
			t.counter.Importance = widget.DangerImportance
		} else {
			t.counter.Importance = widget.LowImportance
		}
		t.counter.Refresh()
	}
	var opts []string
	for _, v := range api.AllVisibilities {
		opts = append(opts, visibilityLabels[v])
	}
	t.vis = widget.NewSelect(opts, nil)
	t.vis.SetSelectedIndex(0)
	t.send = widget.NewButtonWithIcon("Send", theme.MailSendIcon(), t.onSend)
	t.send.Importance = widget.HighImportance
	return t
}

func (t *messagesTab) Title() string       { return "Messages" }
func (t *messagesTab) Icon() fyne.Resource { return theme.MailComposeIcon() }
func (t *messagesTab) Content() fyne.CanvasObject {
	compose := container.NewVBox(t.text,
		container.NewBorder(nil, nil, widget.NewLabel("Visible to"), nil, t.vis),
		container.NewHBox(layout.NewSpacer(), t.counter, t.send))
	return container.NewBorder(nil, container.NewPadded(compose), nil, nil, container.NewStack(t.empty, t.list))
}

func (t *messagesTab) Show(wo *api.WorkOrder) {
	if t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId {
		t.vis.SetSelectedIndex(0) // another work order's message starts visible to all
	}
	t.wo = wo
	msgs, err := t.d.store.Thread(context.Background(), wo.WorkOrderId)
	if err != nil {
		msgs = nil
	}
	t.messages = msgs
	if len(msgs) == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
	t.list.Refresh()
	why := wo.Can(api.SendMessage)
	t.d.enable(t.send, why == nil)
	if why != nil {
		t.text.SetPlaceHolder(format.Capital(why.Error()) + ".")
	} else {
		t.text.SetPlaceHolder("Write to the customer or the crew…")
	}
}

func (t *messagesTab) visibility() api.MessageVisibility {
	for v, label := range visibilityLabels {
		if label == t.vis.Selected {
			return v
		}
	}
	return api.VisibilityAll
}

func (t *messagesTab) onSend() {
	text := strings.TrimSpace(t.text.Text)
	if text == "" {
		t.d.showError(dialogs.NotYet("write a message first"))
		return
	}
	if err := api.CheckText("message", text, true); err != nil {
		t.d.showError(err)
		return
	}
	store, woID, number, vis := t.d.store, t.wo.WorkOrderId, t.wo.WorkOrderNumber, t.visibility()
	rctx := t.d.actionCtx(woID, outbox.GroupMessage) // read now: a correction replaces the refused one
	t.d.act([]fyne.Disableable{t.send}, func(context.Context) error {
		_, err := store.SendMessage(rctx, woID, text, vis)
		return err
	}, func(err error) {
		if err != nil {
			t.d.showError(err)
			return
		}
		if t.wo != nil && t.wo.WorkOrderId == woID && strings.TrimSpace(t.text.Text) == text {
			t.text.SetText("") // sent; a new message typed meanwhile stays
			// Each message is to the customer unless the person says
			// otherwise: a "Nobody (record only)" chosen once must not
			// hide the next one.
			t.vis.SetSelectedIndex(0)
		}
		t.d.queued("Message on " + number)
	})
}

// messageHeading says who wrote a message and when, to whom it is visible,
// and, for ours still in the outbox, that it is on its way or was refused.
func messageHeading(m storage.ThreadMessage) string {
	// The contractor side's messages (Desktop, Mobile, the API) are
	// "ours"; the service signs all the API's alike, so whose each one is
	// comes from this window's outbox and the office hub's record.
	who := "Our team"
	switch {
	case m.Sender != nil && m.Sender.Type == "Customer":
		who = format.OrDash(m.Sender.Name) + " (customer)"
	case m.Own:
		who = "You"
	case m.Author != "":
		who = m.Author
	case m.Sender != nil && strings.TrimSpace(m.Sender.Name) != "":
		who = m.Sender.Name + " (our team)"
	}
	when := format.Time(m.Created)
	if r := m.Row; r != nil {
		switch r.State {
		case storage.OutboxPending, storage.OutboxSending:
			when = "sending…"
			if actiontext.Waiting(*r) {
				when = "sending… (waiting for the connection)"
			}
		}
	}
	vis := ""
	switch {
	case !m.MessageVisibility.CustomerSees():
		vis = " · Internal · " + visibilityLabels[m.MessageVisibility]
	case m.MessageVisibility != "" && m.MessageVisibility != api.VisibilityAll:
		vis = " · " + visibilityLabels[m.MessageVisibility]
	}
	if m.Row != nil && m.Row.MayHaveBeenSent() {
		return fmt.Sprintf("%s%s · %s", who, vis, actiontext.Unsure(*m.Row))
	}
	if m.Row != nil && m.Row.State == storage.OutboxFailed {
		// The service's reason last: it may be long.
		return fmt.Sprintf("%s%s · not sent, refused by the service: %s", who, vis, format.Capital(strings.TrimSpace(m.Row.Error)))
	}
	return fmt.Sprintf("%s · %s%s", who, when, vis)
}

// messageEntry is the message being written: Ctrl+Enter sends it (Enter
// is a new line), and the window's other shortcuts work while typing.
type messageEntry struct {
	widget.Entry
	send   func()
	window func(fyne.Shortcut) bool // the window's shortcuts (Desk.typedShortcut)
}

func newMessageEntry(send func(), window func(fyne.Shortcut) bool) *messageEntry {
	e := &messageEntry{send: send, window: window}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab is false: Tab moves on to the visibility and Send (Fyne's
// multi-line entry keeps it, and the keyboard is stuck in the box).
func (e *messageEntry) AcceptsTab() bool { return false }

func (e *messageEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		cs.Modifier == fyne.KeyModifierShortcutDefault {
		e.send()
		return
	}
	if !e.window(s) {
		e.Entry.TypedShortcut(s)
	}
}

// A refused message is corrected in the compose box.
var _ = correctIn(outbox.FormMessage, "in the Messages tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*messagesTab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	d.unlessTyped(t.holdsOther(draft), "The Messages tab holds a message you have not sent.", "message", func() {
		start(func() { t.edit(draft.Text, draft.Visibility) })
	})
	return true
})

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
func (t *messagesTab) holdsOther(d *outbox.Draft) bool {
	typed := strings.TrimSpace(t.text.Text)
	return typed != "" && typed != strings.TrimSpace(d.Text)
}
