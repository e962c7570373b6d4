package visit

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

// fake is everything the tab depends on: the replica (customer settings,
// our actions, whom this office assigned, in memory), the queue (each
// visit action kept as queued) and the window (a test window as wide as
// the detail pane, for the tab's questions; actions run inline, as the
// window's tests run them; what it was asked, kept).
type fake struct {
	viewtest.Host
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	settings map[int64]*api.CustomerSettings // by customer
	rows     map[int64][]storage.OutboxRow
	office   map[int64]storage.Assignees // whom this office assigned, by work order

	actions     []queuedAction
	assignFor   []int64 // work orders Assign… was opened for
	replacing   []outbox.Group
	unreachable bool
	keptComment string
	keptPte     string
}

// queuedAction is one visit action the queue was given.
type queuedAction struct {
	kind    outbox.Kind
	woID    int64
	at      *time.Time // nil: now
	comment string
	done    api.Completion
	pte     string // a scheduled start's access type
}

// newFake is the tab in a test window, on an accepted work order of a
// customer that allows back-dating and asks nothing at check-out.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t,
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted,
			Customer: api.Customer{Id: 3, Name: "Northwind Retail"}},
		settings: map[int64]*api.CustomerSettings{3: {CustomerId: 3, AllowBackdating: api.Yes, RepairInfoRequired: api.No}},
		rows:     map[int64][]storage.OutboxRow{},
		office:   map[int64]storage.Assignees{},
	}
	f.tab = New(f, f, f)
	f.Win = test.NewTempWindow(t, f.tab.Content())
	f.Win.Resize(fyne.NewSize(520, 900))
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

// strict is a hotel chain that forbids back-dating and requires, at
// check-out, a repair code and two answers: a fixed choice and a name.
func strict() *api.CustomerSettings {
	return &api.CustomerSettings{CustomerId: 3, AllowBackdating: api.No, RepairInfoRequired: api.Yes,
		RepairCodes: []api.RepairInfo{
			{CodeId: 1, Code: "Replaced part", CategoryId: 1, Category: "HVAC"},
			{CodeId: 2, Code: "Cleaned and adjusted", CategoryId: 1, Category: "HVAC"},
		},
		CustomFields: []api.CustomFieldDescriptor{
			{Id: "room", Label: "Guest room out of order", Values: []string{"Yes", "No"}, IsRequired: api.Yes},
			{Id: "engineer", Label: "Engineer who signed off", IsRequired: api.Yes},
		}}
}

func (f *fake) CustomerSettings(_ context.Context, customerID int64) (*api.CustomerSettings, error) {
	if cs, ok := f.settings[customerID]; ok {
		return cs, nil
	}
	return nil, storage.ErrNotFound
}
func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	return f.rows[woID], nil
}
func (f *fake) AssigneesOf(_ context.Context, ids []int64) (map[int64]storage.Assignees, error) {
	out := map[int64]storage.Assignees{}
	for _, id := range ids {
		out[id] = f.office[id]
	}
	return out, nil
}

func (f *fake) queue(a queuedAction) (*storage.OutboxRow, error) {
	f.actions = append(f.actions, a)
	r := storage.OutboxRow{Id: int64(len(f.actions)), Kind: a.kind, State: storage.OutboxPending, Created: fixedNow, WorkOrderIds: []int64{a.woID}}
	f.rows[a.woID] = append(f.rows[a.woID], r)
	return &r, nil
}
func (f *fake) CheckIn(_ context.Context, woID int64, at *time.Time, comment string) (*storage.OutboxRow, error) {
	return f.queue(queuedAction{kind: outbox.KindCheckIn, woID: woID, at: at, comment: comment})
}
func (f *fake) Pause(_ context.Context, woID int64, at *time.Time, comment string) (*storage.OutboxRow, error) {
	return f.queue(queuedAction{kind: outbox.KindPause, woID: woID, at: at, comment: comment})
}
func (f *fake) CheckOutWith(_ context.Context, woID int64, at *time.Time, comment string, done api.Completion) (*storage.OutboxRow, error) {
	return f.queue(queuedAction{kind: outbox.KindCheckOut, woID: woID, at: at, comment: comment, done: done})
}
func (f *fake) CompleteWorkDetails(_ context.Context, woID int64, comment string, done api.Completion) (*storage.OutboxRow, error) {
	return f.queue(queuedAction{kind: outbox.KindWorkDoneDetails, woID: woID, comment: comment, done: done})
}
func (f *fake) SetAppointment(_ context.Context, woID int64, start time.Time, pte string) (*storage.OutboxRow, error) {
	return f.queue(queuedAction{kind: outbox.KindAppointment, woID: woID, at: &start, pte: pte})
}

func (f *fake) AssignCrew(woID int64) { f.assignFor = append(f.assignFor, woID) }
func (f *fake) Enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}
func (f *fake) Replacing(_ int64, group outbox.Group) context.Context {
	f.replacing = append(f.replacing, group)
	return context.Background()
}
func (f *fake) KeptComment(int64, outbox.Form) string { return f.keptComment }
func (f *fake) KeptPte(*api.WorkOrder) string         { return f.keptPte }
func (f *fake) Unreachable() bool                     { return f.unreachable }

// asked is the text of the question over the window ("" if none).
func (f *fake) asked() string {
	top := f.Win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var out []string
	viewtest.Walk(top, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.RichText:
			out = append(out, w.String())
		}
	})
	return strings.Join(out, "\n")
}

// answer taps the button reading text on the question over the window.
func (f *fake) answer(text string) {
	f.t.Helper()
	top := f.Win.Canvas().Overlays().Top()
	if top == nil {
		f.t.Fatalf("no question to answer %q", text)
	}
	found := viewtest.Button(top, text)
	if found == nil {
		f.t.Fatalf("the question %q offers no %q", f.asked(), text)
	}
	test.Tap(found)
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

// kinds is what was queued, in order.
func (f *fake) kinds() []outbox.Kind {
	var out []outbox.Kind
	for _, a := range f.actions {
		out = append(out, a.kind)
	}
	return out
}
