package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// activityTab merges what the customer did (notifications) and what we did
// (outbox rows) for one work order, newest first. Failed rows show the
// service's message with Retry and Discard.
type activityTab struct {
	d     *Desk
	wo    *api.WorkOrder
	items []activity
	list  *widget.List
	empty *widget.Label
}

type activity struct {
	at    time.Time
	title string
	text  string
	row   *storage.OutboxRow // set for our own actions
}

func newActivityTab(d *Desk) *activityTab {
	t := &activityTab{d: d}
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
				buttons.Objects[0].(*widget.Button).OnTapped = func() { t.d.retryAction(id) }
				buttons.Objects[1].(*widget.Button).OnTapped = func() { t.d.discardAction(id) }
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

func (t *activityTab) Title() string       { return "Activity" }
func (t *activityTab) Icon() fyne.Resource { return theme.HistoryIcon() }
func (t *activityTab) Content() fyne.CanvasObject {
	return container.NewStack(t.empty, t.list)
}

func (t *activityTab) Show(wo *api.WorkOrder) {
	t.wo = wo
	ctx := context.Background()
	var items []activity
	if rows, err := t.d.store.OutboxRows(ctx, wo.WorkOrderId); err == nil {
		for i := range rows {
			r := rows[i]
			text := actiontext.State(r)
			if why := t.d.colleagueFirst(wo.WorkOrderId, r); why != "" {
				text += " " + why
			}
			items = append(items, activity{at: r.Created, title: "You: " + actiontext.What(r), text: text, row: &r})
		}
	}
	if evs, err := t.d.store.Events(ctx, wo.WorkOrderId); err == nil {
		for _, e := range evs {
			at := e.Header.ActionDate
			if at.IsZero() {
				at = e.ReceivedAt
			}
			title, text := eventTitle(e.Event), eventText(e.Event, wo.Currency)
			if e.PerformedBy != "" && e.PerformedBy == t.d.officePerson() {
				continue // our own action, coming back from the hub: listed as "You:" already
			}
			if e.PerformedBy != "" {
				title, text = colleagueDidEvent(e, wo), "Through the office hub."
				if msg, ok := storage.EventMessage(e.Event); ok {
					text = "Through the office hub: “" + msg + "”"
				}
			}
			items = append(items, activity{at: at, title: title, text: text})
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

// lastActionText describes the newest of our actions on a work order.
func (d *Desk) lastActionText(woID int64) string {
	rows, err := d.store.OutboxRows(context.Background(), woID)
	if err != nil || len(rows) == 0 {
		return ""
	}
	latest := rows[0]
	for _, r := range rows {
		if r.Created.After(latest.Created) || (r.Created.Equal(latest.Created) && r.Id > latest.Id) {
			latest = r
		}
	}
	return "Last action: " + actiontext.What(latest) + " — " + actiontext.State(latest)
}

// bulkMaxLines is how many work orders the result dialog lists before it
// scrolls instead of growing.
const bulkMaxLines = 12

// showBulkResult lists each work order of bulk action row (titled as the
// view's button says it: "Accept") with its outcome, updating as the
// outbox row is sent; its first line says where the whole action stands
// ("2 work orders accepted", in the action's past tense from its table
// entry), and the dialog is as tall as what it lists.
func (d *Desk) showBulkResult(title string, row *storage.OutboxRow, ids []int64) {
	rowID, past := row.Id, row.Kind.Colleague().Past
	outcome := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	outcome.Wrapping = fyne.TextWrapWord
	lines := widget.NewLabel("")
	lines.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(outcome, lines)
	var content fyne.CanvasObject = body
	if len(ids) > bulkMaxLines {
		content = container.NewVScroll(body)
	}
	dlg := dialog.NewCustom(fmt.Sprintf("%s %d work orders", title, len(ids)), "Close", content, d.win)
	fit := func() {
		if len(ids) > bulkMaxLines {
			dlg.Resize(fyne.NewSize(560, 420))
			return
		}
		// Twice: a word-wrapped label knows its height once it has its width.
		for range 2 {
			dlg.Resize(fyne.NewSize(480, 0))
		}
	}
	render := func() {
		row, err := d.store.OutboxRow(context.Background(), rowID)
		if err != nil {
			outcome.SetText("The result cannot be read")
			lines.SetText(format.Capital(err.Error()))
		} else {
			r := bulkResults(d, row, ids)
			outcome.SetText(r.outcome(past, len(ids)))
			lines.SetText(strings.Join(r.lines, "\n"))
		}
		fit()
	}
	render()
	cancel := d.store.Subscribe(d.coalesced(func([]int64) { render() }))
	dlg.SetOnClosed(cancel)
	dlg.Show()
	fit()
}

// bulkResult is where each work order of a bulk action stands.
type bulkResult struct {
	lines                           []string // "NWR73231 — done", one per work order
	done, refused, dropped, waiting int
}

// outcome says where the whole action stands, with past the action's past
// tense ("accepted"): "2 work orders accepted", "1 accepted, 1 refused".
func (r bulkResult) outcome(past string, n int) string {
	if r.waiting > 0 {
		if answered := n - r.waiting; answered > 0 {
			return fmt.Sprintf("%d of %d answered so far…", answered, n)
		}
		return "Waiting for the service's answer…"
	}
	if r.done == n {
		if n == 1 {
			return "1 work order " + past
		}
		return fmt.Sprintf("%d work orders %s", n, past)
	}
	parts := []string{fmt.Sprintf("%d %s", r.done, past)}
	if r.done == 0 {
		parts[0] = "None " + past
	}
	if r.refused > 0 {
		parts = append(parts, fmt.Sprintf("%d refused", r.refused))
	}
	if r.dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d not sent", r.dropped))
	}
	return strings.Join(parts, ", ")
}

func bulkResults(d *Desk, row *storage.OutboxRow, ids []int64) bulkResult {
	results := map[int64]api.BulkResult{}
	for _, r := range row.BulkResults {
		results[r.WorkOrderId] = r
	}
	var out bulkResult
	for _, id := range ids {
		name := fmt.Sprint(id)
		if wo, err := d.store.WorkOrder(context.Background(), id); err == nil {
			name = wo.WorkOrderNumber
		}
		line := name + " — "
		r, ok := results[id]
		switch {
		case ok && r.Succeeded():
			line += "done"
			out.done++
		case ok:
			line += "refused: " + r.Message
			out.refused++
		case row.State == storage.OutboxFailed:
			line += "refused: " + row.Error
			out.refused++
		case row.State == storage.OutboxDone:
			line += "done" // the service answered for the whole batch
			out.done++
		case row.State == storage.OutboxDiscarded:
			line += "not sent (discarded)"
			out.dropped++
		default:
			line += actiontext.State(*row)
			out.waiting++
		}
		out.lines = append(out.lines, line)
	}
	return out
}

func eventTitle(e api.Event) string {
	return eventAuthor(e) + ": " + strings.Replace(format.Status(e.Header.Action), "Nte ", "NTE ", 1)
}

// eventAuthor names who did what a notification tells: the customer, or
// someone of our team in CorrigoPro (Desktop, Mobile). A notification's
// token does not cover its body, so no person's name is taken from it;
// names come from what the service answers when asked (the thread) and
// from the office hub's record of a write.
func eventAuthor(e api.Event) string {
	if s := e.Header.Sender; s != nil && s.Type != "" && s.Type != "Customer" {
		return "Our team, in CorrigoPro"
	}
	return "The customer"
}

// eventText says what a notification changed, in plain words.
func eventText(e api.Event, currency string) string {
	switch b := e.Body.(type) {
	case *api.QuoteChangedEvent:
		text := "Quote " + strings.ToLower(format.Status(b.Quote.QuoteStatus)) + ": " + format.Money(b.Quote.Amount.In(currency))
		if b.Quote.Comment != "" {
			text += " — " + b.Quote.Comment
		}
		return text
	case *api.NteChangedEvent:
		return "NTE is now " + format.Nte(b.Amount.In(currency))
	case *api.RejectedEvent:
		return "Rejected: " + b.Comment
	case *api.InvoiceStatusChangedEvent:
		text := "Invoice " + strings.ToLower(format.Status(b.Status)) // "Invoice submitted", as the badge
		if b.AuthNumber != "" {
			text += " · authorization " + b.AuthNumber
		}
		if b.CheckNumber != "" {
			text += " · check " + b.CheckNumber
		}
		if b.Amount != nil {
			text += " · " + format.Money((*b.Amount).In(currency))
		}
		if b.Comment != "" {
			text += " — " + b.Comment
		}
		return text
	case *api.AppointmentInfoChangedEvent:
		if b.Appointment.ScheduledStart == nil {
			return "Appointment cleared"
		}
		return "Scheduled start " + format.Time(*b.Appointment.ScheduledStart)
	case *api.NewWorkOrderEvent:
		return "New work order: " + b.Details.AccompanyingMessage
	case *api.ProcedureMarkedEvent:
		if b.IsMarkedNa {
			return "A procedure was marked not applicable"
		}
		return "A procedure is applicable again"
	}
	if text := moreEventText(e); text != "" {
		return text
	}
	return "Received " + e.Header.Action
}
