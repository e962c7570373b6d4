package procedures

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/files"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Tab shows the work order's procedures and steps in a tree and,
// under it, the chosen step: its description, its editor (status, a value
// of its type, a comment: stepEditor) and its attachments, beside it as
// ever. Stacked, not side by side, so that on the detail pane (about 460 px
// for a tab) step names, descriptions and file names each get the whole
// width. Tree and file list are virtualized: the service puts no limit on
// how many there are. Choosing a procedure shows how far it is and, where
// the customer allows it, marks it N/A.
//
// Step attachments are not in the replica; they are listed live each time a
// step is chosen and again after one of our changes to them was answered
// (attachmentPanel).
type Tab struct {
	queue Queue
	links Links
	win   Window

	wo    *api.WorkOrder
	procs map[int64]*api.Procedure
	order []int64 // procedure ids in the work order's order

	tree  *widget.Tree
	empty *widget.Label
	split *container.Split // tree above, step below; hidden when there are no procedures
	root  *fyne.Container

	sel       *api.StepRef
	stepTitle *widget.Label
	stepInfo  *widget.Label
	editor    *stepEditor
	files     *files.Panel
	stepPanel *fyne.Container
	noStep    *widget.Label

	selProc   int64 // the chosen procedure, when a procedure is chosen
	procTitle *widget.Label
	procInfo  *widget.Label
	naProc    *widget.Button
	procPanel *fyne.Container

	// Mark as applicable again: the documented undo of N/A (MarkAsNa
	// false), offered on the procedure and on each of its steps.
	clearProc, clearStep *widget.Button
	clearStepRow         *fyne.Container
}

// New is the tab, reading replica, queueing changes on queue, listing a
// step's files through links and acting through win.
func New(replica Replica, queue Queue, links Links, win Window) *Tab {
	t := &Tab{queue: queue, links: links, win: win, procs: map[int64]*api.Procedure{}}
	t.tree = widget.NewTree(t.childIDs, t.isBranch,
		func(bool) fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) { o.(*widget.Label).SetText(t.nodeText(id)) })
	t.tree.OnSelected = t.onSelected
	t.empty = widget.NewLabel("This work order has no procedures.")
	t.empty.Alignment = fyne.TextAlignCenter
	t.empty.Wrapping = fyne.TextWrapWord // never holds the detail pane wider than the window

	t.stepTitle = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.stepTitle.Wrapping = fyne.TextWrapWord
	t.stepInfo = widget.NewLabel("")
	t.stepInfo.Wrapping = fyne.TextWrapWord
	t.editor = newStepEditor(queue, win)
	t.clearStep = widget.NewButtonWithIcon("Mark as applicable again", theme.ContentUndoIcon(), func() {
		if t.sel != nil {
			t.clearNA(t.sel.ProcedureId)
		}
	})
	t.clearStepRow = container.NewHBox(t.clearStep)
	t.clearStepRow.Hide()
	t.files = files.NewPanel(win, replica, false, container.NewVBox(t.stepTitle, t.stepInfo, t.clearStepRow, t.editor.root, widget.NewSeparator()))
	t.files.NoPlace = "choose a step first: dropped files attach to the step shown"
	t.stepPanel = container.NewStack(t.files)
	t.noStep = widget.NewLabel("Choose a step above to see its description and files.")
	t.noStep.Importance = widget.LowImportance
	t.noStep.Alignment = fyne.TextAlignCenter
	t.noStep.Wrapping = fyne.TextWrapWord
	t.stepPanel.Hide()

	t.procTitle = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.procTitle.Wrapping = fyne.TextWrapWord
	t.procInfo = arrange.Wrapped(widget.NewLabel(""))
	t.naProc = widget.NewButtonWithIcon("Mark N/A…", theme.CancelIcon(), func() { t.markNA(t.selProc) })
	t.clearProc = widget.NewButtonWithIcon("Mark as applicable again", theme.ContentUndoIcon(), func() { t.clearNA(t.selProc) })
	t.procPanel = container.NewVBox(t.procTitle, t.procInfo, container.NewHBox(t.naProc, t.clearProc))
	t.procPanel.Hide()
	return t
}

// SaveButton is the chosen step's Save step, which Ctrl+S presses.
func (t *Tab) SaveButton() *widget.Button { return t.editor.save }

func (t *Tab) Title() string       { return "Procedures" }
func (t *Tab) Icon() fyne.Resource { return theme.ListIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	if t.root != nil {
		return t.root // built once: the widgets can have only one parent
	}
	t.split = container.NewVSplit(t.tree,
		container.NewPadded(container.NewStack(container.NewVBox(layout.NewSpacer(), t.noStep, layout.NewSpacer()), t.procPanel, t.stepPanel)))
	t.split.Offset = 0.4
	t.empty.Hide()
	t.root = container.NewStack(t.split, container.NewPadded(container.NewVBox(t.empty)))
	return t.root
}

// Tree node ids: "p<procedure>" and "s<procedure>/<step>".
func procNode(p int64) string { return "p" + strconv.FormatInt(p, 10) }
func stepNode(p, s int64) string {
	return "s" + strconv.FormatInt(p, 10) + "/" + strconv.FormatInt(s, 10)
}

func parseStepNode(id string) (proc, step int64, ok bool) {
	if !strings.HasPrefix(id, "s") {
		return 0, 0, false
	}
	a, b, found := strings.Cut(id[1:], "/")
	if !found {
		return 0, 0, false
	}
	p, err1 := strconv.ParseInt(a, 10, 64)
	s, err2 := strconv.ParseInt(b, 10, 64)
	return p, s, err1 == nil && err2 == nil
}

func (t *Tab) childIDs(id widget.TreeNodeID) []widget.TreeNodeID {
	if id == "" {
		out := make([]string, len(t.order))
		for i, p := range t.order {
			out[i] = procNode(p)
		}
		return out
	}
	if !strings.HasPrefix(id, "p") {
		return nil
	}
	pid, err := strconv.ParseInt(id[1:], 10, 64)
	p := t.procs[pid]
	if err != nil || p == nil {
		return nil
	}
	out := make([]string, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = stepNode(p.Id, s.Id)
	}
	return out
}

func (t *Tab) isBranch(id widget.TreeNodeID) bool {
	return id == "" || strings.HasPrefix(id, "p")
}

func (t *Tab) nodeText(id string) string {
	if pid, sid, ok := parseStepNode(id); ok {
		if s := t.step(pid, sid); s != nil {
			return stepText(*s, t.wo.Currency)
		}
		return ""
	}
	pid, _ := strconv.ParseInt(strings.TrimPrefix(id, "p"), 10, 64)
	if p := t.procs[pid]; p != nil {
		return fmt.Sprintf("%s — %s", p.Name, format.Procedure(*p))
	}
	return ""
}

func stepText(s api.Step, currency string) string {
	name := s.Label
	if name == "" {
		name = s.Description
	}
	text := fmt.Sprintf("%d. %s — %s", s.Order, name, api.StepStatusText(s.Status))
	if v := s.ValueText(currency); v != "" {
		text += ": " + v
	}
	if s.IsRequired {
		text += " (required)"
	}
	return text
}

func (t *Tab) step(pid, sid int64) *api.Step {
	p := t.procs[pid]
	if p == nil {
		return nil
	}
	for i := range p.Steps {
		if p.Steps[i].Id == sid {
			return &p.Steps[i]
		}
	}
	return nil
}

func (t *Tab) Show(wo *api.WorkOrder) {
	switching := t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId
	t.wo = wo
	t.procs = map[int64]*api.Procedure{}
	t.order = t.order[:0]
	procs := wo.Procedures()
	for i := range procs {
		t.procs[procs[i].Id] = &procs[i]
		t.order = append(t.order, procs[i].Id)
	}
	// Without procedures there is no tree and no step to choose: one line
	// says so instead of an empty tree and "choose a step".
	if t.split != nil {
		arrange.ShowIf(len(procs) > 0, t.split)
	}
	arrange.ShowIf(len(procs) == 0, t.empty)
	if switching {
		t.sel, t.selProc = nil, 0
		t.tree.UnselectAll()
		t.tree.OpenAllBranches()
	}
	t.tree.Refresh()
	if t.sel != nil && t.step(t.sel.ProcedureId, t.sel.StepId) == nil {
		t.sel = nil // the step went away with a newer copy of the work order
	}
	if t.selProc != 0 && t.procs[t.selProc] == nil {
		t.selProc = 0
	}
	if t.sel == nil {
		t.files.SetPlace(nil)
		t.stepPanel.Hide()
		if t.selProc != 0 {
			t.renderProcedure()
			return
		}
		t.procPanel.Hide()
		t.noStep.Show()
		return
	}
	t.renderStep()
}

func (t *Tab) onSelected(id widget.TreeNodeID) {
	pid, sid, ok := parseStepNode(id)
	if !ok {
		if p, err := strconv.ParseInt(strings.TrimPrefix(id, "p"), 10, 64); err == nil && t.procs[p] != nil {
			t.selectProcedure(p)
		}
		return
	}
	t.selectStep(pid, sid)
}

// selectProcedure shows how far a procedure is and, where it may be,
// offers to mark it N/A.
func (t *Tab) selectProcedure(pid int64) {
	t.sel, t.selProc = nil, pid
	t.files.SetPlace(nil)
	t.stepPanel.Hide()
	t.noStep.Hide()
	t.renderProcedure()
}

func (t *Tab) renderProcedure() {
	p := t.procs[t.selProc]
	t.procTitle.SetText(p.Name)
	info := format.Procedure(*p)
	if p.MarkNAForbidden() && !p.IsMarkedNa {
		info += " · the customer does not allow marking it N/A"
	}
	info += ". Choose one of its steps to complete it."
	t.procInfo.SetText(info)
	why := t.wo.CanMarkNotApplicable(p.Id)
	arrange.ShowIf(p.MarkNAAllowed() && !p.IsMarkedNa, t.naProc)
	t.win.Enable(t.naProc, why == nil)
	t.showClear(*p, t.clearProc)
	t.procPanel.Show()
}

// showClear offers Mark as applicable again on a procedure marked N/A
// whose mark the customer did not say may not change; enabled where the
// rule allows it now (api.WorkOrder.CanClearNotApplicable).
func (t *Tab) showClear(p api.Procedure, b *widget.Button) bool {
	offered := p.IsMarkedNa && !p.MarkNAForbidden()
	arrange.ShowIf(offered, b)
	t.win.Enable(b, offered && t.wo.CanClearNotApplicable(p.Id) == nil)
	return offered
}

// clearNA queues clearing procedure pid's N/A mark, so that its steps can
// be completed and their files changed again. Not asked first: it is the
// undo, and marking it N/A again is one tap away.
func (t *Tab) clearNA(pid int64) {
	if t.wo == nil || t.procs[pid] == nil {
		return
	}
	if err := t.wo.CanClearNotApplicable(pid); err != nil {
		t.win.ShowError(err)
		return
	}
	name, woID, queue := t.procs[pid].Name, t.wo.WorkOrderId, t.queue
	t.win.Act([]fyne.Disableable{t.clearProc, t.clearStep}, func(ctx context.Context) error {
		_, err := queue.ClearProcedureNA(ctx, woID, pid)
		return err
	}, func(err error) {
		if err != nil {
			t.win.ShowError(err)
			return
		}
		t.win.Queued(name + " marked applicable again")
		t.win.Reload(woID)
	})
}

// markNA asks, then queues marking procedure pid not applicable: its steps
// can no longer be completed nor their files changed.
func (t *Tab) markNA(pid int64) {
	if t.wo == nil || t.procs[pid] == nil {
		return
	}
	if err := t.wo.CanMarkNotApplicable(pid); err != nil {
		t.win.ShowError(err)
		return
	}
	name, woID, queue := t.procs[pid].Name, t.wo.WorkOrderId, t.queue
	c := dialogs.NewConfirm("Mark "+name+" N/A?",
		"Mark the procedure “"+name+"” not applicable to this work order? Its steps can then no longer be completed, nor their files changed.",
		func(ok bool) {
			if !ok {
				return
			}
			t.win.Act([]fyne.Disableable{t.naProc}, func(ctx context.Context) error {
				_, err := queue.MarkProcedureNA(ctx, woID, pid)
				return err
			}, func(err error) {
				if err != nil {
					t.win.ShowError(err)
					return
				}
				t.win.Queued(name + " marked N/A")
				t.win.Reload(woID)
			})
		}, t.win.Window())
	c.SetConfirmText("Mark N/A")
	c.SetDismissText("Cancel")
	c.Show()
}

// selectStep shows one step and lists its files.
func (t *Tab) selectStep(pid, sid int64) {
	if t.step(pid, sid) == nil {
		return
	}
	t.sel = &api.StepRef{WorkOrderId: t.wo.WorkOrderId, ProcedureId: pid, StepId: sid}
	t.selProc = 0
	t.procPanel.Hide()
	t.noStep.Hide()
	t.stepPanel.Show()
	t.renderStep()
}

// editable says whether the chosen step's files may change, and why not
// (spec §2: only while the procedure is editable and not marked N/A).
func (t *Tab) editable() (bool, string) {
	if t.sel == nil || t.wo == nil {
		return false, ""
	}
	p := t.procs[t.sel.ProcedureId]
	if p == nil {
		return false, ""
	}
	if err := t.wo.CanChangeProcedure(*p); err != nil {
		return false, format.Capital(err.Error()) + ". You can still open them."
	}
	return true, ""
}

func (t *Tab) renderStep() {
	p := t.procs[t.sel.ProcedureId]
	s := t.step(t.sel.ProcedureId, t.sel.StepId)
	t.stepTitle.SetText(p.Name + " › " + stepText(*s, t.wo.Currency))
	var info []string
	if s.Description != "" && s.Description != s.Label {
		info = append(info, s.Description)
	}
	t.stepInfo.SetText(strings.Join(info, "\n"))
	arrange.ShowIf(len(info) > 0, t.stepInfo)
	arrange.ShowIf(t.showClear(*p, t.clearStep), t.clearStepRow)
	var replica *api.Step
	if sent := t.win.AsSent(t.wo.WorkOrderId); sent != nil {
		_, replica, _ = sent.Step(*t.sel)
	}
	t.editor.show(t.wo, *t.sel, replica)
	t.files.SetPlace(t.stepPlace())
	t.relayout()
}

// stepPlace is the chosen step as the attachment panel needs it: listed
// live from the service (the replica does not keep step files), changed
// only while its procedure allows.
func (t *Tab) stepPlace() *files.Place {
	ref := *t.sel
	ok, why := t.editable()
	queue, links := t.queue, t.links
	return &files.Place{
		Key: fmt.Sprintf("step %d/%d/%d", ref.WorkOrderId, ref.ProcedureId, ref.StepId), WoID: ref.WorkOrderId,
		What: "the step", From: "the step", Noun: "the step's files", Empty: "No files on this step.",
		Note: why, Warn: true, WhyNot: why, CanRemove: ok, Live: true,
		List: func(ctx context.Context) ([]api.Attachment, error) {
			atts, err := links.StepAttachments(ctx, ref)
			out := make([]api.Attachment, len(atts))
			for i, a := range atts {
				out[i] = a.Attachment
			}
			return out, err
		},
		Add: func(path string) func(context.Context) error {
			return func(ctx context.Context) error { _, err := queue.AddStepAttachment(ctx, ref, path); return err }
		},
		Remove: func(id string) func(context.Context) error {
			return func(ctx context.Context) error { _, err := queue.RemoveStepAttachment(ctx, ref, id); return err }
		},
		Link: func(ctx context.Context, id string) (api.DownloadURL, error) {
			return links.StepAttachmentLink(ctx, ref, id)
		},
		Mine: func(r storage.OutboxRow) bool { return r.Group == outbox.GroupStep && r.Step != nil && *r.Step == ref },
	}
}

// relayout lays the step panel out again after its texts changed: a
// wrapped description knows its height only once it has its width, and a
// Fyne container re-lays out only when refreshed itself, so without this the
// description ran under the buttons below it.
func (t *Tab) relayout() {
	for pass := 0; pass < 2; pass++ {
		t.stepPanel.Refresh()
	}
}

// AddFiles attaches files dropped on the window while the tab is shown.
func (t *Tab) AddFiles(paths []string) { t.files.AddFiles(paths) }

// HasStep reports whether the work order shown has step ref.
func (t *Tab) HasStep(ref api.StepRef) bool { return t.step(ref.ProcedureId, ref.StepId) != nil }

// ChooseStep chooses step ref in the tree and shows it, as a click on it
// does.
func (t *Tab) ChooseStep(ref api.StepRef) {
	t.tree.Select(stepNode(ref.ProcedureId, ref.StepId))
	t.selectStep(ref.ProcedureId, ref.StepId)
}

// HoldsOther reports whether the step's editor holds what the person
// changed and has not saved: taking a refused step back would replace it.
func (t *Tab) HoldsOther() bool { return t.editor.dirty }

// EditDraft puts a refused step's status, value and comment back in the
// editor of the step chosen (ChooseStep), as the person's unsaved edit.
func (t *Tab) EditDraft(r api.StepRequest) {
	_, st, _ := t.wo.Step(r.Ref())
	t.editor.fill(*st, r.Status, r.Value, r.Comment)
	t.editor.dirty = true
	t.editor.check()
}
