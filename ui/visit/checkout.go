package visit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// completionForm asks for exactly what the work order's customer requires
// at check-out (GET /api/customerSettings): a repair code from its list and
// an answer to each of its questions, a select where the answers are
// fixed (case-sensitive at the service, so never typed) and an entry
// otherwise. What is required is marked; the rule itself is api's
// (CheckOutProblem), and storage enforces it again.
type completionForm struct {
	box      *fyne.Container
	title    *widget.Label
	form     *widget.Form
	repair   *widget.Select
	fields   []completionField
	missing  *widget.Label
	settings *api.CustomerSettings
	codes    []api.RepairInfo
	// check is the rule whose refusal is shown under the form: asked
	// again as the person fills the form in, so the red words shrink to
	// what is still missing and go once nothing is.
	check func(api.Completion) error
	// relayout lays out the tab around the form again when the form grows
	// or shrinks (a container re-lays out its children only when refreshed).
	relayout func()
}

type completionField struct {
	desc   api.CustomFieldDescriptor
	choice *widget.Select // when the answer is one of desc.Values
	entry  *widget.Entry  // otherwise
}

func (f completionField) value() string {
	if f.choice != nil {
		return f.choice.Selected
	}
	return strings.TrimSpace(f.entry.Text)
}

func newCompletionForm() *completionForm {
	f := &completionForm{}
	f.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	f.title.Wrapping = fyne.TextWrapWord
	f.form = widget.NewForm()
	// Each label above its field: a long question beside a select made the
	// Visit tab the widest of the detail.
	f.form.Orientation = widget.Vertical
	f.missing = widget.NewLabel("")
	f.missing.Wrapping = fyne.TextWrapWord
	f.missing.Importance = widget.DangerImportance
	f.missing.Hide()
	f.box = container.NewVBox(f.title, f.form, f.missing)
	f.box.Hide()
	return f
}

// show rebuilds the form for wo's customer; nil settings (not synced yet)
// or a customer that asks nothing hide it.
func (f *completionForm) show(wo *api.WorkOrder, cs *api.CustomerSettings) {
	f.settings = cs
	f.fields, f.codes, f.repair = nil, nil, nil
	f.form.Items = nil
	f.missing.Hide()
	f.check = nil
	// Required, but no codes were read (a list under a name we did not
	// guess): nothing to choose and nothing demanded (api RepairRequired);
	// the form says so, and the service judges the check-out.
	unreadCodes := cs != nil && cs.RepairInfoRequired.True() && len(cs.RepairCodes) == 0
	if cs == nil || len(cs.RepairCodes) == 0 && !hasAskedFields(cs) && !unreadCodes {
		f.box.Hide()
		f.refresh()
		return
	}
	if cs.Known() {
		f.title.SetText(fmt.Sprintf("Completion details asked by %s (* required)", wo.Customer.Name))
	} else {
		// The settings' answer did not say what is required (another name,
		// another shape): everything is offered, nothing is demanded, and
		// the service judges the check-out.
		f.title.SetText(fmt.Sprintf("Completion details for %s: fill in what applies (what it requires could not be read; the service checks)", wo.Customer.Name))
	}
	if len(cs.RepairCodes) > 0 {
		f.codes = cs.RepairCodes
		labels := make([]string, len(cs.RepairCodes))
		for i, r := range cs.RepairCodes {
			labels[i] = r.Label()
		}
		f.repair = widget.NewSelect(labels, func(string) { f.recheck() })
		f.repair.PlaceHolder = "Choose the repair code"
		f.form.Append(requiredMark("Repair code", cs.RepairRequired()), f.repair)
	} else if unreadCodes {
		note := arrange.Wrapped(widget.NewLabel(wo.Customer.Name + " requires a repair code, but its list of codes could not be read: " +
			"check out without one, and the service says if it needs one."))
		note.Importance = widget.LowImportance
		f.form.Append("Repair code", note)
	}
	for _, d := range cs.CustomFields {
		if !d.Asked() {
			continue
		}
		cf := completionField{desc: d}
		var w fyne.CanvasObject
		if len(d.Values) > 0 {
			cf.choice = widget.NewSelect(d.Values, func(string) { f.recheck() })
			cf.choice.PlaceHolder = "Choose"
			w = cf.choice
		} else {
			cf.entry = widget.NewEntry()
			cf.entry.OnChanged = func(string) { f.recheck() }
			if d.DataLength > 0 {
				cf.entry.SetPlaceHolder(fmt.Sprintf("up to %d characters", d.DataLength))
			}
			w = cf.entry
		}
		f.fields = append(f.fields, cf)
		f.form.Append(requiredMark(d.Label, d.IsRequired.True()), w)
	}
	f.form.Refresh()
	f.box.Show()
	f.refresh()
}

func hasAskedFields(cs *api.CustomerSettings) bool {
	for _, d := range cs.CustomFields {
		if d.Asked() {
			return true
		}
	}
	return false
}

func requiredMark(label string, required bool) string {
	if required {
		return label + " *"
	}
	return label
}

// completion is what the person filled in.
func (f *completionForm) completion() api.Completion {
	var c api.Completion
	if f.repair != nil && f.repair.SelectedIndex() >= 0 {
		code := f.codes[f.repair.SelectedIndex()]
		c.RepairInfo = &code
	}
	for _, cf := range f.fields {
		if v := cf.value(); v != "" {
			c.CustomFields = append(c.CustomFields, api.CustomField{Id: cf.desc.Id, Value: v})
		}
	}
	return c
}

// fill puts c back into the form (a refused check-out being corrected):
// its repair code among the customer's, found by id, and each answer. A
// code or question the customer no longer has is left out, and the form
// then says what is missing when the check-out is tried.
func (f *completionForm) fill(c api.Completion) {
	if f.repair != nil {
		f.repair.ClearSelected()
		for i, code := range f.codes {
			if c.RepairInfo != nil && code.CodeId == c.RepairInfo.CodeId {
				f.repair.SetSelectedIndex(i)
			}
		}
	}
	for _, cf := range f.fields {
		v := c.Value(cf.desc.Id)
		switch {
		case cf.entry != nil:
			cf.entry.SetText(v)
		case v == "":
			cf.choice.ClearSelected()
		default:
			cf.choice.SetSelected(v)
		}
	}
	f.problem(nil, nil)
}

// holdsOther reports whether the person filled in details other than c.
func (f *completionForm) holdsOther(c api.Completion) bool {
	got := f.completion()
	if got.RepairInfo == nil && len(got.CustomFields) == 0 {
		return false
	}
	if (got.RepairInfo == nil) != (c.RepairInfo == nil) || got.RepairInfo != nil && got.RepairInfo.CodeId != c.RepairInfo.CodeId {
		return true
	}
	for _, cf := range f.fields {
		if got.Value(cf.desc.Id) != c.Value(cf.desc.Id) {
			return true
		}
	}
	return false
}

// problem shows err (what is missing) under the form, or clears it; check
// is the rule that found it, asked again as the form is filled in.
func (f *completionForm) problem(err error, check func(api.Completion) error) {
	f.check = check
	if err == nil {
		f.check = nil
		f.missing.Hide()
	} else {
		f.missing.SetText(err.Error())
		f.missing.Show()
	}
	f.refresh()
}

// recheck asks the rule of the problem shown again, after a change.
func (f *completionForm) recheck() {
	if f.check == nil || !f.missing.Visible() {
		return
	}
	err := f.check(f.completion())
	if err == nil || err.Error() != f.missing.Text {
		f.problem(err, f.check)
	}
}

func (f *completionForm) refresh() {
	f.box.Refresh()
	if f.relayout != nil {
		f.relayout()
	}
}

func (f *completionForm) setEnabled(on bool) {
	if f.repair != nil {
		arrange.SetEnabled(f.repair, on)
	}
	for _, cf := range f.fields {
		if cf.choice != nil {
			arrange.SetEnabled(cf.choice, on)
		} else {
			arrange.SetEnabled(cf.entry, on)
		}
	}
}

// customerSettings is the stored settings of wo's customer, nil when no
// sync has read them yet.
func (t *Tab) customerSettings(wo *api.WorkOrder) *api.CustomerSettings {
	cs, err := t.replica.CustomerSettings(context.Background(), wo.Customer.Id)
	if err != nil {
		return nil
	}
	return cs
}

// completionAhead reports whether a check-out, or the completion details,
// are still to come for wo, as the rules say.
func completionAhead(wo *api.WorkOrder) bool {
	for _, a := range []api.Action{api.CheckIn, api.CheckOut, api.CompleteDetails} {
		if wo.Can(a) == nil {
			return true
		}
	}
	return false
}

// showSettings applies what wo's customer requires to the visit tab: the
// completion form, the "Complete details" button, and back-dating only
// where the customer allows it.
func (t *Tab) showSettings(wo *api.WorkOrder) {
	cs := t.customerSettings(wo)
	t.settings = cs
	if t.wo == nil || t.formFor != wo.WorkOrderId || t.formStatus != wo.Status {
		// Asked while a check-out or the details are still ahead (the
		// rules allow a check-in, a check-out or the details); once checked
		// out there is nothing left to fill in.
		if completionAhead(wo) {
			t.form.show(wo, cs)
		} else {
			t.form.show(wo, nil)
		}
		t.formFor, t.formStatus = wo.WorkOrderId, wo.Status
	}
	t.form.setEnabled(wo.Can(api.CheckOut) == nil || wo.Can(api.CompleteDetails) == nil)
	if wo.Can(api.CompleteDetails) == nil {
		t.completeDetails.Show()
	} else {
		t.completeDetails.Hide()
	}
	if cs != nil && cs.AllowBackdating.False() {
		t.when.SetSelected(whenNow)
		t.when.Disable()
		t.backNote.SetText(wo.Customer.Name + " does not allow back-dating: a visit is recorded at the time it reaches the service.")
		t.backNote.Show()
	} else {
		t.when.Enable()
		t.backNote.Hide()
	}
}

// checkOutWrite is the store write queueing the check-out with the form's
// completion details, or what is still missing (shown on the form) when
// nothing may be queued.
func (t *Tab) checkOutWrite(at *time.Time) (func(context.Context) error, error) {
	done := t.form.completion()
	wo, settings := t.wo, t.settings
	check := func(c api.Completion) error { return api.CheckOutProblem(wo, settings, c) }
	if err := check(done); err != nil {
		t.form.problem(err, check)
		return nil, err
	}
	t.form.problem(nil, nil)
	q, woID := t.queue, t.wo.WorkOrderId
	// Read now, on the main goroutine: while the person corrects a refused
	// check-out, the new one replaces it, with the comment it carried.
	rctx := t.win.Replacing(woID, outbox.GroupVisit)
	comment := t.win.KeptComment(woID, outbox.FormCheckOut)
	return func(context.Context) error {
		_, err := q.CheckOutWith(rctx, woID, at, comment, done)
		return err
	}, nil
}

// onCompleteDetails sends the details of a work order checked out without
// them (PMRM, IVR), so it becomes CheckedOut and can be invoiced.
func (t *Tab) onCompleteDetails() {
	done := t.form.completion()
	wo, settings := t.wo, t.settings
	check := func(c api.Completion) error { return api.WorkDoneDetailsProblem(wo, settings, c) }
	if err := check(done); err != nil {
		t.form.problem(err, check)
		t.win.ShowError(err)
		return
	}
	t.form.problem(nil, nil)
	q, woID := t.queue, t.wo.WorkOrderId
	t.win.Act([]fyne.Disableable{t.completeDetails}, func(ctx context.Context) error {
		_, err := q.CompleteWorkDetails(ctx, woID, "", done)
		return err
	}, t.queued(woID, nil))
}

// confirmRealTime asks before queueing a check-in that will wait: where the
// customer forbids back-dating, the service records the time the check-in
// arrives, not the time of the tap (service-facts §4.1). queue runs on yes.
func (t *Tab) confirmRealTime(action string, queue func()) bool {
	if t.settings == nil || !t.settings.AllowBackdating.False() || !t.win.Unreachable() {
		return false
	}
	msg := fmt.Sprintf("The service cannot be reached right now. %s does not allow back-dating, so this %s will be recorded at the time it reaches the service, not now.\n\nQueue it anyway?",
		t.wo.Customer.Name, strings.ToLower(action))
	c := dialogs.NewConfirm(action+" while offline", msg, func(ok bool) {
		if ok {
			queue()
		}
	}, t.win.Window())
	c.SetConfirmText("Queue " + strings.ToLower(action))
	c.Show()
	return true
}

// confirmCheckOut asks first when a check-out would leave required
// procedure steps open (api.RequiredStepsOpen): after it they can no
// longer be done. It warns and lets the person go ahead: whether the
// service takes such a check-out is not published, and it judges. Then it
// asks about the completion details (confirmDetailsLater), if it must.
func (t *Tab) confirmCheckOut(queue func()) bool {
	if api.CheckOutProblem(t.wo, t.settings, t.form.completion()) != nil {
		return false // what the form still needs is said first (checkOutWrite)
	}
	open := t.wo.RequiredStepsOpen()
	if len(open) == 0 {
		return t.confirmDetailsLater(queue)
	}
	listed := open
	if len(open) > 3 {
		listed = append(slices.Clone(open[:3]), fmt.Sprintf("%d more", len(open)-3))
	}
	steps := fmt.Sprintf("%d required procedure steps are", len(open))
	if len(open) == 1 {
		steps = "A required procedure step is"
	}
	msg := fmt.Sprintf("%s still open on %s (%s). Once it is checked out, they can no longer be completed.\n\nCheck out anyway?",
		steps, t.wo.WorkOrderNumber, format.List(listed))
	dialogs.Final("Check out with steps still open?", msg, "Check out anyway", false, func(ok bool) {
		if ok && !t.confirmDetailsLater(queue) {
			queue()
		}
	}, t.win.Window())
	return true
}

// confirmDetailsLater asks first when a check-out would leave the work
// order waiting for its completion details (a PMRM work order checked out
// without what its customer requires: api.CheckOutOutcome): the person may
// have meant to fill them in now.
func (t *Tab) confirmDetailsLater(queue func()) bool {
	if api.CheckOutOutcome(t.wo, t.settings, t.form.completion()) != api.StatusNeedsCompletionDetails {
		return false
	}
	msg := fmt.Sprintf("%s asks for completion details at check-out, and some are not filled in. "+
		"%s will wait in Needs completion details until you give them with Complete details; its invoice can be submitted only after that.\n\n"+
		"Check out without them?", t.wo.Customer.Name, t.wo.WorkOrderNumber)
	c := dialogs.NewConfirm("Check out without the completion details?", msg, func(ok bool) {
		if ok {
			queue()
		}
	}, t.win.Window())
	c.SetConfirmText("Check out now")
	c.SetDismissText("Fill them in")
	c.Show()
	return true
}

func newCompleteDetailsButton(t *Tab) *widget.Button {
	b := widget.NewButtonWithIcon("Complete details", theme.DocumentCreateIcon(), t.onCompleteDetails)
	b.Importance = widget.HighImportance
	b.Hide()
	return b
}

// HoldsOther reports whether the person filled in completion details
// other than c (a refused check-out's, being corrected).
func (t *Tab) HoldsOther(c api.Completion) bool { return t.form.holdsOther(c) }

// FillCompletion puts a refused check-out's completion details c back
// into the form.
func (t *Tab) FillCompletion(c api.Completion) { t.form.fill(c) }
