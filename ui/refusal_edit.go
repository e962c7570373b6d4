package ui

import (
	"context"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/quote"
)

// Edit on a refused action puts what the person entered back into its form
// (storage reads it back: OutboxRow.Draft), for them to correct and queue
// again. The refused row stays until the corrected one is queued, which
// replaces it in the same step (storage.Replacing): giving up loses nothing.

// correction is a refused action the person is correcting in its form.
type correction struct {
	wo, row int64
	group   outbox.Group  // the part of the work order its form is in
	form    outbox.Form   // where it is corrected
	draft   *outbox.Draft // what the refused action carried
}

// corrector is how a form takes a refused action back. Each form registers
// its own beside its view (correctIn), so a new form is its view's
// business alone.
type corrector struct {
	where string // where the form is, in a sentence: "in the Quote tab"
	// open shows the form on the detail view v (which shows the refused
	// action's work order) and fills it with draft through start, first
	// asking whether to replace what the person typed there (unlessTyped);
	// false when the form is not there to be shown.
	open func(d *Desk, v *detailView, draft *outbox.Draft, start func(fill func())) bool
}

// correctors are the forms that take refused actions back.
var correctors = map[outbox.Form]corrector{}

// correctIn registers how form takes a refused action back, at package
// initialization.
func correctIn(form outbox.Form, where string, open func(d *Desk, v *detailView, draft *outbox.Draft, start func(fill func())) bool) bool {
	correctors[form] = corrector{where: where, open: open}
	return true
}

// correctingHint tells the person, while they correct r, what happens
// next: where it is corrected and how it is queued again.
func correctingHint(r storage.OutboxRow) string {
	where := "and queue it again"
	if form, again := r.Kind.CorrectedIn(); correctors[form].where != "" {
		where = correctors[form].where + " and " + again
	}
	return "Correct it " + where + ": the corrected one replaces this one."
}

// actionCtx is the context for queueing an action on work order woID from
// the form of group: while the person corrects a refused action there, the
// new action replaces it.
func (d *Desk) actionCtx(woID int64, group outbox.Group) context.Context {
	ctx := context.Background()
	if c := d.correcting; c != nil && c.wo == woID && c.group == group {
		return storage.Replacing(ctx, c.row)
	}
	return ctx
}

// stopCorrecting gives up correcting: the refused action stays as it was.
func (d *Desk) stopCorrecting() {
	d.correcting = nil
	d.detail.renderOutbox()
	if t, ok := tabIn[*quote.Tab](d.detail); ok {
		t.Gate(d.detail.wo) // a customer that refused quotes: closed again
	}
}

// editRefused opens the form of refused action r with what the person had
// entered. A form holding something else they typed and have not queued
// is not overwritten without asking.
func (d *Desk) editRefused(r storage.OutboxRow) {
	if !r.Correctable() {
		return
	}
	woID := r.WorkOrderIds[0]
	if d.detail.wo == nil || d.detail.wo.WorkOrderId != woID {
		d.detail.open(woID)
	}
	if d.detail.wo == nil || d.detail.wo.WorkOrderId != woID {
		return // it could not be opened (said so)
	}
	draft, _ := r.Draft(d.detail.wo.Currency)
	form, _ := r.Kind.CorrectedIn()
	v := d.detail
	start := func(fill func()) {
		d.correcting = &correction{wo: woID, row: r.Id, group: r.Group, form: form, draft: draft}
		if fill != nil {
			fill()
		}
		v.renderOutbox()
	}
	if c, ok := correctors[form]; ok && c.open(d, v, draft, start) {
		return
	}
	start(nil)
}

// unlessTyped runs fill at once, or, when the form holds something else
// the person typed (typed), first asks whether to replace it with the
// refused what. Keeping it starts no correction: what they typed is not
// queued in the refused action's place by surprise.
func (d *Desk) unlessTyped(typed bool, holds, what string, fill func()) {
	if !typed {
		fill()
		return
	}
	// Final: what was typed is lost once replaced, so Enter keeps it.
	dialogs.FinalOr("Replace what you typed?", holds+" Replace what you typed with the refused "+what+"?", "Replace", "Keep what I typed", true, func(ok bool) {
		if ok {
			fill()
		}
	}, d.win)
}

// tabIn is the detail view's tab of type T.
func tabIn[T tab](v *detailView) (T, bool) {
	for _, t := range v.tabs {
		if x, ok := t.(T); ok {
			return x, true
		}
	}
	return *new(T), false
}

// selectTab shows tab t (by its title: a compact tab bar shows no names).
func (v *detailView) selectTab(t tab) { v.showTab(t.Title()) }
