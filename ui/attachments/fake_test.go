package attachments

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// fixedNow pins the clock, so what the tab writes is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	time.Local = time.UTC
	format.Now = func() time.Time { return fixedNow }
	os.Exit(m.Run())
}

// fake is everything the tab depends on: the replica (each work order's
// files and our queued actions, in memory), the queue (each file kept as
// queued), the service's links (each one asked for, kept) and the window
// (a test window; work runs inline, as the window's tests run it; what it
// was asked, kept).
type fake struct {
	t   *testing.T
	win fyne.Window
	tab *Tab
	wo  *api.WorkOrder

	files map[int64][]api.Attachment
	rows  map[int64][]storage.OutboxRow

	attached []attached // what AttachFile queued
	links    []string   // the files a link was asked for: "woID/id"
	errs     []string
	queued   []string
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
	f.win = test.NewTempWindow(t, widget.NewLabel(""))
	f.tab = New(f, f, f, f)
	f.win.SetContent(f.tab.Content())
	f.win.Resize(fyne.NewSize(520, 700))
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

func (f *fake) Window() fyne.Window     { return f.win }
func (f *fake) ShowError(err error)     { f.errs = append(f.errs, err.Error()) }
func (f *fake) Queued(what string)      { f.queued = append(f.queued, what) }
func (f *fake) Background(g func())     { g() }
func (f *fake) Do(g func())             { g() }
func (f *fake) Closed() <-chan struct{} { return nil }
func (f *fake) Ticking() bool           { return false }
func (f *fake) Connected() bool         { return true }
func (f *fake) Run(work func(context.Context) error, done func(error)) {
	done(work(context.Background()))
}
func (f *fake) Write(work func(context.Context) error, done func(error)) {
	done(work(context.Background()))
}
func (f *fake) OpenURL(api.DownloadURL) error { return nil }
func (f *fake) Download(_ context.Context, _ api.DownloadURL, w io.Writer, progress func(done, total int64)) error {
	n, err := io.WriteString(w, "%PDF-1.4")
	progress(int64(n), int64(n))
	return err
}

// lastError is the last error the window was asked to show ("" if none).
func (f *fake) lastError() string {
	if len(f.errs) == 0 {
		return ""
	}
	return f.errs[len(f.errs)-1]
}

// says is everything the tab shows, a line per label and button.
func (f *fake) says() string {
	var out []string
	walk(f.win.Content(), func(o fyne.CanvasObject) {
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
	walk(f.win.Content(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			out = append(out, b)
		}
	})
	return out
}

// walk visits o and everything visible under it.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o)
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			walk(ch, visit)
		}
	case fyne.Widget:
		for _, ch := range test.WidgetRenderer(c).Objects() {
			walk(ch, visit)
		}
	}
}
