package note

import (
	"context"
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

// fake is everything the tab depends on: the replica (the note of one
// work order, in memory), the queue (each edit kept as queued, with the
// note it began from) and the window (actions run inline, as the window's
// tests run them; what it was asked, kept).
type fake struct {
	viewtest.Host
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	note *storage.Note

	edits      []edit // what SetNote queued
	reloads    []int64
	asked      int   // how often the person's name was asked for first
	correcting int64 // the refused row the person corrects (0: none)
}

type edit struct{ text, base string }

// newFake is the tab in a test window as wide as the detail pane, on a
// work order with no note yet.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, note: &storage.Note{},
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted}}
	f.tab = New(f, f, f)
	w := test.NewTempWindow(t, f.tab.Content())
	w.Resize(fyne.NewSize(520, 800))
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

func (f *fake) Note(_ context.Context, woID int64) (*storage.Note, error) {
	if woID != f.wo.WorkOrderId {
		return &storage.Note{}, nil
	}
	n := *f.note
	return &n, nil
}

// SetNote queues the edit as the store does: the note the replica will
// hold once it is sent is the edit's text.
func (f *fake) SetNote(_ context.Context, woID int64, text, base string) (*storage.OutboxRow, error) {
	f.edits = append(f.edits, edit{text, base})
	row := &storage.OutboxRow{Id: int64(len(f.edits)), Kind: outbox.KindNote, State: storage.OutboxPending, Created: fixedNow, WorkOrderIds: []int64{woID}}
	f.note.Text, f.note.Queued = text, row
	return row, nil
}

// sent is the service taking the queued edit, by name, as the replica
// then lists it.
func (f *fake) sent(by string) {
	v := api.NoteEntry{InternalNote: f.note.Text, UpdatedBy: by, ActionDate: fixedNow}
	f.note.Current, f.note.History, f.note.Queued, f.note.Read = v, append(f.note.History, v), nil, fixedNow
	f.show()
}

func (f *fake) Enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}
func (f *fake) Correcting(rowID int64) bool { return rowID != 0 && rowID == f.correcting }
func (f *fake) WithPersonName(then func()) {
	f.asked++
	then()
}
func (f *fake) Reload(woID int64) { f.reloads = append(f.reloads, woID) }

// says is everything the tab shows, a line per label and button.
func (f *fake) says() string {
	var out []string
	viewtest.Walk(f.tab.Content(), func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.Button:
			out = append(out, w.Text)
		}
	})
	return strings.Join(out, "\n")
}

// history is what the tab lists under History: each version's heading,
// then its text.
func (f *fake) history() []string {
	all := strings.Split(f.says(), "\n")
	for i, s := range all {
		if s == "History" {
			return all[i+1:]
		}
	}
	return nil
}
