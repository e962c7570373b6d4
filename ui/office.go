package ui

import (
	"context"
	"slices"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/format"
)

// colleagueRecently is how long a colleague's change marks a work order's
// header.
const colleagueRecently = 24 * time.Hour

// colleagueNote marks a work order a colleague changed lately, in office
// mode: "Ben Okafor accepted this · 10:02". The person's own actions come
// back from the hub too; those are not news to them.
func (d *Desk) colleagueNote(woID int64) string {
	e, at := d.lastColleague(woID, format.Now(), nil)
	if e == nil || format.Now().Sub(at) > colleagueRecently {
		return ""
	}
	var wo *api.WorkOrder
	if d.detail != nil && d.detail.wo != nil && d.detail.wo.WorkOrderId == woID {
		wo = d.detail.wo
	}
	return actiontext.ColleagueDidThisEvent(*e, wo) + " · " + format.Time(at)
}

// colleagueFirst explains a refused action of ours by what a colleague did
// first that conflicts with it, when the hub's events say so: "Already
// accepted by Ben Okafor at 10:02."
func (d *Desk) colleagueFirst(woID int64, r storage.OutboxRow) string {
	conflicts := r.Kind.Conflicts()
	if r.State != storage.OutboxFailed || len(conflicts) == 0 {
		return ""
	}
	before := r.Updated
	if before.IsZero() {
		before = format.Now()
	}
	e, at := d.lastColleague(woID, before, func(action string) bool { return slices.Contains(conflicts, action) })
	if e == nil {
		return ""
	}
	return actiontext.ColleagueBefore(e.PerformedBy, e.Header.Action, e.Whom, format.Time(at))
}

// lastColleague is the newest event, at or before until, of something a
// colleague did through the hub to the work order (office mode only), of an
// action that match accepts (nil: any).
func (d *Desk) lastColleague(woID int64, until time.Time, match func(action string) bool) (*storage.EventRecord, time.Time) {
	if !d.deps.Office {
		return nil, time.Time{}
	}
	me := d.officePerson()
	evs, err := d.store.Events(context.Background(), woID)
	if err != nil {
		return nil, time.Time{}
	}
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		if e.PerformedBy == "" || e.PerformedBy == me || match != nil && !match(e.Header.Action) {
			continue
		}
		at := e.Header.ActionDate
		if at.IsZero() {
			at = e.ReceivedAt
		}
		if at.After(until) {
			continue
		}
		return e, at
	}
	return nil, time.Time{}
}

// officePerson is the name the hub knows this window's person by ("" when
// not in office mode or not known yet).
func (d *Desk) officePerson() string {
	if !d.deps.Office || d.deps.Health == nil {
		return ""
	}
	return d.deps.Health().Person
}
