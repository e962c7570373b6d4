package activity

import (
	"context"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Tab merges what the customer did (notifications) and what we did
// (outbox rows) for one work order, newest first. Failed rows show the
// service's message with Retry and Discard.
type Tab struct {
	replica Replica
	win     Window

	wo    *api.WorkOrder
	items []item
	list  *widget.List
	empty *widget.Label
}

// item is one line of the tab: a notification, or an action of ours.
type item struct {
	at    time.Time
	title string
	text  string
	row   *storage.OutboxRow // set for our own actions
}

// New is the tab, reading replica and acting through win.
func New(replica Replica, win Window) *Tab {
	t := &Tab{replica: replica, win: win}
	t.list = widget.NewList(
		func() int { return len(t.items) },
		func() fyne.CanvasObject {
			title := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			title.Wrapping = fyne.TextWrapWord // a long action is read whole, not cut at the edge
			text := widget.NewLabel("")
			text.Wrapping = fyne.TextWrapWord
			retry := widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), nil)
			discard := widget.NewButtonWithIcon("Discard…", theme.DeleteIcon(), nil)
			return container.NewBorder(nil, nil, nil, container.NewHBox(retry, discard), container.NewVBox(title, text))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			a := t.items[i]
			box := o.(*fyne.Container)
			texts := box.Objects[0].(*fyne.Container)
			texts.Objects[0].(*widget.Label).SetText(format.Time(a.at) + " · " + a.title)
			body := texts.Objects[1].(*widget.Label)
			body.SetText(a.text)
			body.Importance = widget.MediumImportance
			buttons := box.Objects[1].(*fyne.Container)
			if a.row != nil && a.row.State == storage.OutboxFailed {
				body.Importance = widget.DangerImportance
				id := a.row.Id
				buttons.Objects[0].(*widget.Button).SetText(actiontext.Retry(*a.row))
				buttons.Objects[0].(*widget.Button).OnTapped = func() { t.win.Retry(id) }
				buttons.Objects[1].(*widget.Button).OnTapped = func() { t.win.Discard(id) }
				buttons.Show()
			} else {
				buttons.Hide()
			}
			body.Refresh()
			t.list.SetItemHeight(i, box.MinSize().Height)
		},
	)
	t.empty = arrange.Wrapped(widget.NewLabel("Nothing has happened on this work order yet."))
	return t
}

func (t *Tab) Title() string       { return "Activity" }
func (t *Tab) Icon() fyne.Resource { return theme.HistoryIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	return container.NewStack(t.empty, t.list)
}

func (t *Tab) Show(wo *api.WorkOrder) {
	t.wo = wo
	ctx := context.Background()
	var items []item
	if rows, err := t.replica.OutboxRows(ctx, wo.WorkOrderId); err == nil {
		for i := range rows {
			r := rows[i]
			text := actiontext.State(r)
			if why := t.win.ColleagueFirst(wo.WorkOrderId, r); why != "" {
				text += " " + why
			}
			items = append(items, item{at: r.Created, title: "You: " + actiontext.What(r), text: text, row: &r})
		}
	}
	if evs, err := t.replica.Events(ctx, wo.WorkOrderId); err == nil {
		for _, e := range evs {
			at := e.Header.ActionDate
			if at.IsZero() {
				at = e.ReceivedAt
			}
			title, text := eventTitle(e.Event), eventText(e.Event, wo.Currency)
			if e.PerformedBy != "" && e.PerformedBy == t.win.OfficePerson() {
				continue // our own action, coming back from the hub: listed as "You:" already
			}
			if e.PerformedBy != "" {
				title, text = actiontext.ColleagueDidEvent(e, wo), "Through the office hub."
				if msg, ok := storage.EventMessage(e.Event); ok {
					text = "Through the office hub: “" + msg + "”"
				}
			}
			items = append(items, item{at: at, title: title, text: text})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].at.After(items[j].at) })
	t.items = items
	if len(items) == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
	t.list.Refresh()
}
