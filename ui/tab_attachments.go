package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// attachmentsTab lists the work order's files, adds new ones and opens them.
// There is no remove: the service does not let contractors delete them.
type attachmentsTab struct {
	d     *Desk
	wo    *api.WorkOrder
	items []api.Attachment
	list  *widget.List
	empty *widget.Label
	add   *widget.Button
	vis   *widget.Select
}

func newAttachmentsTab(d *Desk) *attachmentsTab {
	t := &attachmentsTab{d: d}
	t.list = widget.NewList(
		func() int { return len(t.items) },
		func() fyne.CanvasObject {
			open := widget.NewButtonWithIcon("Open", theme.FileIcon(), nil)
			name := widget.NewLabel("")
			name.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), open, name)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			a := t.items[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(fmt.Sprintf("%s   ·   %s   ·   %s", a.Name, api.HumanSize(a.Size), localTime(a.Created)))
			row.Objects[2].(*widget.Button).OnTapped = func() { t.d.openAttachment(t.wo.WorkOrderId, a) }
		},
	)
	t.empty = wrapped(widget.NewLabel("No attachments yet. Add a file, or drop files onto the window."))
	var opts []string
	for _, v := range api.AllVisibilities {
		opts = append(opts, visibilityLabels[v])
	}
	t.vis = widget.NewSelect(opts, nil)
	t.vis.SetSelectedIndex(0)
	t.add = widget.NewButtonWithIcon("Add file…", theme.ContentAddIcon(), t.onAdd)
	return t
}

func (t *attachmentsTab) title() string       { return "Attachments" }
func (t *attachmentsTab) icon() fyne.Resource { return theme.FolderIcon() }
func (t *attachmentsTab) content() fyne.CanvasObject {
	note := widget.NewLabel("Files up to 20 MB. Attachments cannot be removed once added: the service does not allow it.")
	note.Importance = widget.LowImportance
	note.Wrapping = fyne.TextWrapWord
	bar := container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("Visible to"), nil, t.vis),
		container.NewHBox(t.add), note)
	return container.NewBorder(container.NewPadded(bar), nil, nil, nil, container.NewStack(t.empty, t.list))
}

func (t *attachmentsTab) show(wo *api.WorkOrder) {
	t.wo = wo
	items, _ := t.d.store.Attachments(context.Background(), wo.WorkOrderId)
	t.items = items
	if len(items) == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
	t.list.Refresh()
	setEnabled(t.add, wo.Can(api.AttachFile) == nil)
}

func (t *attachmentsTab) visibility() api.MessageVisibility {
	for v, label := range visibilityLabels {
		if label == t.vis.Selected {
			return v
		}
	}
	return api.VisibilityAll
}

func (t *attachmentsTab) onAdd() {
	openFileDialog(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		t.attach([]string{path})
	}, t.d.win)
}

// attach queues files for upload, refusing any over 20 MB before anything is sent.
func (t *attachmentsTab) attach(paths []string) {
	if t.wo == nil {
		t.d.showError(errors.New("open a work order first, then drop the files on the window"))
		return
	}
	var refused []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Size() > api.MaxAttachmentSize {
			refused = append(refused, fmt.Sprintf("%s is %s", filepath.Base(p), api.HumanSize(fi.Size())))
			continue
		}
		if _, err := t.d.store.AttachFile(context.Background(), t.wo.WorkOrderId, p, t.visibility()); err != nil {
			t.d.showError(err)
			return
		}
	}
	if len(refused) > 0 {
		t.d.showError(fmt.Errorf("not attached, over the service's 20 MB limit: %s", strings.Join(refused, "; ")))
	}
	if len(refused) < len(paths) {
		t.d.queued(fmt.Sprintf("%d file(s) for %s", len(paths)-len(refused), t.wo.WorkOrderNumber))
	}
}

// droppedPaths keeps the local files among dropped URIs.
func droppedPaths(uris []fyne.URI) []string {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == storage.NewFileURI("/").Scheme() {
			paths = append(paths, u.Path())
		}
	}
	return paths
}
