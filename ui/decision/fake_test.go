package decision

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

func TestMain(m *testing.M) {
	viewtest.Main(m, func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) })
}

// fake is the window around the decisions (viewtest.Host: actions run
// inline, errors and what was queued kept) on a real replica of
// generated work orders (the first and every fifth after it new, the
// second accepted), keeping what else it was asked.
type fake struct {
	viewtest.Host
	t     *testing.T
	store *storage.Store
	d     *Decision

	shown          *api.WorkOrder // the work order the detail shows
	accept, reject *widget.Button // its buttons
	bulk           []fyne.Disableable

	controls [][]fyne.Disableable // each action's controls
	kept     [][]int64
	unticked [][]int64
	results  []string // ShowResults' titles
	rows     []*storage.OutboxRow
}

func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, store: viewtest.GeneratedReplica(t, 16),
		accept: widget.NewButton("Accept", nil), reject: widget.NewButton("Reject…", nil),
		bulk: []fyne.Disableable{widget.NewButton("Accept 2", nil), widget.NewButton("Reject 2", nil)}}
	f.Win = test.NewTempWindow(t, widget.NewLabel("the window"))
	f.Win.Resize(fyne.NewSize(1000, 800))
	dialogs.AnswerKeys(f.Win.Canvas())
	f.d = New(f.store, f)
	return f
}

// wo is work order id of the replica.
func (f *fake) wo(id int64) *api.WorkOrder {
	f.t.Helper()
	wo, err := f.store.WorkOrder(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return wo
}

// queued is the summary of each action the outbox holds, oldest first.
func (f *fake) queued() []string {
	f.t.Helper()
	rows, err := f.store.UnfinishedOutbox(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.Summary)
	}
	return out
}

func (f *fake) Act(controls []fyne.Disableable, write func(context.Context) error, done func(error)) {
	f.controls = append(f.controls, controls)
	f.Host.Act(controls, write, done)
}

func (f *fake) Shown() (*api.WorkOrder, fyne.Disableable, fyne.Disableable) {
	return f.shown, f.accept, f.reject
}
func (f *fake) BulkControls() []fyne.Disableable { return f.bulk }
func (f *fake) KeepInList(ids ...int64)          { f.kept = append(f.kept, ids) }
func (f *fake) Untick(ids []int64)               { f.unticked = append(f.unticked, ids) }
func (f *fake) ShowResults(title string, row *storage.OutboxRow, _ []int64) {
	f.results, f.rows = append(f.results, title), append(f.rows, row)
}

// top is the dialog on top of the window (nil: none).
func (f *fake) top() fyne.CanvasObject { return f.Win.Canvas().Overlays().Top() }

// reason is the reason entry of the dialog on top.
func (f *fake) reason() *widget.Entry {
	f.t.Helper()
	var found *widget.Entry
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		if e, ok := o.(*dialogs.Entry); ok && found == nil {
			found = &e.Entry
		}
	})
	if found == nil {
		f.t.Fatalf("no reason to type in:\n%s", viewtest.Texts(f.top()))
	}
	return found
}

// button is the shown button labelled text in the dialog on top.
func (f *fake) button(text string) *widget.Button {
	f.t.Helper()
	var found *widget.Button
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		if b := viewtest.AsButton(o); b != nil && b.Text == text && found == nil {
			found = b
		}
	})
	if found == nil {
		f.t.Fatalf("no %q button in:\n%s", text, viewtest.Texts(f.top()))
	}
	return found
}
