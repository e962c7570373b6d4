package activity

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// fixedNow pins the clock, so what the tab writes is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { viewtest.Main(m, func() time.Time { return fixedNow }) }

// fake is everything the tab depends on: the replica (our actions and the
// notifications of one work order, in memory) and the window (what the
// person asked it to retry or discard, what a colleague did first, and
// who this window's person is to the office hub).
type fake struct {
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	rows   []storage.OutboxRow
	events []storage.EventRecord

	first     map[int64]string // outbox row id → what a colleague did first
	person    string
	retried   []int64
	discarded []int64
}

// newFake is the tab in a test window as wide as the detail pane, with
// nothing in the replica yet.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, first: map[int64]string{},
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Currency: "USD"}}
	f.tab = New(f, f)
	w := test.NewTempWindow(t, f.tab.Content())
	w.Resize(fyne.NewSize(520, 800))
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	var out []storage.OutboxRow
	for _, r := range f.rows {
		if woID == f.wo.WorkOrderId {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fake) Events(_ context.Context, woID int64) ([]storage.EventRecord, error) {
	if woID != f.wo.WorkOrderId {
		return nil, nil
	}
	return f.events, nil
}

func (f *fake) Retry(id int64)   { f.retried = append(f.retried, id) }
func (f *fake) Discard(id int64) { f.discarded = append(f.discarded, id) }
func (f *fake) ColleagueFirst(_ int64, r storage.OutboxRow) string {
	return f.first[r.Id]
}
func (f *fake) OfficePerson() string { return f.person }

// line is one line of the tab as its list draws it.
type line struct {
	title, text    string
	danger         bool
	retry, discard *widget.Button // nil when not shown
}

// lines is every line of the tab, newest first, each drawn as the list
// draws it when scrolled to.
func (f *fake) lines() []line {
	f.t.Helper()
	var out []line
	for i := range f.tab.list.Length() {
		o := f.tab.list.CreateItem()
		f.tab.list.UpdateItem(i, o)
		box := o.(*fyne.Container)
		labels := box.Objects[0].(*fyne.Container).Objects
		buttons := box.Objects[1].(*fyne.Container)
		text := labels[1].(*widget.Label)
		l := line{title: labels[0].(*widget.Label).Text, text: text.Text, danger: text.Importance == widget.DangerImportance}
		if buttons.Visible() {
			l.retry = buttons.Objects[0].(*widget.Button)
			l.discard = buttons.Objects[1].(*widget.Button)
		}
		out = append(out, l)
	}
	return out
}
