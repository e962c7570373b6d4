package pending

import (
	"context"
	"fmt"
	"strings"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Notice tells the person of each action the service refused since the
// last look, wherever they are looking: a desktop notification and the
// status bar's note, both naming the work order.
type Notice struct {
	replica NoticeReplica
	win     Announcer
	// refusals are the refused rows already announced (nil: no look yet).
	refusals map[int64]bool
}

// NewNotice is the notice of refusals, reading replica and telling win.
func NewNotice(replica NoticeReplica, win Announcer) *Notice {
	return &Notice{replica: replica, win: win}
}

// Look announces the actions refused since the last look. The first look
// only takes stock: refusals from before the window opened show on their
// work orders.
func (n *Notice) Look() {
	rows, err := n.replica.UnfinishedOutbox(context.Background())
	if err != nil {
		return
	}
	failed := map[int64]bool{}
	for _, r := range rows {
		if r.State != storage.OutboxFailed {
			continue
		}
		failed[r.Id] = true
		if n.refusals != nil && !n.refusals[r.Id] {
			n.announceRefusal(r)
		}
	}
	n.refusals = failed
	n.win.Settled(failed)
}

// announceRefusal raises the notification of one refused action.
func (n *Notice) announceRefusal(r storage.OutboxRow) {
	where := n.workOrdersName(r.WorkOrderIds)
	title, body := refusalNotification(r, where)
	n.win.NotifyDesktop(title, body)
	what := " was refused by the service. "
	if q := r.Asked(); q != nil {
		what = " " + q.Notice + " "
	}
	n.win.Alert(r.Id, where+": "+r.Summary+what+format.Capital(strings.TrimSpace(r.Error)))
}

// refusalNotification words the desktop notification of a refusal.
func refusalNotification(r storage.OutboxRow, where string) (title, body string) {
	if q := r.Asked(); q != nil {
		return q.Notified + ": " + r.Summary + " on " + where, format.Sentence(r.Error)
	}
	return "Refused: " + r.Summary + " on " + where, format.Sentence(r.Error)
}

// workOrdersName names the work orders of an action by number.
func (n *Notice) workOrdersName(ids []int64) string {
	if len(ids) != 1 {
		return fmt.Sprintf("%d work orders", len(ids))
	}
	if wo, err := n.replica.WorkOrder(context.Background(), ids[0]); err == nil {
		return wo.WorkOrderNumber
	}
	return fmt.Sprintf("work order %d", ids[0])
}
