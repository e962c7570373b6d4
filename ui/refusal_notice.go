package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// noticeRefusals tells the person of each action the service refused since
// the last look, wherever they are looking: a desktop notification and the
// status bar's note, both naming the work order. The first look only takes
// stock: refusals from before the window opened show on their work orders.
func (d *Desk) noticeRefusals() {
	rows, err := d.store.UnfinishedOutbox(context.Background())
	if err != nil {
		return
	}
	failed := map[int64]bool{}
	for _, r := range rows {
		if r.State != storage.OutboxFailed {
			continue
		}
		failed[r.Id] = true
		if d.refusals != nil && !d.refusals[r.Id] {
			d.announceRefusal(r)
		}
	}
	d.refusals = failed
	d.status.Settled(failed)
}

// announceRefusal raises the notification of one refused action.
func (d *Desk) announceRefusal(r storage.OutboxRow) {
	where := d.workOrdersName(r.WorkOrderIds)
	title, body := refusalNotification(r, where)
	if n := d.notifier(); n != nil {
		n.Notify(title, body, false)
	}
	what := " was refused by the service. "
	if q := r.Asked(); q != nil {
		what = " " + q.Notice + " "
	}
	d.status.Alert(r.Id, where+": "+r.Summary+what+format.Capital(strings.TrimSpace(r.Error)))
}

// refusalNotification words the desktop notification of a refusal.
func refusalNotification(r storage.OutboxRow, where string) (title, body string) {
	if q := r.Asked(); q != nil {
		return q.Notified + ": " + r.Summary + " on " + where, format.Sentence(r.Error)
	}
	return "Refused: " + r.Summary + " on " + where, format.Sentence(r.Error)
}

// workOrdersName names the work orders of an action by number.
func (d *Desk) workOrdersName(ids []int64) string {
	if len(ids) != 1 {
		return fmt.Sprintf("%d work orders", len(ids))
	}
	if wo, err := d.store.WorkOrder(context.Background(), ids[0]); err == nil {
		return wo.WorkOrderNumber
	}
	return fmt.Sprintf("work order %d", ids[0])
}
