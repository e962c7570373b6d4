package exporting

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

func TestMain(m *testing.M) {
	viewtest.Main(m, func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) })
}

// fake is the window around the exports (viewtest.Host: work runs
// inline, errors kept), keeping in which window each error was told;
// closed stands for the main window going away.
type fake struct {
	viewtest.Host
	e        *Exporter
	errorsIn []fyne.Window
	closed   chan struct{}
}

func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{closed: make(chan struct{})}
	f.Win = test.NewTempWindow(t, widget.NewLabel("the window"))
	f.Win.Resize(fyne.NewSize(1000, 800))
	f.e = New(f)
	return f
}

func (f *fake) ShowErrorIn(w fyne.Window, err error) {
	f.ShowError(err)
	f.errorsIn = append(f.errorsIn, w)
}

func (f *fake) Closed() <-chan struct{} { return f.closed }

// said is what window w's top dialog says, a line each ("" if none);
// dismiss hides it.
func said(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	return viewtest.Texts(top)
}

func dismiss(w fyne.Window) {
	if top := w.Canvas().Overlays().Top(); top != nil {
		top.Hide()
	}
}

// words are the list's words for whom a work order is assigned to, as
// ui/list writes them.
type words struct{}

func (words) AssignedText(a storage.Assignees) string {
	if !a.Known {
		return "unknown"
	}
	return "the list's initials"
}

func (words) Partly(a storage.Assignees) string {
	if a.Partial {
		return " +?"
	}
	return ""
}

// view is the receivables view as the export sees it: a table and what
// its filters keep.
type view struct {
	table    export.Table
	narrowed string
}

func (v view) ExportTable() export.Table { return v.table }
func (v view) Narrowed() string          { return v.narrowed }

// fileWriter is what the save dialog hands back for path.
func fileWriter(t *testing.T, path string) (fyne.URIWriteCloser, fyne.URI) {
	t.Helper()
	uri := fynestorage.NewFileURI(path)
	w, err := fynestorage.Writer(uri)
	if err != nil {
		t.Fatal(err)
	}
	return w, uri
}
