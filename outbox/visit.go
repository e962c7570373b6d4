package outbox

import (
	"context"
	"net/http"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Check-in, pause and check-out, and the completion details sent after.

const (
	KindCheckIn         Kind = "checkIn"
	KindPause           Kind = "pause"
	KindCheckOut        Kind = "checkOut"
	KindWorkDoneDetails Kind = "workDoneDetails"
)

// Where a refused visit action is corrected.
const (
	FormVisit    Form = "visit"    // when it happened
	FormCheckOut Form = "checkOut" // when it happened, with the completion details
)

// What a colleague's visit actions are called.
var (
	checkedIn   = Colleague{Event: "CheckedInByContractor", Verb: "checked in", Of: "on", Past: "checked in"}
	paused      = Colleague{Event: "PausedByContractor", Verb: "paused", Past: "paused"}
	checkedOut  = Colleague{Event: "CheckedOutByContractor", Verb: "checked out", Of: "of", Past: "checked out"}
	detailsSent = Colleague{Event: "WorkDoneDetailsSent", Verb: "sent the completion details", Of: "for"}
)

// Visit is a stored check-in, pause or check-out: the request as the
// person made it, and when they tapped. ActualActionDate is set in it only
// when they back-dated; whether the tap time goes out as well is decided
// when the row is sent (api.ActualActionDateFor), the only moment it is
// known how late the action reaches the service. Check-in and pause leave
// the completion fields empty.
type Visit struct {
	api.CheckOutRequest
	TappedAt time.Time `json:"TappedAt"`
}

// Timing is when the person acted and what they back-dated to (nil = now).
// A row queued before the tap time was kept carries its moment in
// ActualActionDate whether back-dated or not: it is taken as the tap, so it
// still goes out only where back-dating is allowed and it is late.
func (p Visit) Timing() (tapped time.Time, backDated *time.Time) {
	if p.TappedAt.IsZero() && p.ActualActionDate != nil {
		return *p.ActualActionDate, nil
	}
	return p.TappedAt, p.ActualActionDate
}

// ActionDate is when a stored visit happened, for showing: what the
// person back-dated to, or when they tapped.
func (p Visit) ActionDate() time.Time {
	tapped, back := p.Timing()
	if back != nil {
		return back.UTC()
	}
	if tapped.IsZero() {
		return time.Time{}
	}
	return tapped.UTC()
}

// completion is a check-out's completion details.
func (p *Visit) completion() api.Completion {
	return api.Completion{RepairInfo: p.RepairInfo, CustomFields: p.CustomFields}
}

// sendVisit sends a stored check-in, pause or check-out through call, with
// the ActualActionDate decided now: the back-date the person chose, or the
// tap time when the action reaches the service late at a customer that
// allows back-dating, or none. Settings not known count as not allowing it:
// the service then records the arrival time rather than refuse the visit.
func sendVisit(call func(c *api.Client, ctx context.Context, p *Visit) error) func(context.Context, *api.Client, *Visit, Env) (any, error) {
	return func(ctx context.Context, c *api.Client, p *Visit, env Env) (any, error) {
		cs, err := env.Settings(ctx, p.WorkOrderId)
		if err != nil {
			return nil, LocalError{err}
		}
		allows := cs != nil && cs.AllowBackdating.True()
		tapped, back := p.Timing()
		p.ActualActionDate = api.ActualActionDateFor(tapped, back, env.Now(), allows)
		return nil, call(c, ctx, p)
	}
}

// draftVisit reads back a check-in, pause or check-out: its comment, its
// completion details and the moment it was back-dated to (none when it was
// recorded as happening when sent).
func draftVisit(p *Visit, _ string) *Draft {
	d := &Draft{Text: p.Comment, Completion: p.completion()}
	if _, back := p.Timing(); back != nil {
		at := back.UTC()
		d.At = &at
	}
	return d
}

// visitWire is what a check-in or pause sends: no completion details, no
// tap time.
func visitWire(p *Visit) any { return &p.VisitRequest }

// checkOutWire is what a check-out sends: no tap time.
func checkOutWire(p *Visit) any { return &p.CheckOutRequest }

var _ = register(GroupVisit,
	def(&Entry{
		Kind: KindCheckIn, Rule: api.CheckIn, Noun: "Check-in",
		Route:     Route{http.MethodPut, "/api/workOrder/checkIn"},
		Colleague: checkedIn, Conflicts: []Kind{KindCheckIn, KindCheckOut, KindReject},
		Fix:    &Fix{Form: FormVisit, Again: "check in"},
		Status: api.StatusCheckedIn, Judged: statusJudged,
	}, spec[Visit]{
		wire:   visitWire,
		call:   sendVisit(func(c *api.Client, ctx context.Context, p *Visit) error { return c.CheckIn(ctx, &p.VisitRequest) }),
		landed: statusLanded[Visit](api.StatusCheckedIn),
		draft:  draftVisit,
	}),
	def(&Entry{
		Kind: KindPause, Rule: api.Pause, Noun: "Pause",
		Route:     Route{http.MethodPut, "/api/workOrder/pause"},
		Colleague: paused, Conflicts: []Kind{KindPause, KindCheckOut},
		Fix:    &Fix{Form: FormVisit, Again: "pause"},
		Status: api.StatusPaused, Judged: statusJudged,
	}, spec[Visit]{
		wire:   visitWire,
		call:   sendVisit(func(c *api.Client, ctx context.Context, p *Visit) error { return c.Pause(ctx, &p.VisitRequest) }),
		landed: statusLanded[Visit](api.StatusPaused),
		draft:  draftVisit,
	}),
	def(&Entry{
		Kind: KindCheckOut, Rule: api.CheckOut, Noun: "Check-out",
		Route:     Route{http.MethodPut, "/api/workOrder/checkOut"},
		Colleague: checkedOut, Conflicts: []Kind{KindCheckOut, KindPause},
		Fix:    &Fix{Form: FormCheckOut, Again: "check out"},
		Status: api.StatusCheckedOut, Rereads: Invoice, Judged: statusJudged,
	}, spec[Visit]{
		wire:   checkOutWire,
		call:   sendVisit(func(c *api.Client, ctx context.Context, p *Visit) error { return c.CheckOut(ctx, &p.CheckOutRequest) }),
		landed: statusLanded[Visit](api.StatusCheckedOut, api.StatusNeedsCompletionDetails, api.StatusVerified),
		draft:  draftVisit,
		// A PMRM check-out without the details the customer asks for
		// lands in NeedsCompletionDetails, not CheckedOut.
		effect: func(ctx context.Context, wo *api.WorkOrder, p *Visit, env Env) {
			cs, _ := env.Settings(ctx, wo.WorkOrderId)
			wo.Status = api.CheckOutOutcome(wo, cs, p.completion())
		},
	}),
	def(&Entry{
		Kind: KindWorkDoneDetails, Rule: api.CompleteDetails, Noun: "Completion details",
		Route:     Route{http.MethodPut, "/api/workOrder/workDoneDetails"},
		Colleague: detailsSent,
		Status:    api.StatusCheckedOut, Rereads: Invoice, Judged: statusJudged,
	}, spec[api.WorkDoneDetailsRequest]{
		call:   noResult((*api.Client).WorkDoneDetails),
		landed: statusLanded[api.WorkDoneDetailsRequest](api.StatusCheckedOut, api.StatusVerified),
	}),
)
