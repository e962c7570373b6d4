package sandbox

import (
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"POST", "/api/workorder/search", kindReadBody, (*call).search},
	endpoint{"GET", "/api/workorder", kindRead, (*call).getWorkOrders},
	endpoint{"PUT", "/api/workorder/accept", kindMutate, (*call).accept},
	endpoint{"PUT", "/api/workorder/reject", kindMutate, (*call).reject},
	endpoint{"PUT", "/api/bulk/accept", kindMutate, (*call).bulkAccept},
	endpoint{"PUT", "/api/bulk/reject", kindMutate, (*call).bulkReject},
)

// search answers POST /api/workOrder/search in LastUpdate order. Assumption:
// no paging (the real paging parameters are unknown), date ranges inclusive
// at both ends, WorkOrderNumber matched exactly but case-insensitively.
func (c *call) search() (any, error) {
	p, bad := serve.SearchParameters(c.body)
	if bad != nil {
		return nil, bad
	}
	idx := c.s.st.byUpdate
	lo, hi := 0, len(idx)
	if p.LastUpdate != nil {
		if p.LastUpdate.From != nil {
			from := p.LastUpdate.From.UnixNano()
			lo = sort.Search(len(idx), func(i int) bool { return idx[i].t >= from })
		}
		if p.LastUpdate.To != nil {
			to := p.LastUpdate.To.UnixNano()
			hi = sort.Search(len(idx), func(i int) bool { return idx[i].t > to })
		}
	}
	out := []serve.BasicWorkOrder{}
	for _, e := range idx[lo:max(lo, hi)] {
		o := c.s.st.orders[e.id]
		if !matches(&o.wo, &p) {
			continue
		}
		out = append(out, serve.Basic(&o.wo))
	}
	return map[string]any{"WorkOrders": out, "MessageId": c.msgID}, nil
}

func matches(w *api.WorkOrder, p *api.SearchParameters) bool {
	if p.WorkOrderNumber != "" && !strings.EqualFold(p.WorkOrderNumber, w.WorkOrderNumber) {
		return false
	}
	if p.CustomerId != 0 && p.CustomerId != w.Customer.Id {
		return false
	}
	if len(p.Statuses) > 0 && !statusIn(w.Status, p.Statuses...) {
		return false
	}
	if !inRange(&w.Created, p.Created) {
		return false
	}
	var ack, onSite, due *time.Time
	if w.Sla != nil {
		ack, onSite, due = w.Sla.AcknowledgeBy, w.Sla.OnSiteBy, w.Sla.DueDate
	}
	return inRange(ack, p.AcknowledgeBy) && inRange(onSite, p.OnSiteBy) && inRange(due, p.DueDate)
}

func inRange(t *time.Time, r *api.DateRange) bool {
	if r == nil || r.From == nil && r.To == nil {
		return true
	}
	if t == nil {
		return false
	}
	return (r.From == nil || !t.Before(*r.From)) && (r.To == nil || !t.After(*r.To))
}

// getWorkOrders answers GET /api/workOrder?ids=..: at most 50 ids, given as
// repeated ids=, as ids[0]=, or comma-separated; unknown ids are left out.
func (c *call) getWorkOrders() (any, error) {
	ids, bad := serve.IDs(c.r.URL.Query())
	if bad != nil {
		return nil, bad
	}
	out := make([]*api.WorkOrder, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if o, ok := c.s.st.orders[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, &o.wo)
		}
	}
	return map[string]any{"WorkOrders": out, "MessageId": c.msgID}, nil
}

func checkText(property, text string, required bool) error {
	n := utf8.RuneCountInString(text)
	if required && strings.TrimSpace(text) == "" {
		return serve.Invalid(property, "%s is required", property)
	}
	if n > api.MaxCommentLength {
		return serve.Invalid(property, "%s is longer than %d characters", property, api.MaxCommentLength)
	}
	return nil
}

func (c *call) accept() (any, error) {
	var req api.AcceptRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if err := checkText("Comment", req.Comment, false); err != nil {
		return nil, err
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if err := c.s.acceptOrder(o, c.now); err != nil {
		return nil, err
	}
	return nil, nil
}

func (s *Sandbox) acceptOrder(o *order, now time.Time) error {
	if o.wo.IsPreBilled {
		return business(api.CodePreBilled, "Work order %s is pre-billed; it is accepted by submitting its invoice.", o.wo.WorkOrderNumber)
	}
	if o.wo.Status != api.StatusNew {
		return wrongStatus(o, "accepting", api.StatusNew)
	}
	o.wo.Status = api.StatusAccepted
	s.st.touch(o, now)
	return nil
}

func (c *call) reject() (any, error) {
	var req api.RejectRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if err := checkText("Comment", req.Comment, true); err != nil {
		return nil, err
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	return nil, c.s.rejectOrder(o, req.Comment, c.now)
}

// rejectOrder: only New → Rejected, which is terminal. Spec §3 says a
// rejected notification "is available", so one is sent even though the
// contractor caused it (spec wins over service-facts §9.1 here).
func (s *Sandbox) rejectOrder(o *order, comment string, now time.Time) error {
	if o.wo.Status != api.StatusNew {
		return wrongStatus(o, "rejecting", api.StatusNew)
	}
	o.wo.Status = api.StatusRejected
	s.st.touch(o, now)
	s.notify.send(o, api.ActionRejected, apiSender, now, api.RejectedEvent{Status: api.StatusRejected, Comment: comment})
	return nil
}

// maxBulk caps one bulk call. Assumption: the real limit is unpublished;
// 100 matches the spirit of the 50-id read batches.
const maxBulk = 100

func (c *call) bulk(apply func(o *order, comment string) error, commentRequired bool) (any, error) {
	var req api.BulkRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if len(req.WorkOrderIds) == 0 {
		return nil, serve.Invalid("WorkOrderIds", "WorkOrderIds is required")
	}
	if len(req.WorkOrderIds) > maxBulk {
		return nil, serve.Invalid("WorkOrderIds", "at most %d work orders per bulk call", maxBulk)
	}
	if err := checkText("Comment", req.Comment, commentRequired); err != nil {
		return nil, err
	}
	out := make([]api.BulkResult, 0, len(req.WorkOrderIds))
	for _, id := range req.WorkOrderIds {
		r := api.BulkResult{WorkOrderId: id}
		o, err := c.order(id)
		if err == nil {
			err = apply(o, req.Comment)
		}
		if e, ok := err.(*api.Error); ok {
			r.Code, r.Message = e.Code, e.Message
		}
		out = append(out, r)
	}
	return out, nil
}

func (c *call) bulkAccept() (any, error) {
	return c.bulk(func(o *order, _ string) error { return c.s.acceptOrder(o, c.now) }, false)
}

func (c *call) bulkReject() (any, error) {
	return c.bulk(func(o *order, comment string) error { return c.s.rejectOrder(o, comment, c.now) }, true)
}
