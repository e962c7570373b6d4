package ui

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
	"github.com/workorderdesk/workdesk/storage"
)

// proceduresTab shows the work order's procedures and steps in a tree and,
// under it, the chosen step's description and attachments: stacked, not
// side by side, so that on the detail pane (about 460 px for a tab) step
// names, descriptions and file names each get the whole width. Tree and
// file list are virtualized: the service puts no limit on how many there are.
//
// Step attachments are not in the replica; they are listed live each time a
// step is chosen and again after one of our changes to them was answered
// (attachmentPanel).
type proceduresTab struct {
	d     *Desk
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
	files     *attachmentPanel
	stepPanel *fyne.Container
	noStep    *widget.Label
}

func newProceduresTab(d *Desk) *proceduresTab {
	t := &proceduresTab{d: d, procs: map[int64]*api.Procedure{}}
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
	t.files = newAttachmentPanel(d, false, container.NewVBox(t.stepTitle, t.stepInfo))
	t.files.noPlace = "choose a step first: dropped files attach to the step shown"
	t.stepPanel = container.NewStack(t.files)
	t.noStep = widget.NewLabel("Choose a step above to see its description and files.")
	t.noStep.Importance = widget.LowImportance
	t.noStep.Alignment = fyne.TextAlignCenter
	t.noStep.Wrapping = fyne.TextWrapWord
	t.stepPanel.Hide()
	return t
}

func (t *proceduresTab) title() string       { return "Procedures" }
func (t *proceduresTab) icon() fyne.Resource { return theme.ListIcon() }
func (t *proceduresTab) content() fyne.CanvasObject {
	if t.root != nil {
		return t.root // built once: the widgets can have only one parent
	}
	t.split = container.NewVSplit(t.tree,
		container.NewPadded(container.NewStack(container.NewVBox(layout.NewSpacer(), t.noStep, layout.NewSpacer()), t.stepPanel)))
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

func (t *proceduresTab) childIDs(id widget.TreeNodeID) []widget.TreeNodeID {
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

func (t *proceduresTab) isBranch(id widget.TreeNodeID) bool {
	return id == "" || strings.HasPrefix(id, "p")
}

func (t *proceduresTab) nodeText(id string) string {
	if pid, sid, ok := parseStepNode(id); ok {
		if s := t.step(pid, sid); s != nil {
			return stepText(*s)
		}
		return ""
	}
	pid, _ := strconv.ParseInt(strings.TrimPrefix(id, "p"), 10, 64)
	if p := t.procs[pid]; p != nil {
		return fmt.Sprintf("%s — %s", p.Name, procedureSummary(*p))
	}
	return ""
}

func stepText(s api.Step) string {
	name := s.Label
	if name == "" {
		name = s.Description
	}
	text := fmt.Sprintf("%d. %s — %s", s.Order, name, statusText(s.Status))
	if s.IsRequired {
		text += " (required)"
	}
	return text
}

func (t *proceduresTab) step(pid, sid int64) *api.Step {
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

func (t *proceduresTab) show(wo *api.WorkOrder) {
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
		showIf(len(procs) > 0, t.split)
	}
	showIf(len(procs) == 0, t.empty)
	if switching {
		t.sel = nil
		t.tree.UnselectAll()
		t.tree.OpenAllBranches()
	}
	t.tree.Refresh()
	if t.sel != nil && t.step(t.sel.ProcedureId, t.sel.StepId) == nil {
		t.sel = nil // the step went away with a newer copy of the work order
	}
	if t.sel == nil {
		t.files.show(nil)
		t.stepPanel.Hide()
		t.noStep.Show()
		return
	}
	t.renderStep()
}

func (t *proceduresTab) onSelected(id widget.TreeNodeID) {
	pid, sid, ok := parseStepNode(id)
	if !ok {
		return
	}
	t.selectStep(pid, sid)
}

// selectStep shows one step and lists its files.
func (t *proceduresTab) selectStep(pid, sid int64) {
	if t.step(pid, sid) == nil {
		return
	}
	t.sel = &api.StepRef{WorkOrderId: t.wo.WorkOrderId, ProcedureId: pid, StepId: sid}
	t.noStep.Hide()
	t.stepPanel.Show()
	t.renderStep()
}

// editable says whether the chosen step's files may change, and why not
// (spec §2: only while the procedure is editable and not marked N/A).
func (t *proceduresTab) editable() (bool, string) {
	if t.sel == nil || t.wo == nil {
		return false, ""
	}
	p := t.procs[t.sel.ProcedureId]
	if p == nil {
		return false, ""
	}
	if err := t.wo.CanChangeProcedure(*p); err != nil {
		return false, sentence(err.Error()) + ". You can still open them."
	}
	return true, ""
}

func (t *proceduresTab) renderStep() {
	p := t.procs[t.sel.ProcedureId]
	s := t.step(t.sel.ProcedureId, t.sel.StepId)
	t.stepTitle.SetText(p.Name + " › " + stepText(*s))
	var info []string
	if s.Description != "" && s.Description != s.Label {
		info = append(info, s.Description)
	}
	if s.Value != "" {
		info = append(info, "Value: "+s.Value)
	}
	if s.Comment != "" {
		info = append(info, "Comment: "+s.Comment)
	}
	t.stepInfo.SetText(strings.Join(info, "\n"))
	t.files.show(t.stepPlace())
	t.relayout()
}

// stepPlace is the chosen step as the attachment panel needs it: listed
// live from the service (the replica does not keep step files), changed
// only while its procedure allows.
func (t *proceduresTab) stepPlace() *filePlace {
	ref := *t.sel
	ok, why := t.editable()
	d := t.d
	return &filePlace{
		key: fmt.Sprintf("step %d/%d/%d", ref.WorkOrderId, ref.ProcedureId, ref.StepId), woID: ref.WorkOrderId,
		what: "the step", from: "the step", noun: "the step's files", empty: "No files on this step.",
		note: why, warn: true, whyNot: why, canRemove: ok, live: true,
		list: func(ctx context.Context) ([]api.Attachment, error) {
			atts, err := d.online.StepAttachments(ctx, ref)
			out := make([]api.Attachment, len(atts))
			for i, a := range atts {
				out[i] = a.Attachment
			}
			return out, err
		},
		add: func(path string) func(context.Context) error {
			return func(ctx context.Context) error { _, err := d.store.AddStepAttachment(ctx, ref, path); return err }
		},
		remove: func(id string) func(context.Context) error {
			return func(ctx context.Context) error { _, err := d.store.RemoveStepAttachment(ctx, ref, id); return err }
		},
		link: func(ctx context.Context, id string) (api.DownloadURL, error) {
			return d.online.StepAttachmentLink(ctx, ref, id)
		},
		mine: func(r storage.OutboxRow) bool { return r.Group == storage.GroupStep && r.Step != nil && *r.Step == ref },
	}
}

// relayout lays the step panel out again after its texts changed: a
// wrapped description knows its height only once it has its width, and a
// Fyne container re-lays out only when refreshed itself, so without this the
// description ran under the buttons below it.
func (t *proceduresTab) relayout() {
	for pass := 0; pass < 2; pass++ {
		t.stepPanel.Refresh()
	}
}

func (t *proceduresTab) filePanel() *attachmentPanel { return t.files }
