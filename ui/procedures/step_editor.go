package procedures

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// stepEditor completes one procedure step: its status (Done, N/A, Open),
// a value of the step's type (yes/no, a number with the unit the step
// names, an amount in the work order's currency, else text) and a comment.
// What it takes is what the rules take (api.WorkOrder.CheckStepUpdate):
// a value the step's type cannot read is said under the field, and Save
// waits for it. Saving queues the step like any action.
type stepEditor struct {
	queue Queue
	win   Window

	wo  *api.WorkOrder
	ref api.StepRef
	// dirty: the person changed something since the step was shown; a
	// refresh of the same step then keeps what they entered.
	dirty   bool
	filling bool

	status  *widget.RadioGroup
	yesNo   *widget.RadioGroup
	value   *widget.Entry
	unit    *widget.Label
	kind    *widget.Label
	comment *widget.Entry
	save    *widget.Button
	problem *widget.Label
	hint    *widget.Label
	valueAt *fyne.Container // the value's field: the entry and its unit, or Yes/No
	root    *fyne.Container
}

var stepStatusChoices = []string{"Done", "N/A", "Open"}

func stepStatusOf(choice string) api.StepStatus {
	switch choice {
	case "Done":
		return api.StepDone
	case "N/A":
		return api.StepNA
	case "Open":
		return api.StepOpen
	}
	return ""
}

func stepChoiceOf(s api.StepStatus) string {
	switch strings.ToLower(s) {
	case "done":
		return "Done"
	case "na":
		return "N/A"
	case "open":
		return "Open"
	}
	return "" // Unknown: not started, nothing chosen
}

func newStepEditor(queue Queue, win Window) *stepEditor {
	e := &stepEditor{queue: queue, win: win}
	e.status = widget.NewRadioGroup(stepStatusChoices, func(string) { e.edited() })
	e.status.Horizontal = true
	e.yesNo = widget.NewRadioGroup([]string{"Yes", "No"}, func(string) { e.edited() })
	e.yesNo.Horizontal = true
	e.value = widget.NewEntry()
	e.value.OnChanged = func(string) { e.edited() }
	e.value.OnSubmitted = func(string) { e.onSave() }
	e.unit = widget.NewLabel("")
	e.kind = widget.NewLabel("")
	e.kind.Importance = widget.LowImportance
	e.comment = widget.NewEntry()
	e.comment.SetPlaceHolder("What you found or did (optional)")
	e.comment.OnChanged = func(string) { e.edited() }
	e.comment.OnSubmitted = func(string) { e.onSave() }
	e.save = widget.NewButtonWithIcon("Save step", theme.DocumentSaveIcon(), e.onSave)
	e.save.Importance = widget.HighImportance
	e.problem = arrange.Wrapped(widget.NewLabel(""))
	e.problem.Importance = widget.DangerImportance
	e.problem.Hide()
	e.hint = arrange.Wrapped(widget.NewLabel(""))
	e.hint.Importance = widget.LowImportance
	e.hint.Hide()
	e.valueAt = container.NewStack()
	// Three rows, Save beside the comment: the step's files stay in view
	// under it at the window's default size.
	grid := container.New(layout.NewFormLayout(),
		widget.NewLabel("Status"), e.status,
		widget.NewLabel("Value"), container.NewBorder(nil, nil, nil, e.kind, e.valueAt),
		widget.NewLabel("Comment"), container.NewBorder(nil, nil, nil, e.save, e.comment))
	e.root = container.NewVBox(grid, e.problem, e.hint)
	return e
}

// kindText names the value's type beside its field: "number, °F",
// "amount in USD", "yes or no", "text".
func kindText(s api.Step, currency string) string {
	switch s.ValueKind() {
	case api.ValueYesNo:
		return "yes or no"
	case api.ValueWhole:
		return "whole number"
	case api.ValueNumber:
		return "number"
	case api.ValueMoney:
		return "amount in " + currency
	}
	if s.DataType != "" && !strings.EqualFold(s.DataType, api.DataString) {
		return "text (" + s.DataType + ")"
	}
	return "text"
}

// show fills the editor with step ref of wo (the work order as the person
// sees it, queued steps included); replica is the step as the service last
// said, to tell a queued change.
func (e *stepEditor) show(wo *api.WorkOrder, ref api.StepRef, replica *api.Step) {
	same := e.wo != nil && e.ref == ref && e.wo.WorkOrderId == wo.WorkOrderId
	e.wo, e.ref = wo, ref
	_, st, ok := wo.Step(ref)
	if !ok {
		return
	}
	if !same || !e.dirty {
		e.fill(*st, st.Status, st.Value, st.Comment)
	}
	why := wo.CanUpdateStep(ref)
	for _, w := range []fyne.Disableable{e.status, e.yesNo, e.value, e.comment} {
		arrange.SetEnabled(w, why == nil)
	}
	hint := ""
	switch {
	case why != nil:
		hint = format.Capital(why.Error()) + "."
	case replica != nil && (replica.Status != st.Status || replica.Value != st.Value || replica.Comment != st.Comment):
		hint = "Saved: waiting to be sent."
	}
	e.hint.SetText(hint)
	arrange.ShowIf(hint != "", e.hint)
	e.check()
}

// fill puts a step's status, value and comment into the fields.
func (e *stepEditor) fill(st api.Step, status api.StepStatus, value, comment string) {
	e.filling = true
	defer func() { e.filling = false }()
	e.dirty = false
	e.status.SetSelected(stepChoiceOf(status))
	e.kind.SetText(kindText(st, e.wo.Currency))
	if st.ValueKind() == api.ValueYesNo {
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "true", "yes":
			e.yesNo.SetSelected("Yes")
		case "false", "no":
			e.yesNo.SetSelected("No")
		default:
			e.yesNo.SetSelected("")
		}
		e.valueAt.Objects = []fyne.CanvasObject{e.yesNo}
	} else {
		e.value.SetText(value)
		e.unit.SetText(st.Unit())
		e.value.SetPlaceHolder("")
		switch st.ValueKind() {
		case api.ValueMoney:
			e.unit.SetText(e.wo.Currency)
			e.value.SetPlaceHolder("0." + strings.Repeat("0", api.MinorUnits(e.wo.Currency)))
		case api.ValueWhole, api.ValueNumber:
			e.value.SetPlaceHolder("0")
		}
		field := fyne.CanvasObject(e.value)
		if e.unit.Text != "" {
			field = container.NewBorder(nil, nil, nil, e.unit, e.value)
		}
		e.valueAt.Objects = []fyne.CanvasObject{field}
	}
	e.valueAt.Refresh()
	e.comment.SetText(comment)
}

// typed is the value as entered: yes/no from the choice, else the text.
func (e *stepEditor) typed() string {
	if _, st, ok := e.wo.Step(e.ref); ok && st.ValueKind() == api.ValueYesNo {
		return strings.ToLower(e.yesNo.Selected)
	}
	return e.value.Text
}

func (e *stepEditor) update() api.StepUpdate {
	return api.StepUpdate{Status: stepStatusOf(e.status.Selected), Value: e.typed(), Comment: e.comment.Text}
}

func (e *stepEditor) edited() {
	if e.filling {
		return
	}
	e.dirty = true
	e.check()
}

// check says under the fields what the rules refuse of what is entered,
// and lets Save go only when they take it.
func (e *stepEditor) check() {
	if e.wo == nil {
		return
	}
	var problem string
	u := e.update()
	if e.wo.CanUpdateStep(e.ref) == nil {
		if u.Status == "" {
			if e.dirty {
				problem = "Choose Done, N/A or Open."
			}
		} else if _, err := e.wo.CheckStepUpdate(e.ref, u); err != nil {
			problem = format.Capital(err.Error()) + "."
		}
	}
	e.problem.SetText(problem)
	arrange.ShowIf(problem != "", e.problem)
	_, err := e.wo.CheckStepUpdate(e.ref, u)
	e.win.Enable(e.save, err == nil && e.dirty)
}

func (e *stepEditor) onSave() {
	if e.wo == nil || !e.dirty {
		return
	}
	u := e.update()
	if _, err := e.wo.CheckStepUpdate(e.ref, u); err != nil {
		e.check()
		return
	}
	queue, ref, what := e.queue, e.ref, e.wo.DescribeStep(e.ref)
	rctx := e.win.Replacing(ref.WorkOrderId, outbox.GroupProcedure) // read now: a correction replaces the refused one
	e.win.Act([]fyne.Disableable{e.save}, func(context.Context) error {
		_, err := queue.UpdateStep(rctx, ref, u)
		return err
	}, func(err error) {
		if err != nil {
			e.win.ShowError(err)
			return
		}
		if e.ref == ref {
			e.dirty = false
		}
		e.win.Queued(format.Capital(what) + ": " + api.StepStatusText(u.Status))
		e.win.Reload(ref.WorkOrderId)
	})
}
