package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// What the dispatch board reads: the visits of a week as the person sees
// them (the replica with the appointments and assignments still queued),
// the work waiting for a visit, and who can go. It reads only the replica:
// offline the board plans the same, and a colleague's plan appears as soon
// as the replica hears of it.

// Visit is a work order on the board.
type Visit struct {
	WorkOrderId int64
	Number      string
	Customer    string
	Site        string
	Status      api.WorkOrderStatus
	BranchId    int64
	Start       time.Time // zero: waiting for a visit
	OnSiteBy    time.Time // zero: none
	Pte         string    // the access type
	Assigned    []api.Associate
	// AssignedKnown: the record (or a queued assignment) says who goes.
	AssignedKnown bool
	// AssignedPartial: the record does not say who goes; Assigned are
	// those this office assigned (or queued), and others may go too.
	AssignedPartial bool
	// Queued: an appointment or assignment on it waits in the outbox.
	Queued bool
	// HeldBy is a refused action of the work order that holds back what
	// is queued after it (0 = none): the person must retry, correct or
	// discard it.
	HeldBy int64
}

// WorkOrder is the visit as the rules read it (status, number, deadline).
func (v *Visit) WorkOrder() *api.WorkOrder {
	wo := &api.WorkOrder{WorkOrderId: v.WorkOrderId, WorkOrderNumber: v.Number, Status: v.Status, BranchId: v.BranchId}
	if !v.OnSiteBy.IsZero() {
		at := v.OnSiteBy
		wo.Sla = &api.Sla{OnSiteBy: &at}
	}
	if v.AssignedKnown {
		wo.SetAssigned(v.Assigned)
	}
	return wo
}

// Week is the board's data for [From, To).
type Week struct {
	From, To time.Time
	// Visits are those starting in the week, by start.
	Visits []Visit
	// Waiting are the work orders with a visit ahead and none planned, by
	// on-site-by deadline (none last), at most WaitingLimit.
	Waiting []Visit
	// Crew is everyone who can go.
	Crew []Crew
}

// WaitingLimit bounds the board's side list.
const WaitingLimit = 300

// planKinds are the actions that change where a visit is on the board.
var planKinds = []outbox.Kind{outbox.KindAppointment, outbox.KindAssign, outbox.KindUnassign}

const visitColumns = `SELECT w.id, w.number, w.customer_name, w.site, w.status, w.scheduled_start, w.on_site_by,
 COALESCE(j.json->>'$.BranchId', 0), COALESCE(j.json->>'$.Schedule.Pte', '') FROM work_orders w JOIN work_order_json j ON j.id = w.id`

// Week reads the board's data for [from, to). A visit whose work order
// is checked out or closed (queued actions included) is not in its plan:
// a visit done early, back-dated, must not keep the technician booked on
// the day it was planned for (A13).
func (s *Store) Week(ctx context.Context, from, to time.Time) (*Week, error) {
	wk := &Week{From: from, To: to}
	visits, waiting, err := s.weekVisits(ctx, from, to)
	if err != nil {
		return nil, err
	}
	wk.Visits = slices.DeleteFunc(visits, func(v Visit) bool { return v.Status.VisitOver() })
	wk.Waiting = waiting
	if wk.Crew, err = s.AllAssociates(ctx); err != nil {
		return nil, err
	}
	return wk, nil
}

// weekVisits are the visits starting in [from, to), by start, visits over
// included, and the work waiting for a visit, as the person sees them: a
// work order with a plan or a status change still queued is read whole
// with it applied.
func (s *Store) weekVisits(ctx context.Context, from, to time.Time) (visits, waiting []Visit, err error) {
	// Work orders with a plan still queued are read whole, with it applied.
	touched, err := s.plannedIDs(ctx)
	if err != nil {
		return nil, nil, err
	}
	visits, err = s.visits(ctx, visitColumns+` WHERE (w.scheduled_start IS NULL) = 0 AND w.scheduled_start >= ? AND w.scheduled_start < ?
 ORDER BY w.scheduled_start, w.id`, from.UnixMilli(), to.UnixMilli())
	if err != nil {
		return nil, nil, err
	}
	waiting, err = s.visits(ctx, visitColumns+` WHERE w.scheduled_start IS NULL AND w.status IN ('New','Accepted','Paused')
 ORDER BY w.on_site_by IS NULL, w.on_site_by, w.id LIMIT ?`, WaitingLimit)
	if err != nil {
		return nil, nil, err
	}
	var ids []int64
	for _, list := range [][]Visit{visits, waiting} {
		for _, v := range list {
			ids = append(ids, v.WorkOrderId)
		}
	}
	// So are those whose status a queued action changes (a check-out sent
	// from a site without signal).
	changing, err := s.statusQueuedIDs(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range changing {
		if !slices.Contains(touched, id) {
			touched = append(touched, id)
		}
	}
	who, err := s.AssigneesOf(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	keep := func(v Visit) bool { return !slices.Contains(touched, v.WorkOrderId) }
	for _, list := range []*[]Visit{&visits, &waiting} {
		*list = slices.DeleteFunc(*list, func(v Visit) bool { return !keep(v) })
		for i := range *list {
			v := &(*list)[i]
			a := who[v.WorkOrderId]
			v.Assigned, v.AssignedKnown, v.AssignedPartial = a.Who, a.Known, a.Partial && a.Known
		}
	}
	silent, err := s.AssigneesOf(ctx, touched)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range touched {
		v, err := s.plannedVisit(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if a := silent[id]; v != nil && a.Partial {
			// The record does not say who goes: what this office
			// assigned, marked as such, not the queued list as the whole.
			v.Assigned, v.AssignedKnown, v.AssignedPartial = a.Who, a.Known, a.Known
		}
		switch {
		case v == nil:
		case !v.Start.IsZero() && !v.Start.Before(from) && v.Start.Before(to):
			visits = append(visits, *v)
		case v.Start.IsZero() && slices.Contains(api.VisitAhead, v.Status):
			waiting = append(waiting, *v)
		}
	}
	slices.SortStableFunc(visits, func(a, b Visit) int { return a.Start.Compare(b.Start) })
	slices.SortStableFunc(waiting, func(a, b Visit) int {
		switch {
		case a.OnSiteBy.IsZero() != b.OnSiteBy.IsZero():
			if a.OnSiteBy.IsZero() {
				return 1
			}
			return -1
		}
		return a.OnSiteBy.Compare(b.OnSiteBy)
	})
	if len(waiting) > WaitingLimit {
		waiting = waiting[:WaitingLimit]
	}
	return visits, waiting, nil
}

// statusQueuedIDs are those of ids with an action waiting in the outbox
// (not refused) that changes the work order's status.
func (s *Store) statusQueuedIDs(ctx context.Context, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var kinds []string
	for _, e := range outbox.Entries() {
		if e.Status != "" {
			kinds = append(kinds, string(e.Kind))
		}
	}
	rawKinds, err := json.Marshal(kinds)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT t.work_order_id FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id
 WHERE o.state IN ('pending','sending') AND o.kind IN (SELECT value FROM json_each(?))
 AND t.work_order_id IN (SELECT value FROM json_each(?)) ORDER BY t.work_order_id`, string(rawKinds), idsJSON(ids))
	if err != nil {
		return nil, fmt.Errorf("storage: reading the queued status changes: %w", err)
	}
	return scanIDs(rows)
}

// plannedIDs are the work orders with an appointment or assignment not yet
// done, oldest first.
func (s *Store) plannedIDs(ctx context.Context) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT t.work_order_id FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id
 WHERE o.state IN ('pending','sending','failed') AND o.kind IN (?, ?, ?) ORDER BY t.work_order_id`,
		string(planKinds[0]), string(planKinds[1]), string(planKinds[2]))
	if err != nil {
		return nil, fmt.Errorf("storage: reading the queued plans: %w", err)
	}
	return scanIDs(rows)
}

// plannedVisit is work order id as the board shows it: its record with
// every action still unfinished on it applied in order, and the first
// refusal among them, which holds back the ones after it.
func (s *Store) plannedVisit(ctx context.Context, id int64) (*Visit, error) {
	wo, held, queued, err := s.seenWorkOrder(ctx, id)
	if err != nil || wo == nil {
		return nil, err
	}
	v := visitOf(wo)
	v.HeldBy, v.Queued = held, queued
	return &v, nil
}

// seenWorkOrder is work order id as the person sees it: its record with
// every action still unfinished on it applied in order (nil when the
// replica does not hold it yet); held is the first refusal among them
// (0: none), queued whether a plan of it waits.
func (s *Store) seenWorkOrder(ctx context.Context, id int64) (wo *api.WorkOrder, held int64, queued bool, err error) {
	wo, err = s.WorkOrder(ctx, id)
	if err != nil {
		return nil, 0, false, nil // not in the replica (yet): nothing to place
	}
	rows, err := s.unfinished(ctx, id)
	if err != nil {
		return nil, 0, false, err
	}
	for i := range rows {
		r := &rows[i]
		if r.State == OutboxFailed && held == 0 {
			held = r.Id
		}
		if !slices.Contains(planKinds, r.Kind) && r.State == OutboxFailed {
			continue
		}
		s.applyExpected(ctx, wo, r)
		if r.Kind == outbox.KindAppointment {
			var q api.AppointmentRequest
			if json.Unmarshal(r.Request, &q) == nil && !q.ScheduledStart.IsZero() {
				start := q.ScheduledStart
				wo.Schedule = &api.Schedule{ScheduledStart: &start, Pte: q.Pte}
			}
		}
		if slices.Contains(planKinds, r.Kind) {
			queued = true
		}
	}
	return wo, held, queued, nil
}

// visitOf is the board's view of a whole record.
func visitOf(wo *api.WorkOrder) Visit {
	v := Visit{WorkOrderId: wo.WorkOrderId, Number: wo.WorkOrderNumber, Customer: wo.Customer.Name, Site: wo.SiteName(),
		Status: wo.Status, BranchId: wo.BranchId, Start: wo.ScheduledStart()}
	if wo.Schedule != nil {
		v.Pte = wo.Schedule.Pte
	}
	if wo.Sla != nil && wo.Sla.OnSiteBy != nil {
		v.OnSiteBy = *wo.Sla.OnSiteBy
	}
	v.Assigned, v.AssignedKnown = wo.Assigned()
	return v
}

// visits reads rows of visitColumns.
func (s *Store) visits(ctx context.Context, q string, args ...any) ([]Visit, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the week: %w", err)
	}
	defer rows.Close()
	var out []Visit
	for rows.Next() {
		var v Visit
		var status string
		var start, onSite sql.NullInt64
		if err := rows.Scan(&v.WorkOrderId, &v.Number, &v.Customer, &v.Site, &status, &start, &onSite, &v.BranchId, &v.Pte); err != nil {
			return nil, fmt.Errorf("storage: reading the week: %w", err)
		}
		v.Status = api.WorkOrderStatus(status)
		if start.Valid {
			v.Start = time.UnixMilli(start.Int64).UTC()
		}
		if onSite.Valid {
			v.OnSiteBy = time.UnixMilli(onSite.Int64).UTC()
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
