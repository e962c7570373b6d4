package outbox

import (
	"context"
	"fmt"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// Accepting, rejecting (one or many) and scheduling a work order.

const (
	KindAccept      Kind = "accept"
	KindReject      Kind = "reject"
	KindBulkAccept  Kind = "bulkAccept"
	KindBulkReject  Kind = "bulkReject"
	KindAppointment Kind = "appointment"
)

// Where a refused rejection and a refused scheduled start are corrected.
const (
	FormReason   Form = "reason"   // the reason dialog of a rejection
	FormSchedule Form = "schedule" // the scheduled start's date and time
)

// What a colleague's acceptance, rejection and scheduling are called; the
// bulk actions make the same events as the single ones.
var (
	accepted       = Colleague{Event: "AcceptedByContractor", Verb: "accepted", Past: "accepted"}
	rejected       = Colleague{Event: "RejectedByContractor", Verb: "rejected", Past: "rejected"}
	appointmentSet = Colleague{Event: "AppointmentSet", Verb: "set the appointment", Of: "of"}
)

// statusJudged is how the landed check of a write that only moves the
// status is judged (statusLanded).
const statusJudged = "the work order's status, re-read: it is where this write puts it. Whoever moved it there, " +
	"sending ours again would be refused (3001), so calling it landed loses nothing of ours."

var _ = register(GroupWorkOrder,
	def(&Entry{
		Kind: KindAccept, Rule: api.Accept, Noun: "Acceptance",
		Route:     Route{http.MethodPut, "/api/workOrder/accept"},
		Colleague: accepted, Conflicts: []Kind{KindAccept, KindReject},
		Status: api.StatusAccepted, Judged: statusJudged,
	}, spec[api.AcceptRequest]{
		call:   noResult((*api.Client).Accept),
		landed: statusLanded[api.AcceptRequest](api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusCheckedOut, api.StatusOnHold),
	}),
	def(&Entry{
		Kind: KindReject, Rule: api.Reject, Noun: "Rejection",
		Route:     Route{http.MethodPut, "/api/workOrder/reject"},
		Colleague: rejected, Conflicts: []Kind{KindAccept, KindReject},
		Fix:    &Fix{Form: FormReason, Again: "reject again"},
		Status: api.StatusRejected, Judged: statusJudged,
	}, spec[api.RejectRequest]{
		call:   noResult((*api.Client).Reject),
		landed: statusLanded[api.RejectRequest](api.StatusRejected),
		draft:  func(r *api.RejectRequest, _ string) *Draft { return &Draft{Text: r.Comment} },
	}),
	def(&Entry{
		Kind: KindBulkAccept, Rule: api.Accept, Noun: "Acceptance",
		Route:     Route{http.MethodPut, "/api/bulk/accept"},
		Colleague: accepted, Conflicts: []Kind{KindAccept, KindReject},
		Status: api.StatusAccepted, Judged: bulkJudged,
	}, spec[api.BulkRequest]{
		call:   judgedBulk(api.Accept, (*api.Client).BulkAccept),
		landed: bulkLanded(api.StatusAccepted),
	}),
	def(&Entry{
		Kind: KindBulkReject, Rule: api.Reject, Noun: "Rejection",
		Route:     Route{http.MethodPut, "/api/bulk/reject"},
		Colleague: rejected, Conflicts: []Kind{KindAccept, KindReject},
		Status: api.StatusRejected, Judged: bulkJudged,
	}, spec[api.BulkRequest]{
		call:   judgedBulk(api.Reject, (*api.Client).BulkReject),
		landed: bulkLanded(api.StatusRejected),
	}),
	def(&Entry{
		Kind: KindAppointment, Rule: api.SetAppointment, Noun: "Scheduled start",
		Route:     Route{http.MethodPut, "/api/workOrder/appointmentInfo"},
		Colleague: appointmentSet, Conflicts: []Kind{KindReject, KindCheckOut},
		Fix: &Fix{Form: FormSchedule, Again: "set the scheduled start"},
		Judged: "the work order's scheduled start (and access type, when one was asked for), re-read: it is the one asked for. " +
			"Whoever set it, sending ours again would set the same start, so calling it landed changes nothing.",
	}, spec[api.AppointmentRequest]{
		call: noResult((*api.Client).UpdateAppointment),
		landed: func(ctx context.Context, c *api.Client, r *api.AppointmentRequest, q *LandedQuery) (bool, any, error) {
			wo, err := c.GetWorkOrder(ctx, q.WorkOrders[0])
			if err != nil {
				return false, nil, err
			}
			s := wo.Schedule
			return s != nil && s.ScheduledStart != nil && s.ScheduledStart.Equal(r.ScheduledStart) &&
				(r.Pte == "" || s.Pte == r.Pte), nil, nil
		},
		draft: func(r *api.AppointmentRequest, _ string) *Draft {
			start := r.ScheduledStart.UTC()
			return &Draft{At: &start, Pte: r.Pte}
		},
	}),
)

const bulkJudged = "each work order's status, re-read: the write took effect when none is still New, and each one's " +
	"outcome is read off its status. Whoever moved them, a New one is still ours to send."

// bulkLanded: a bulk action took effect when none of its work orders is
// still New; each one's outcome is then read off its status.
func bulkLanded(want api.WorkOrderStatus) func(context.Context, *api.Client, *api.BulkRequest, *LandedQuery) (bool, any, error) {
	return func(ctx context.Context, c *api.Client, _ *api.BulkRequest, q *LandedQuery) (bool, any, error) {
		wos, err := c.GetWorkOrders(ctx, q.WorkOrders)
		if err != nil {
			return false, nil, err
		}
		var out []api.BulkResult
		for _, wo := range wos {
			if wo.Status == api.StatusNew {
				return false, nil, nil
			}
			r := api.BulkResult{WorkOrderId: wo.WorkOrderId}
			if wo.Status != want {
				r.Code, r.Message = api.CodeWrongStatus, fmt.Sprintf("%s is %s", wo.Name(), wo.Status.Label())
			}
			out = append(out, r)
		}
		return len(out) > 0, out, nil
	}
}

// judgedBulk is a bulk call whose per-item answer is judged: an item the
// answer did not say plainly (api.BulkResult.Unknown) is settled by
// re-reading its work order (api.JudgeBulk), and stays unknown, never
// success, when that cannot tell.
func judgedBulk(a api.Action, call func(*api.Client, context.Context, *api.BulkRequest) ([]api.BulkResult, error)) func(context.Context, *api.Client, *api.BulkRequest, Env) (any, error) {
	return func(ctx context.Context, c *api.Client, r *api.BulkRequest, _ Env) (any, error) {
		rs, err := call(c, ctx, r)
		if err != nil {
			return nil, err
		}
		return judge(ctx, c, a, rs, nil), nil
	}
}

// judge settles the unknown items of a bulk answer by the work orders as
// the service shows them now; a re-read that fails leaves them unknown.
func judge(ctx context.Context, c *api.Client, a api.Action, rs []api.BulkResult, associates []int64) []api.BulkResult {
	var unknown []int64
	for _, r := range rs {
		if r.Unknown {
			unknown = append(unknown, r.WorkOrderId)
		}
	}
	if len(unknown) == 0 {
		return rs
	}
	wos, err := c.GetWorkOrders(api.WithMessageId(ctx, ""), unknown)
	if err != nil {
		return rs
	}
	return api.JudgeBulk(a, rs, wos, associates)
}

// JudgeItems settles a bulk write's per-item answer as its Send does (for
// the hub, which forwards the write and reads the answer itself): items
// the answer did not say plainly are judged by their work orders re-read.
func (e *Entry) JudgeItems(ctx context.Context, c *api.Client, req any, rs []api.BulkResult) []api.BulkResult {
	var who []int64
	if a, ok := req.(*api.AssignRequest); ok {
		who = a.AssociateIds
	}
	return judge(ctx, c, e.Rule, rs, who)
}
