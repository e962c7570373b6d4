package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	store "github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/files"
	"github.com/workorderdesk/workdesk/ui/format"
)

// attachmentsTab lists the work order's files, adds new ones and opens
// them. There is no remove: the service does not let contractors delete them.
type attachmentsTab struct {
	d     *Desk
	wo    *api.WorkOrder
	vis   *widget.Select
	files *files.Panel
}

func newAttachmentsTab(d *Desk) *attachmentsTab {
	t := &attachmentsTab{d: d}
	var opts []string
	for _, v := range api.AllVisibilities {
		opts = append(opts, format.Visibility(v))
	}
	t.vis = widget.NewSelect(opts, nil)
	t.vis.SetSelectedIndex(0)
	t.files = files.NewPanel(host{d}, d.store, false, container.NewBorder(nil, nil, widget.NewLabel("Visible to"), nil, t.vis))
	t.files.NoPlace = "open a work order first, then drop the files on the window"
	return t
}

func (t *attachmentsTab) Title() string              { return "Attachments" }
func (t *attachmentsTab) Icon() fyne.Resource        { return theme.FolderIcon() }
func (t *attachmentsTab) Content() fyne.CanvasObject { return container.NewPadded(t.files) }

// AddFiles attaches files dropped on the window while the tab is shown.
func (t *attachmentsTab) AddFiles(paths []string) { t.files.AddFiles(paths) }

func (t *attachmentsTab) Show(wo *api.WorkOrder) {
	t.wo = wo
	why := ""
	if err := wo.Can(api.AttachFile); err != nil {
		why = format.Capital(err.Error()) + "."
	}
	woID, d := wo.WorkOrderId, t.d
	t.files.SetPlace(&files.Place{
		Key: fmt.Sprintf("work order %d", woID), WoID: woID, What: wo.WorkOrderNumber,
		Note:   "Files up to 20 MB. Attachments cannot be removed once added: the service does not allow it.",
		Empty:  "No attachments yet. Add a file, or drop files onto the window.",
		WhyNot: why,
		List:   func(ctx context.Context) ([]api.Attachment, error) { return d.store.Attachments(ctx, woID) },
		Add: func(path string) func(context.Context) error {
			vis := t.visibility() // as chosen when the file is added
			return func(ctx context.Context) error { _, err := d.store.AttachFile(ctx, woID, path, vis); return err }
		},
		Link: func(ctx context.Context, id string) (api.DownloadURL, error) {
			return d.online.AttachmentLink(ctx, woID, id)
		},
		Mine: func(r store.OutboxRow) bool { return r.Group == outbox.GroupFile },
	})
}

func (t *attachmentsTab) visibility() api.MessageVisibility {
	for _, v := range api.AllVisibilities {
		if format.Visibility(v) == t.vis.Selected {
			return v
		}
	}
	return api.VisibilityAll
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
