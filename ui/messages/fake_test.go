package messages

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

// fake is everything the tab depends on: the replica (the thread of one
// work order, in memory), the queue (each message kept as queued, and in
// the thread as ours, waiting) and the window (a test window as wide as
// the detail pane; actions run inline, as the window's tests run them;
// what it was asked, kept).
type fake struct {
	viewtest.Host
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	thread []storage.ThreadMessage

	sent      []sent // what SendMessage queued
	retried   []int64
	discarded []int64
	edited    []int64
	pressed   []string // "tab action" of each Press
	shortcuts []fyne.Shortcut
}

type sent struct {
	text string
	vis  api.MessageVisibility
}

// newFake is the tab in a test window as wide as the detail pane, on an
// accepted work order whose thread holds thread.
func newFake(t *testing.T, thread ...storage.ThreadMessage) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, thread: thread,
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted}}
	f.tab = New(f, f, f)
	f.Win = test.NewTempWindow(t, f.tab.Content())
	f.Win.Resize(fyne.NewSize(460, 700))
	f.show()
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

func (f *fake) Thread(_ context.Context, woID int64) ([]storage.ThreadMessage, error) {
	if woID != f.wo.WorkOrderId {
		return nil, nil
	}
	return append([]storage.ThreadMessage(nil), f.thread...), nil
}

// SendMessage queues the message as the store does: it is in the thread
// at once, ours, waiting to be sent.
func (f *fake) SendMessage(_ context.Context, woID int64, text string, vis api.MessageVisibility) (*storage.OutboxRow, error) {
	f.sent = append(f.sent, sent{text, vis})
	row := &storage.OutboxRow{Id: int64(len(f.sent)), Kind: outbox.KindMessage, State: storage.OutboxPending, Created: fixedNow, WorkOrderIds: []int64{woID}}
	f.thread = append(f.thread, storage.ThreadMessage{Message: api.Message{WorkOrderId: woID, Text: text, MessageVisibility: vis, Created: fixedNow}, Row: row, Own: true})
	return row, nil
}

func (f *fake) Queued(what string) {
	f.Said = append(f.Said, what)
	f.show() // the window shows the work order again once an action is queued
}
func (f *fake) Retry(rowID int64)        { f.retried = append(f.retried, rowID) }
func (f *fake) Discard(rowID int64)      { f.discarded = append(f.discarded, rowID) }
func (f *fake) Edit(r storage.OutboxRow) { f.edited = append(f.edited, r.Id) }
func (f *fake) Shortcut(s fyne.Shortcut) bool {
	f.shortcuts = append(f.shortcuts, s)
	return true
}
func (f *fake) Press(b *widget.Button, tab string, a api.Action) {
	f.pressed = append(f.pressed, tab+" "+string(a))
	if !b.Disabled() {
		b.OnTapped()
	}
}

// row is one message as the thread draws it: its heading, its text, the
// buttons it offers, whether it is drawn apart (tinted), and the drawing.
type row struct {
	heading, text string
	buttons       []string
	tinted        bool
	item          fyne.CanvasObject
}

// rows is every message of the thread, drawn as the list draws it.
func (f *fake) rows() []row {
	var out []row
	for i := 0; i < f.tab.list.Length(); i++ {
		item := f.tab.list.CreateItem()
		f.tab.list.UpdateItem(i, item)
		var shown []string
		var buttons []string
		viewtest.Walk(item, func(o fyne.CanvasObject) {
			switch w := o.(type) {
			case *widget.Label:
				shown = append(shown, w.Text)
			case *widget.Button:
				buttons = append(buttons, w.Text)
			}
		})
		out = append(out, row{heading: shown[0], text: shown[1], buttons: buttons,
			tinted: item.(*fyne.Container).Objects[0].Visible(), item: item})
	}
	return out
}

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
