package ui

import (
	"context"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// customerNotice says why a work order is closed to the actions the
// customer's last word forbids: recalled or on hold, with the reason its
// notification gave. When a notification says so but the replica does
// not (its re-read failed), it says that too: the actions stay open, and
// the service judges them.
func (d *Desk) customerNotice(wo *api.WorkOrder) string {
	evs, err := d.store.Events(context.Background(), wo.WorkOrderId)
	if err != nil {
		return ""
	}
	var last *storage.EventRecord
	for i := len(evs) - 1; i >= 0; i-- {
		switch evs[i].Header.Action {
		case api.ActionRecalled, api.ActionPutOnHold, api.ActionReopened:
			last = &evs[i]
		}
		if last != nil {
			break
		}
	}
	if last == nil || last.Header.Action == api.ActionReopened {
		return ""
	}
	why := ""
	if b, ok := last.Body.(*api.StatusChangedEvent); ok && strings.TrimSpace(b.Comment) != "" {
		why = ": " + strings.TrimRight(strings.TrimSpace(b.Comment), ".")
	}
	// The replica holds a version newer than the notification: what the
	// service said since is the truth.
	superseded := !wo.LastUpdate.IsZero() && wo.LastUpdate.After(last.Header.ActionDate)
	switch {
	case last.Header.Action == api.ActionRecalled && wo.Status == api.StatusRecalled:
		return "The customer recalled this work order" + why + ". Nothing more can be sent for it."
	case last.Header.Action == api.ActionPutOnHold && wo.Status == api.StatusOnHold:
		return "The customer put this work order on hold" + why + ". Visits wait until the customer reopens it."
	case superseded:
		return ""
	case last.Header.Action == api.ActionRecalled:
		return "The customer's notification says it recalled this work order" + why + "; the service has not confirmed it yet."
	case last.Header.Action == api.ActionPutOnHold:
		return "The customer's notification says it put this work order on hold" + why + "; the service has not confirmed it yet."
	}
	return ""
}
