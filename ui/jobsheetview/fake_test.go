package jobsheetview

import (
	"context"
	"net/url"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

func TestMain(m *testing.M) {
	viewtest.Main(m, func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) })
}

// fake is the window around the dialog (viewtest.Host: work runs
// inline) on a replica of generated work orders, keeping the files it
// was asked to open; openErr is the viewer's answer.
type fake struct {
	viewtest.Host
	t       *testing.T
	store   *storage.Store
	reads   *counting
	d       *Dialog
	prefs   fyne.Preferences
	opened  []*url.URL
	openErr error
}

// counting is the replica, counting the internal note's reads.
type counting struct {
	*storage.Store
	notes int
}

func (c *counting) Note(ctx context.Context, woID int64) (*storage.Note, error) {
	c.notes++
	return c.Store.Note(ctx, woID)
}

func newFake(t *testing.T) *fake {
	t.Helper()
	a := test.NewTempApp(t)
	f := &fake{t: t, store: viewtest.GeneratedReplica(t, 3), prefs: a.Preferences()}
	f.reads = &counting{Store: f.store}
	f.Win = test.NewTempWindow(t, widget.NewLabel("the window"))
	f.Win.Resize(fyne.NewSize(1000, 800))
	f.d = New(f.reads, f)
	return f
}

func (f *fake) Preferences() fyne.Preferences { return f.prefs }

func (f *fake) OpenFile(u *url.URL) error {
	f.opened = append(f.opened, u)
	return f.openErr
}

// wo is the replica's first work order.
func (f *fake) wo() *api.WorkOrder {
	f.t.Helper()
	wo, err := f.store.WorkOrder(context.Background(), 1_000_000)
	if err != nil {
		f.t.Fatal(err)
	}
	return wo
}

// dialog is the dialog shown, failing the test when there is none.
func (f *fake) dialog() fyne.CanvasObject {
	f.t.Helper()
	top := f.Win.Canvas().Overlays().Top()
	if top == nil {
		f.t.Fatal("no dialog")
	}
	return top
}

// tap taps the dialog's button reading text.
func (f *fake) tap(text string) {
	f.t.Helper()
	b := viewtest.Button(f.dialog(), text)
	if b == nil {
		f.t.Fatalf("no %s in %q", text, viewtest.Texts(f.dialog()))
	}
	test.Tap(b)
}
