package attachments

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/files"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Tab lists the work order's files, adds new ones and opens them. There
// is no remove: the service does not let contractors delete them.
type Tab struct {
	replica Replica
	queue   Queue
	links   Links

	wo    *api.WorkOrder
	vis   *widget.Select
	files *files.Panel
}

// New is the tab, reading replica, queueing files on queue, opening them
// through links and acting through win.
func New(replica Replica, queue Queue, links Links, win Window) *Tab {
	t := &Tab{replica: replica, queue: queue, links: links}
	var opts []string
	for _, v := range api.AllVisibilities {
		opts = append(opts, format.Visibility(v))
	}
	t.vis = widget.NewSelect(opts, nil)
	t.vis.SetSelectedIndex(0)
	t.files = files.NewPanel(win, replica, false, container.NewBorder(nil, nil, widget.NewLabel("Visible to"), nil, t.vis))
	t.files.NoPlace = "open a work order first, then drop the files on the window"
	return t
}

func (t *Tab) Title() string              { return "Attachments" }
func (t *Tab) Icon() fyne.Resource        { return theme.FolderIcon() }
func (t *Tab) Content() fyne.CanvasObject { return container.NewPadded(t.files) }

// AddFiles attaches files dropped on the window while the tab is shown.
func (t *Tab) AddFiles(paths []string) { t.files.AddFiles(paths) }

func (t *Tab) Show(wo *api.WorkOrder) {
	t.wo = wo
	why := ""
	if err := wo.Can(api.AttachFile); err != nil {
		why = format.Capital(err.Error()) + "."
	}
	woID, replica, queue, links := wo.WorkOrderId, t.replica, t.queue, t.links
	t.files.SetPlace(&files.Place{
		Key: fmt.Sprintf("work order %d", woID), WoID: woID, What: wo.WorkOrderNumber,
		Note:   "Files up to 20 MB. Attachments cannot be removed once added: the service does not allow it.",
		Empty:  "No attachments yet. Add a file, or drop files onto the window.",
		WhyNot: why,
		List:   func(ctx context.Context) ([]api.Attachment, error) { return replica.Attachments(ctx, woID) },
		Add: func(path string) func(context.Context) error {
			vis := t.visibility() // as chosen when the file is added
			return func(ctx context.Context) error { _, err := queue.AttachFile(ctx, woID, path, vis); return err }
		},
		Link: func(ctx context.Context, id string) (api.DownloadURL, error) {
			return links.AttachmentLink(ctx, woID, id)
		},
		Mine: func(r storage.OutboxRow) bool { return r.Group == outbox.GroupFile },
	})
}

func (t *Tab) visibility() api.MessageVisibility {
	for _, v := range api.AllVisibilities {
		if format.Visibility(v) == t.vis.Selected {
			return v
		}
	}
	return api.VisibilityAll
}
