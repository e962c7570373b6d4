package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
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
// step is chosen and again after one of our changes to them was sent.
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
	lock      *widget.Label
	state     *widget.Label
	pending   *widget.Label
	atts      []api.StepAttachment
	attList   *widget.List
	add       *widget.Button
	reload    *widget.Button
	stepPanel *fyne.Container
	noStep    *widget.Label

	gen      int   // list generation: an answer for an earlier choice is dropped
	seenDone int64 // newest finished step-attachment action already re-listed for
	link     *linkDialog
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
	t.lock = widget.NewLabel("")
	t.lock.Wrapping = fyne.TextWrapWord
	t.lock.Importance = widget.WarningImportance
	t.state = widget.NewLabel("")
	t.state.Wrapping = fyne.TextWrapWord
	t.pending = widget.NewLabel("")
	t.pending.Wrapping = fyne.TextWrapWord
	t.pending.Importance = widget.LowImportance
	t.pending.Hide()
	t.add = widget.NewButtonWithIcon("Add file…", theme.ContentAddIcon(), t.onAdd)
	t.reload = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() { t.list() })
	t.attList = widget.NewList(
		func() int { return len(t.atts) },
		func() fyne.CanvasObject {
			// The name has a line of its own, the size and date go under
			// it: on one line with the buttons the name got no room at all.
			name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			name.Truncation = fyne.TextTruncateEllipsis
			meta := widget.NewLabel("")
			meta.Truncation = fyne.TextTruncateEllipsis
			open := widget.NewButtonWithIcon("Open…", theme.FileIcon(), nil)
			remove := widget.NewButtonWithIcon("Remove…", theme.DeleteIcon(), nil)
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()),
				container.NewVBox(layout.NewSpacer(), container.NewHBox(open, remove), layout.NewSpacer()),
				container.New(layout.NewCustomPaddedVBoxLayout(0), name, meta))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(t.atts) {
				return
			}
			a := t.atts[i]
			row := o.(*fyne.Container)
			lines := row.Objects[0].(*fyne.Container)
			lines.Objects[0].(*widget.Label).SetText(a.Name)
			lines.Objects[1].(*widget.Label).SetText(api.HumanSize(a.Size) + "   ·   " + localTime(a.Created))
			buttons := row.Objects[2].(*fyne.Container).Objects[1].(*fyne.Container)
			buttons.Objects[0].(*widget.Button).OnTapped = func() { t.openAttachment(a) }
			remove := buttons.Objects[1].(*widget.Button)
			remove.OnTapped = func() { t.confirmRemove(a) }
			ok, _ := t.editable()
			setEnabled(remove, ok)
		})
	t.stepPanel = container.NewBorder(
		container.NewVBox(t.stepTitle, t.stepInfo, t.lock, container.NewHBox(t.add, t.reload), t.state, t.pending),
		nil, nil, nil, t.attList)
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
	done := t.latestFinished()
	if switching {
		t.sel = nil
		t.atts = nil
		t.seenDone = done
		t.tree.UnselectAll()
		t.tree.OpenAllBranches()
	}
	t.tree.Refresh()
	if t.sel != nil && t.step(t.sel.ProcedureId, t.sel.StepId) == nil {
		t.sel = nil // the step went away with a newer copy of the work order
	}
	if t.sel == nil {
		t.stepPanel.Hide()
		t.noStep.Show()
		return
	}
	t.renderStep()
	if done > t.seenDone {
		// One of our changes to step attachments reached the service:
		// the list on screen is stale.
		t.seenDone = done
		t.list()
	}
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
	t.list()
}

// editable says whether the chosen step's files may change, and why not
// (spec §2: only while the procedure is editable and not marked N/A).
func (t *proceduresTab) editable() (bool, string) {
	if t.sel == nil || t.wo == nil {
		return false, ""
	}
	p := t.procs[t.sel.ProcedureId]
	switch {
	case p == nil:
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
	ok, why := t.editable()
	t.lock.SetText(why)
	if ok {
		t.lock.Hide()
	} else {
		t.lock.Show()
	}
	setEnabled(t.add, ok)
	t.setPending()
	t.attList.Refresh()
	t.relayout()
}

// setPending shows our queued changes to the chosen step, and takes no
// room when there are none.
func (t *proceduresTab) setPending() {
	text := t.pendingText()
	t.pending.SetText(text)
	showIf(text != "", t.pending)
	t.relayout()
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

// list fetches the chosen step's files from the service.
func (t *proceduresTab) list() {
	if t.sel == nil {
		return
	}
	ref := *t.sel
	t.gen++
	gen := t.gen
	t.atts = nil
	t.attList.Refresh()
	if t.d.online == nil {
		t.state.SetText("Listing a step's files needs a connection to the service.")
		return
	}
	t.state.SetText("Loading the step's files…")
	t.d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		atts, err := t.d.online.StepAttachments(ctx, ref)
		t.d.do(func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.state.SetText("Could not list the files: " + plainError(err) + " Use Refresh to try again.")
				t.relayout()
				return
			}
			t.atts = atts
			switch len(atts) {
			case 0:
				t.state.SetText("No files on this step.")
			case 1:
				t.state.SetText("1 file.")
			default:
				t.state.SetText(fmt.Sprintf("%d files.", len(atts)))
			}
			t.attList.Refresh()
			t.relayout()
		})
	})
}

// plainError says what went wrong without the HTTP details.
func plainError(err error) string {
	var apiErr *api.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.Message != "":
		return strings.TrimSuffix(apiErr.Message, ".") + "."
	case errors.Is(err, context.DeadlineExceeded):
		return "the service took too long to answer."
	case api.IsTemporary(err):
		return "the service could not be reached (offline?)."
	}
	return strings.TrimSuffix(err.Error(), ".") + "."
}

// latestFinished is the id of the newest step-attachment action on the work
// order the service has answered (done or refused); 0 when none.
func (t *proceduresTab) latestFinished() int64 {
	rows, err := t.d.store.OutboxRows(context.Background(), t.wo.WorkOrderId)
	if err != nil {
		return 0
	}
	var latest int64
	for _, r := range rows {
		if r.Group == storage.GroupStep && (r.State == storage.OutboxDone || r.State == storage.OutboxFailed) && r.Id > latest {
			latest = r.Id
		}
	}
	return latest
}

// pendingText lists our changes to the chosen step still on their way, and
// the last refusal, so a queued file does not look lost.
func (t *proceduresTab) pendingText() string {
	rows, err := t.d.store.OutboxRows(context.Background(), t.wo.WorkOrderId)
	if err != nil || t.sel == nil {
		return ""
	}
	var lines []string
	for _, r := range rows {
		if r.Group != storage.GroupStep || r.State == storage.OutboxDone || r.State == storage.OutboxDiscarded {
			continue
		}
		if r.Step == nil || *r.Step != *t.sel {
			continue
		}
		lines = append(lines, actionText(r)+" — "+outboxStateText(r))
	}
	return strings.Join(lines, "\n")
}

func (t *proceduresTab) onAdd() {
	openFileDialog(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		t.addFile(path)
	}, t.d.win)
}

// addFile queues a file for the chosen step; refused files change nothing.
func (t *proceduresTab) addFile(path string) {
	if t.sel == nil {
		return
	}
	if ok, why := t.editable(); !ok {
		t.d.showError(errors.New(why))
		return
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > api.MaxAttachmentSize {
		t.d.showError(fmt.Errorf("%s is %s: the service accepts files up to 20 MB", filepath.Base(path), api.HumanSize(fi.Size())))
		return
	}
	if _, err := t.d.store.AddStepAttachment(context.Background(), *t.sel, path); err != nil {
		t.d.showError(err)
		return
	}
	t.d.queued(filepath.Base(path) + " for the step")
	t.setPending()
}

func (t *proceduresTab) confirmRemove(a api.StepAttachment) {
	if t.sel == nil {
		return
	}
	if ok, why := t.editable(); !ok {
		t.d.showError(errors.New(why))
		return
	}
	ref := *t.sel
	c := newConfirm("Remove "+a.Name+"?", "The file is removed from the step at the service.", func(ok bool) {
		if !ok {
			return
		}
		if _, err := t.d.store.RemoveStepAttachment(context.Background(), ref, a.AttachmentId); err != nil {
			t.d.showError(err)
			return
		}
		t.d.queued("Remove " + a.Name)
		t.setPending()
	}, t.d.win)
	c.SetConfirmText("Remove")
	c.SetDismissText("Cancel")
	c.Show()
}

func (t *proceduresTab) openAttachment(a api.StepAttachment) {
	if t.d.online == nil {
		t.d.showError(errors.New("opening files needs a connection to the service"))
		return
	}
	ref := api.StepRef{WorkOrderId: a.WorkOrderId, ProcedureId: a.ProcedureId, StepId: a.StepId}
	if ref.WorkOrderId == 0 && t.sel != nil {
		ref = *t.sel
	}
	id := a.AttachmentId
	t.link = newLinkDialog(t.d, a.Name, func(ctx context.Context) (api.DownloadURL, error) {
		return t.d.online.StepAttachmentLink(ctx, ref, id)
	})
	t.link.onClosed = func(l *linkDialog) {
		if t.link == l {
			t.link = nil
		}
	}
}

// linkDialog opens or saves one file through a temporary download link.
// The link lives only in this dialog's memory: it is never written to disk
// or logged, it is forgotten when it expires or the dialog closes, and an
// expired link is always replaced by a fresh one, never reused.
type linkDialog struct {
	d        *Desk
	name     string
	fetch    func(context.Context) (api.DownloadURL, error)
	link     api.DownloadURL
	fetching bool
	waiting  []linkWaiter // actions waiting for the link being fetched

	valid    *widget.Label
	status   *widget.Label
	progress *widget.ProgressBar
	openBtn  *widget.Button
	saveBtn  *widget.Button
	dlg      dialog.Dialog
	stop     chan struct{}
	onClosed func(*linkDialog)
}

// linkWaiter is an action waiting for a link: use runs with it, failed
// when none could be had.
type linkWaiter struct {
	use    func(api.DownloadURL)
	failed func()
}

// linkMargin: a link with less left than this is replaced before use, so
// it does not expire between the click and the request.
const linkMargin = 5 * time.Second

func newLinkDialog(d *Desk, name string, fetch func(context.Context) (api.DownloadURL, error)) *linkDialog {
	l := &linkDialog{d: d, name: name, fetch: fetch, stop: make(chan struct{})}
	l.valid = widget.NewLabel("")
	l.status = widget.NewLabel("")
	l.status.Wrapping = fyne.TextWrapWord
	l.progress = widget.NewProgressBar()
	l.progress.Hide()
	l.openBtn = widget.NewButtonWithIcon("Open in browser", theme.ComputerIcon(), l.openInBrowser)
	l.openBtn.Importance = widget.HighImportance
	l.saveBtn = widget.NewButtonWithIcon("Save as…", theme.DocumentSaveIcon(), l.askSave)
	note := widget.NewLabel("The service gives a link valid for 15 minutes. It is kept only while this window is open; an expired link is replaced by a new one.")
	note.Wrapping = fyne.TextWrapWord
	note.Importance = widget.LowImportance
	body := container.NewVBox(l.valid, container.NewHBox(l.openBtn, l.saveBtn), l.progress, l.status, note)
	l.dlg = dialog.NewCustom("Open "+name, "Close", body, d.win)
	l.dlg.SetOnClosed(l.close)
	l.dlg.Resize(fyne.NewSize(520, 260))
	l.dlg.Show()
	l.withLink(nil, nil)
	if d.started {
		go l.countdown()
	}
	return l
}

// countdown ticks the remaining validity once a second until the dialog
// or the window closes.
func (l *linkDialog) countdown() {
	tk := time.NewTicker(time.Second)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			l.d.do(l.tick)
		case <-l.stop:
			return
		case <-l.d.closed:
			return
		}
	}
}

// tick shows how long the link stays valid, and forgets it once expired.
func (l *linkDialog) tick() {
	if l.fetching {
		l.valid.SetText("Asking the service for a download link…")
		return
	}
	if l.link.URL == "" {
		l.valid.SetText("No link yet: one is fetched when you open or save the file.")
		return
	}
	left := l.link.Remaining(nowFunc())
	if left <= 0 {
		l.link = api.DownloadURL{}
		l.valid.SetText("The link has expired: a new one is fetched when you open or save the file.")
		return
	}
	l.valid.SetText("Link valid for " + countdownText(left))
}

// countdownText shows a duration as m:ss, "15:00" down to "0:00".
func countdownText(d time.Duration) string {
	s := int(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// withLink runs use with a link valid for at least linkMargin, fetching a
// fresh one when there is none or it is about to expire; failed runs
// instead when no link can be had. Either may be nil.
func (l *linkDialog) withLink(use func(api.DownloadURL), failed func()) {
	if l.link.URL != "" && l.link.Remaining(nowFunc()) > linkMargin {
		if use != nil {
			use(l.link)
		}
		return
	}
	l.link = api.DownloadURL{}
	l.waiting = append(l.waiting, linkWaiter{use, failed})
	if l.fetching {
		return
	}
	l.fetching = true
	l.tick()
	l.status.SetText("")
	l.d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		link, err := l.fetch(ctx)
		l.d.do(func() {
			l.fetching = false
			waiting := l.waiting
			l.waiting = nil
			if l.closed() || err != nil {
				if err != nil && !l.closed() {
					l.status.SetText("Could not get a download link: " + plainError(err))
					l.tick()
				}
				for _, w := range waiting {
					if w.failed != nil {
						w.failed()
					}
				}
				return
			}
			l.link = link
			l.tick()
			for _, w := range waiting {
				if w.use != nil {
					w.use(link)
				}
			}
		})
	})
}

func (l *linkDialog) closed() bool {
	select {
	case <-l.stop:
		return true
	default:
		return false
	}
}

func (l *linkDialog) close() {
	if l.closed() {
		return
	}
	close(l.stop)
	l.link = api.DownloadURL{}
	if l.onClosed != nil {
		l.onClosed(l)
	}
}

func (l *linkDialog) openInBrowser() {
	l.withLink(func(link api.DownloadURL) {
		l.d.openLink(link)
		l.status.SetText("Opened in your browser.")
	}, nil)
}

func (l *linkDialog) askSave() {
	fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			l.status.SetText("Could not save: " + plainError(err))
			return
		}
		if w == nil {
			return
		}
		l.saveTo(w)
	}, l.d.win)
	fd.SetFileName(l.name)
	showFilePicker(fd, l.d.win)
}

// saveTo downloads the file into w, showing progress, and closes w.
func (l *linkDialog) saveTo(w io.WriteCloser) {
	l.setBusy(true)
	l.withLink(func(link api.DownloadURL) {
		l.progress.SetValue(0)
		l.progress.Show()
		l.status.SetText("Downloading " + l.name + "…")
		l.d.deps.Background(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			err := l.d.online.Download(ctx, link, w, func(done, total int64) {
				if total > 0 {
					l.d.do(func() { l.progress.SetValue(float64(done) / float64(total)) })
				}
			})
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			l.d.do(func() {
				l.setBusy(false)
				if err != nil {
					l.status.SetText("The download failed: " + plainError(err))
					return
				}
				l.progress.SetValue(1)
				l.status.SetText("Saved " + l.name + ".")
			})
		})
	}, func() {
		w.Close()
		l.setBusy(false)
	})
}

func (l *linkDialog) setBusy(busy bool) {
	setEnabled(l.saveBtn, !busy)
	setEnabled(l.openBtn, !busy)
}
