package outbox

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/workorderdesk/workdesk/api"
)

// Who goes: assigning technicians and subcontractors to work orders, and
// taking them off (PUT /api/bulk/assign, /api/bulk/unassign). One write may
// name several work orders and several associates; the service takes each
// work order on its own and answers per work order, so a row is done for
// the work orders it took and refused for the others, as a bulk acceptance
// is.

const (
	KindAssign   Kind = "assign"
	KindUnassign Kind = "unassign"
)

// FormCrew is where a refused assignment is corrected: who is assigned.
const FormCrew Form = "crew"

// What a colleague's assignments are called: "Ana Ruiz assigned Kenji Sato
// to this".
var (
	assignedTo     = Colleague{Event: "AssociatesAssigned", Verb: "assigned", Of: "to", ToWhom: true}
	unassignedFrom = Colleague{Event: "AssociatesUnassigned", Verb: "unassigned", Of: "from", ToWhom: true}
)

const crewJudged = "each work order, re-read: it lists every associate named (an unassignment: none of them). " +
	"Whoever assigned them, the service documents assigning someone already assigned as a no-op, so the " +
	"work order is as ours would leave it; a work order that does not say who is assigned cannot tell, and the " +
	"write is sent again, which that no-op makes harmless."

func crewSpec(assign bool) spec[api.AssignRequest] {
	return spec[api.AssignRequest]{
		call: func(ctx context.Context, c *api.Client, r *api.AssignRequest, _ Env) (any, error) {
			call, a := (*api.Client).BulkAssign, api.Assign
			if !assign {
				call, a = (*api.Client).BulkUnassign, api.Unassign
			}
			rs, err := call(c, ctx, r)
			if err != nil {
				return nil, err
			}
			return judge(ctx, c, a, rs, r.AssociateIds), nil
		},
		draft:   func(r *api.AssignRequest, _ string) *Draft { return &Draft{Associates: r.AssociateIds} },
		subject: func(r *api.AssignRequest) Subject { return Subject{Whom: r.AssociateIds} },
		// The work order shows the queued change of who goes.
		// Where the record does not say who is assigned, it stays unknown:
		// a queued unassignment must not make it read "nobody".
		effect: func(ctx context.Context, wo *api.WorkOrder, r *api.AssignRequest, env Env) {
			who, known := wo.Assigned()
			if !known {
				return
			}
			wo.SetAssigned(AssignApplied(who, assign, r.AssociateIds, env.Associates(ctx)))
		},
		landed: func(ctx context.Context, c *api.Client, r *api.AssignRequest, q *LandedQuery) (bool, any, error) {
			wos, err := c.GetWorkOrders(ctx, q.WorkOrders)
			if err != nil {
				return false, nil, err
			}
			if len(wos) != len(q.WorkOrders) {
				return false, nil, nil
			}
			out := make([]api.BulkResult, 0, len(wos))
			for _, wo := range wos {
				for _, id := range r.AssociateIds {
					on, known := wo.AssignedTo(id)
					if !known || on != assign {
						return false, nil, nil
					}
				}
				out = append(out, api.BulkResult{WorkOrderId: wo.WorkOrderId})
			}
			return true, out, nil
		},
	}
}

var _ = register(GroupCrew,
	def(&Entry{
		Kind: KindAssign, Rule: api.Assign, Noun: "Assignment",
		Route:     Route{http.MethodPut, "/api/bulk/assign"},
		Colleague: assignedTo, Conflicts: []Kind{KindReject},
		Fix:    &Fix{Form: FormCrew, Again: "assign"},
		Judged: crewJudged,
	}, crewSpec(true)),
	def(&Entry{
		Kind: KindUnassign, Rule: api.Unassign, Noun: "Unassignment",
		Route:     Route{http.MethodPut, "/api/bulk/unassign"},
		Colleague: unassignedFrom, Conflicts: []Kind{KindReject},
		Fix:    &Fix{Form: FormCrew, Again: "unassign"},
		Judged: crewJudged,
	}, crewSpec(false)),
)

// AssignApplied is who after an assignment (assign) or an unassignment of
// ids: someone already there stays once; one the names do not list is
// "associate 7101".
func AssignApplied(who []api.Associate, assign bool, ids []int64, names map[int64]api.Associate) []api.Associate {
	out := slices.Clone(who)
	for _, id := range ids {
		i := slices.IndexFunc(out, func(a api.Associate) bool { return a.Id == id })
		switch {
		case assign && i < 0:
			a, ok := names[id]
			if !ok {
				a = api.Associate{Id: id, Name: fmt.Sprintf("associate %d", id)}
			}
			out = append(out, a)
		case !assign && i >= 0:
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}
