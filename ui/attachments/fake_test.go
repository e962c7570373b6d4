package attachments

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// fixedNow pins the clock, so what the tab writes is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { viewtest.Main(m, func() time.Time { return fixedNow }) }

// fake is everything the tab depends on: the replica (each work order's
// files and our queued actions, in memory), the queue (each file kept as
// queued), the service's links (each one asked for, kept) and the window
// (a test window; work runs inline, as the window's tests run it; what it
// was asked, kept).
type fake struct {
	viewtest.Host
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	files map[int64][]api.Attachment
	rows  map[int64][]storage.OutboxRow

	attached []attached // what AttachFile queued
	links    []string   // the files a link was asked for: "woID/id"
}

type attached struct {
	woID int64
	path string
	vis  api.MessageVisibility
}

// newFake is the tab in a test window, on an accepted work order with two
// files.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t,
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted,
			Customer: api.Customer{Id: 3, Name: "Northwind Retail"}},
		files: map[int64][]api.Attachment{7: {
			{AttachmentId: "a1", Name: "site-photo.jpg", Size: 2048, Created: fixedNow.Add(-time.Hour)},
			{AttachmentId: "a2", Name: "quote.pdf", Size: 4096, Created: fixedNow.Add(-2 * time.Hour)},
		}},
		rows: map[int64][]storage.OutboxRow{},
	}
	f.Win = test.NewTempWindow(t, widget.NewLabel(""))
	f.tab = New(f, f, f, f)
	f.Win.SetContent(f.tab.Content())
	f.Win.Resize(fyne.NewSize(520, 700))
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

func (f *fake) Attachments(_ context.Context, woID int64) ([]api.Attachment, error) {
	return f.files[woID], nil
}
func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	return f.rows[woID], nil
}
func (f *fake) AttachFile(_ context.Context, woID int64, path string, vis api.MessageVisibility) (*storage.OutboxRow, error) {
	f.attached = append(f.attached, attached{woID, path, vis})
	r := storage.OutboxRow{Id: int64(len(f.attached)), Kind: outbox.KindAttachment, Group: outbox.GroupFile, State: storage.OutboxPending, Created: fixedNow, WorkOrderIds: []int64{woID}}
	f.rows[woID] = append(f.rows[woID], r)
	return &r, nil
}
func (f *fake) AttachmentLink(_ context.Context, woID int64, id string) (api.DownloadURL, error) {
	f.links = append(f.links, fmt.Sprintf("%d/%s", woID, id))
	return api.DownloadURL{URL: "https://files.example/" + id + "?sig=x", ExpiresAt: fixedNow.Add(15 * time.Minute)}, nil
}

// says is everything the tab shows, a line per label and button.
func (f *fake) says() string {
	var out []string
	viewtest.Walk(f.Win.Content(), func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.Button:
			out = append(out, w.Text)
		}
	})
	return strings.Join(out, "\n")
}

// buttons is the tab's shown buttons reading text.
func (f *fake) buttons(text string) []*widget.Button {
	var out []*widget.Button
	viewtest.Walk(f.Win.Content(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			out = append(out, b)
		}
	})
	return out
}
