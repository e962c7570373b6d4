package pending

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// bulkMaxLines is how many work orders the result dialog lists before it
// scrolls instead of growing.
const bulkMaxLines = 12

// Results shows what the service answered for each work order of a bulk
// action, in a dialog over the window.
type Results struct {
	replica ResultsReplica
	win     ResultsWindow
}

// NewResults is the results dialog, reading replica and shown over win.
func NewResults(replica ResultsReplica, win ResultsWindow) *Results {
	return &Results{replica: replica, win: win}
}

// Show lists each work order of bulk action row (titled as the
// view's button says it: "Accept") with its outcome, updating as the
// outbox row is sent; its first line says where the whole action stands
// ("2 work orders accepted", in the action's past tense from its table
// entry), and the dialog is as tall as what it lists.
func (d *Results) Show(title string, row *storage.OutboxRow, ids []int64) {
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
	dlg := dialogs.NewCustom(fmt.Sprintf("%s %d work orders", title, len(ids)), "Close", content, d.win.Window())
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
		row, err := d.replica.OutboxRow(context.Background(), rowID)
		if err != nil {
			outcome.SetText("The result cannot be read")
			lines.SetText(format.Capital(err.Error()))
		} else {
			r := d.bulkResults(row, ids)
			outcome.SetText(r.outcome(past, len(ids)))
			lines.SetText(strings.Join(r.lines, "\n"))
		}
		fit()
	}
	render()
	cancel := d.win.Subscribe(func([]int64) { render() })
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

func (d *Results) bulkResults(row *storage.OutboxRow, ids []int64) bulkResult {
	results := map[int64]api.BulkResult{}
	for _, r := range row.BulkResults {
		results[r.WorkOrderId] = r
	}
	var out bulkResult
	for _, id := range ids {
		name := fmt.Sprint(id)
		if wo, err := d.replica.WorkOrder(context.Background(), id); err == nil {
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
