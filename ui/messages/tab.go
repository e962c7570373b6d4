package messages

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// Tab is the thread with the customer and the compose box. Our
// messages still in the outbox are in the thread too: "sending…" while they
// wait, and "not sent" with Retry, Edit and Discard if the service refused one.
type Tab struct {
	replica Replica
	queue   Queue
	win     Window

	wo       *api.WorkOrder
	messages []storage.ThreadMessage
	list     *widget.List
	empty    *widget.Label
	text     *messageEntry
	vis      *widget.Select
	send     *widget.Button
	counter  *widget.Label
}

// New is the tab, reading replica, queueing messages on queue and acting
// through win.
func New(replica Replica, queue Queue, win Window) *Tab {
	t := &Tab{replica: replica, queue: queue, win: win}
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
				buttons.Objects[0].(*widget.Button).OnTapped = func() { t.win.Retry(row.Id) }
				arrange.ShowIf(!row.MayHaveBeenSent(), buttons.Objects[1])
				buttons.Objects[1].(*widget.Button).OnTapped = func() { t.win.Edit(row) }
				buttons.Objects[2].(*widget.Button).OnTapped = func() { t.win.Discard(row.Id) }
				buttons.Show()
			} else {
				buttons.Hide()
			}
			t.list.SetItemHeight(i, item.MinSize().Height)
		},
	)
	t.empty = widget.NewLabel("No messages yet.")
	t.text = newMessageEntry(t.Press, win.Shortcut)
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
		opts = append(opts, format.Visibility(v))
	}
	t.vis = widget.NewSelect(opts, nil)
	t.vis.SetSelectedIndex(0)
	t.send = widget.NewButtonWithIcon("Send", theme.MailSendIcon(), t.onSend)
	t.send.Importance = widget.HighImportance
	return t
}

func (t *Tab) Title() string       { return "Messages" }
func (t *Tab) Icon() fyne.Resource { return theme.MailComposeIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	compose := container.NewVBox(t.text,
		container.NewBorder(nil, nil, widget.NewLabel("Visible to"), nil, t.vis),
		container.NewHBox(layout.NewSpacer(), t.counter, t.send))
	return container.NewBorder(nil, container.NewPadded(compose), nil, nil, container.NewStack(t.empty, t.list))
}

func (t *Tab) Show(wo *api.WorkOrder) {
	if t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId {
		t.vis.SetSelectedIndex(0) // another work order's message starts visible to all
	}
	t.wo = wo
	msgs, err := t.replica.Thread(context.Background(), wo.WorkOrderId)
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
	t.win.Enable(t.send, why == nil)
	if why != nil {
		t.text.SetPlaceHolder(format.Capital(why.Error()) + ".")
	} else {
		t.text.SetPlaceHolder("Write to the customer or the crew…")
	}
}

func (t *Tab) visibility() api.MessageVisibility {
	for _, v := range api.AllVisibilities {
		if format.Visibility(v) == t.vis.Selected {
			return v
		}
	}
	return api.VisibilityAll
}

func (t *Tab) onSend() {
	text := strings.TrimSpace(t.text.Text)
	if text == "" {
		t.win.ShowError(dialogs.NotYet("write a message first"))
		return
	}
	if err := api.CheckText("message", text, true); err != nil {
		t.win.ShowError(err)
		return
	}
	queue, woID, number, vis := t.queue, t.wo.WorkOrderId, t.wo.WorkOrderNumber, t.visibility()
	rctx := t.win.Replacing(woID, outbox.GroupMessage) // read now: a correction replaces the refused one
	t.win.Act([]fyne.Disableable{t.send}, func(context.Context) error {
		_, err := queue.SendMessage(rctx, woID, text, vis)
		return err
	}, func(err error) {
		if err != nil {
			t.win.ShowError(err)
			return
		}
		if t.wo != nil && t.wo.WorkOrderId == woID && strings.TrimSpace(t.text.Text) == text {
			t.text.SetText("") // sent; a new message typed meanwhile stays
			// Each message is to the customer unless the person says
			// otherwise: a "Nobody (record only)" chosen once must not
			// hide the next one.
			t.vis.SetSelectedIndex(0)
		}
		t.win.Queued("Message on " + number)
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
		vis = " · Internal · " + format.Visibility(m.MessageVisibility)
	case m.MessageVisibility != "" && m.MessageVisibility != api.VisibilityAll:
		vis = " · " + format.Visibility(m.MessageVisibility)
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

// KeyboardStart is the compose box: Ctrl+4 takes the keyboard there, to
// write, rather than to the thread above it.
func (t *Tab) KeyboardStart() fyne.Focusable { return t.text }

// EditDraft puts a refused message back into the compose box.
func (t *Tab) EditDraft(text string, vis api.MessageVisibility) {
	t.text.SetText(text)
	if label := format.Visibility(vis); label != "" {
		t.vis.SetSelected(label)
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(t.text); c != nil {
		c.Focus(t.text)
	}
}

// HoldsOther reports whether the compose box holds a message other than
// the refused one.
func (t *Tab) HoldsOther(d *outbox.Draft) bool {
	typed := strings.TrimSpace(t.text.Text)
	return typed != "" && typed != strings.TrimSpace(d.Text)
}

// Press sends the message being written as the window's shortcut does
// (Ctrl+Enter), saying why not when it cannot be sent now.
func (t *Tab) Press() { t.win.Press(t.send, "Messages", api.SendMessage) }

// WriteToCustomer puts text in the compose box, addressed to the
// customer, with the keyboard in it, for the person to read over and send.
func (t *Tab) WriteToCustomer(text string) {
	t.text.SetText(text)
	t.vis.SetSelectedIndex(0) // to the customer
	if c := t.win.Window().Canvas(); c != nil {
		c.Focus(t.text)
	}
}
