package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// visibilityLabels say who sees a message, in the service's terms.
var visibilityLabels = map[api.MessageVisibility]string{
	api.VisibilityAll:      "Customer and crew",
	api.VisibilityCruOnly:  "Our crew only",
	api.VisibilityCruLeads: "Customer, crew leads",
	api.VisibilityCruSubs:  "Crew, subcontractors",
	api.VisibilityNone:     "Nobody (record only)",
}

// messagesTab is the thread with the customer and the compose box.
type messagesTab struct {
	d        *Desk
	wo       *api.WorkOrder
	messages []api.Message
	list     *widget.List
	empty    *widget.Label
	text     *widget.Entry
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
			body := widget.NewLabel("")
			body.Wrapping = fyne.TextWrapWord
			return container.NewVBox(who, body)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			m := t.messages[i]
			box := o.(*fyne.Container)
			// Messages from the contractor side (Desktop, Mobile, this app
			// through the API) are "ours", whatever name the service signs.
			who := "Our team"
			if m.Sender != nil && m.Sender.Type == "Customer" {
				who = orDash(m.Sender.Name) + " (customer)"
			}
			vis := ""
			if m.MessageVisibility != "" && m.MessageVisibility != api.VisibilityAll {
				vis = " · " + visibilityLabels[m.MessageVisibility]
			}
			box.Objects[0].(*widget.Label).SetText(fmt.Sprintf("%s · %s%s", who, localTime(m.Created), vis))
			box.Objects[1].(*widget.Label).SetText(m.Text)
			t.list.SetItemHeight(i, box.MinSize().Height)
		},
	)
	t.empty = widget.NewLabel("No messages yet.")
	t.text = widget.NewMultiLineEntry()
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

func (t *messagesTab) title() string       { return "Messages" }
func (t *messagesTab) icon() fyne.Resource { return theme.MailComposeIcon() }
func (t *messagesTab) content() fyne.CanvasObject {
	compose := container.NewVBox(t.text,
		container.NewBorder(nil, nil, widget.NewLabel("Visible to"), nil, t.vis),
		container.NewHBox(layout.NewSpacer(), t.counter, t.send))
	return container.NewBorder(nil, container.NewPadded(compose), nil, nil, container.NewStack(t.empty, t.list))
}

func (t *messagesTab) show(wo *api.WorkOrder) {
	t.wo = wo
	msgs, err := t.d.store.Messages(context.Background(), wo.WorkOrderId)
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
		t.text.SetPlaceHolder(sentence(why.Error()) + ".")
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
	switch {
	case text == "":
		t.d.showError(errors.New("write a message first"))
		return
	}
	if err := api.CheckText("message", text, true); err != nil {
		t.d.showError(err)
		return
	}
	store, woID, number, vis := t.d.store, t.wo.WorkOrderId, t.wo.WorkOrderNumber, t.visibility()
	t.d.act([]fyne.Disableable{t.send}, func(ctx context.Context) error {
		_, err := store.SendMessage(ctx, woID, text, vis)
		return err
	}, func(err error) {
		if err != nil {
			t.d.showError(err)
			return
		}
		if t.wo != nil && t.wo.WorkOrderId == woID && strings.TrimSpace(t.text.Text) == text {
			t.text.SetText("") // sent; a new message typed meanwhile stays
		}
		t.d.queued("Message on " + number)
	})
}
