package sandbox

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// Associates (service-facts §4.2): each branch has a crew of its own
// technicians (CruMember) and a few subcontractors. The oracle of assign
// and unassign keeps the documented rules: each work order on its own,
// an associate already assigned a silent no-op, one not of the work
// order's branch an error (one error object per such associate) after
// which nothing is assigned to that work order, and the status never
// changes. "Assignment does not affect work order status or other
// properties that can be retrieved by GET /api/workOrder" (service-facts
// §16): an assignment moves no LastUpdate (a sync searching by it does
// not see one) and changes nothing else of the record. Assumptions,
// beside what they decide: the statuses it is allowed in (all but
// Rejected and Recalled), unassign following assign's rules, the request
// body (api.AssignRequest) and where a work order lists its associates
// (api.WorkOrder.Associates, our guess: the plain dialect answers who is
// assigned there, DialectRenamed leaves the list out, as a service that
// lists them nowhere would).

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"GET", "/api/associates", kindRead, (*call).associates},
	endpoint{"PUT", "/api/bulk/assign", kindMutate, (*call).bulkAssign},
	endpoint{"PUT", "/api/bulk/unassign", kindMutate, (*call).bulkUnassign},
)

// crewDef is one branch's associates, in the order the list gives them.
type crewDef struct {
	branch int64
	crew   []string // CruMember
	subs   []string // Subcontractor
}

// crews are the demo's associates: ids follow the branch (branch 492042's
// start at 7101), so they stay the same whatever the seed.
var crews = []crewDef{
	{492042, []string{"Kenji Sato", "Miguel Alvarez", "Sarah Chen", "Dana Brooks", "Luis Ortega", "Priya Nair"},
		[]string{"Delta Roofing & Sheet Metal", "Northside Electrical Co."}},
	{492051, []string{"Hannah Schmidt", "Dmitri Volkov", "Chloe Evans", "Oliver Grant"},
		[]string{"Albion Lift Services Ltd", "Rhein Kältetechnik GmbH"}},
	{492063, []string{"Takeshi Mori", "Yui Tanaka", "Haruto Kimura"},
		[]string{"Kanto Facility Partners"}},
}

// branchAssociates builds every branch's list from crews.
func branchAssociates() map[int64][]api.Associate {
	out := map[int64][]api.Associate{}
	for k, c := range crews {
		id := int64(7101 + 100*k)
		for _, n := range c.crew {
			out[c.branch] = append(out[c.branch], api.Associate{Id: id, Name: n, Type: api.AssociateCruMember})
			id++
		}
		id = int64(7151 + 100*k)
		for _, n := range c.subs {
			out[c.branch] = append(out[c.branch], api.Associate{Id: id, Name: n, Type: api.AssociateSubcontractor})
			id++
		}
	}
	return out
}

// associateOf finds associate id among branch's.
func (s *store) associateOf(branch, id int64) (api.Associate, bool) {
	i := slices.IndexFunc(s.associates[branch], func(a api.Associate) bool { return a.Id == id })
	if i < 0 {
		return api.Associate{}, false
	}
	return s.associates[branch][i], true
}

// associates answers GET /api/associates?branchId=N. A branch the company
// does not have is 3003, as a bad customer id is.
func (c *call) associates() (any, error) {
	branch, err := c.queryID("branchId")
	if err != nil {
		return nil, err
	}
	list, ok := c.s.st.associates[branch]
	if !ok {
		return nil, business(api.CodeNoSuchEntity, "Branch %d does not exist.", branch)
	}
	return c.envelope("Associates", list), nil
}

// assignment decodes and checks the body both calls share.
func (c *call) assignment() (api.AssignRequest, error) {
	var req api.AssignRequest
	if err := c.decode(&req); err != nil {
		return req, err
	}
	switch {
	case len(req.WorkOrderIds) == 0:
		return req, serve.Invalid("WorkOrderIds", "WorkOrderIds is required")
	case len(req.WorkOrderIds) > maxBulk:
		return req, serve.Invalid("WorkOrderIds", "at most %d work orders per bulk call", maxBulk)
	case len(req.AssociateIds) == 0:
		return req, serve.Invalid("AssociateIds", "AssociateIds is required")
	}
	return req, nil
}

// eachAssignment runs change on each work order of the request and
// answers the documented array: one object per work order that succeeded,
// one error object per problem of each that failed.
func (c *call) eachAssignment(op string, change func(o *order, who []api.Associate) bool) (any, error) {
	req, err := c.assignment()
	if err != nil {
		return nil, err
	}
	out := make([]api.BulkResult, 0, len(req.WorkOrderIds))
	for _, id := range req.WorkOrderIds {
		o, err := c.order(id)
		if err == nil && o.wo.Status == api.StatusRejected {
			err = business(api.CodeWrongStatus, "Work order %s was rejected; %s is not possible.", o.wo.WorkOrderNumber, op)
		}
		if e, ok := err.(*api.Error); ok {
			out = append(out, api.BulkResult{WorkOrderId: id, Code: e.Code, Message: e.Message})
			continue
		}
		var who []api.Associate
		var bad []api.BulkResult
		for _, aid := range req.AssociateIds {
			a, ok := c.s.st.associateOf(o.wo.BranchId, aid)
			if !ok {
				bad = append(bad, api.BulkResult{WorkOrderId: id, Code: api.CodeBusinessRule,
					Message: "Associate " + idText(aid) + " is not valid for branch " + idText(o.wo.BranchId) + "."})
				continue
			}
			who = append(who, a)
		}
		if len(bad) > 0 {
			out = append(out, bad...) // and nothing is assigned to this one
			continue
		}
		if change(o, who) {
			c.s.st.changed()
		}
		out = append(out, api.BulkResult{WorkOrderId: id})
	}
	return out, nil
}

// bulkAssign answers PUT /api/bulk/assign: who is already assigned stays,
// silently.
func (c *call) bulkAssign() (any, error) {
	return c.eachAssignment("assigning", func(o *order, who []api.Associate) bool {
		cur, _ := o.wo.Assigned()
		changed := false
		for _, a := range who {
			if !slices.ContainsFunc(cur, func(x api.Associate) bool { return x.Id == a.Id }) {
				cur = append(cur, a)
				changed = true
			}
		}
		o.wo.SetAssigned(cur)
		return changed
	})
}

// bulkUnassign answers PUT /api/bulk/unassign: who is not assigned is a
// no-op, as for assign.
func (c *call) bulkUnassign() (any, error) {
	return c.eachAssignment("unassigning", func(o *order, who []api.Associate) bool {
		cur, _ := o.wo.Assigned()
		kept := make([]api.Associate, 0, len(cur))
		for _, x := range cur {
			if !slices.ContainsFunc(who, func(a api.Associate) bool { return a.Id == x.Id }) {
				kept = append(kept, x)
			}
		}
		o.wo.SetAssigned(kept)
		return len(kept) != len(cur)
	})
}

// assignCrews gives the generated world's work orders their branch's
// people: visits ahead or under way, and finished work, have a technician
// (now and then two, now and then none yet: the board's "not assigned"
// row); new, rejected and recalled ones have nobody. It draws from an rng
// of its own, so the rest of the world is what it was before associates.
func (s *store) assignCrews(seed int64) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0xa55ec1a7))
	ids := make([]int64, 0, len(s.orders))
	for id := range s.orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		o := s.orders[id]
		o.wo.BranchId = o.cust.BranchId
		var crew []api.Associate
		for _, a := range s.associates[o.wo.BranchId] {
			if a.Technician() {
				crew = append(crew, a)
			}
		}
		var who []api.Associate
		switch {
		case len(crew) == 0, statusIn(o.wo.Status, api.StatusNew, api.StatusRejected, api.StatusRecalled):
		case rng.IntN(7) == 0 && !o.wo.Status.Completed():
		default:
			first := rng.IntN(len(crew))
			who = append(who, crew[first])
			if rng.IntN(6) == 0 && len(crew) > 1 {
				who = append(who, crew[(first+1+rng.IntN(len(crew)-1))%len(crew)])
			}
		}
		o.wo.SetAssigned(who)
		o.wo.Schedule = inWorkingHours(o.wo.Schedule, o.wo.Created)
	}
}

// inWorkingHours moves a generated visit that starts at night into the
// working day it falls on (a dispatch board plans by day): before 7:00 it
// starts that many hours after 7:00, from 18:00 eight hours earlier; a
// visit is never moved before the work order arrived.
func inWorkingHours(s *api.Schedule, created time.Time) *api.Schedule {
	if s == nil || s.ScheduledStart == nil {
		return s
	}
	start := *s.ScheduledStart
	switch h := start.Hour(); {
	case h < 7:
		start = start.Add(7 * time.Hour)
	case h >= 18:
		start = start.Add(-8 * time.Hour)
	}
	if start.Before(created.Add(time.Hour)) {
		return s
	}
	return &api.Schedule{ScheduledStart: &start, Pte: s.Pte}
}

func idText(n int64) string { return strconv.FormatInt(n, 10) }
