package assign

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// The dialog is tested on a real replica (SQLite, synced from the
// sandbox's demo world: its branches and their people) and a fake of the
// window around it, which records what the dialog asked of it.

// fixedNow pins the sandbox world and the clock.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return fixedNow }

func TestMain(m *testing.M) { viewtest.Main(m, fixedClock) }

// demoReplica is a replica of its own holding the demo world, its clock
// at fixedNow.
func demoReplica(tb testing.TB) *storage.Store { return viewtest.DemoReplica(tb, fixedClock) }

// fake is the window around the dialog (viewtest.Host: actions run
// inline, errors and what was queued kept), recording what else the
// dialog asked of it.
type fake struct {
	viewtest.Host
	t      *testing.T
	store  *storage.Store
	dialog *Dialog

	controls     []fyne.Disableable // what AssignControls hands out
	asked        [][]int64          // whose controls were asked for
	unticked     [][]int64
	stopped      int  // StopCorrecting
	stoppedIfAny int  // StopCorrectingIfAny while one was corrected
	correcting   bool // a refused action is being corrected
	corrected    []int64
}

// newFake is the dialog over a test window on store, which answers Enter
// and Esc as the app's windows do.
func newFake(t *testing.T, store *storage.Store) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, store: store}
	f.Win = test.NewTempWindow(t, widget.NewLabel("the window"))
	f.Win.Resize(fyne.NewSize(1000, 800))
	dialogs.AnswerKeys(f.Win.Canvas())
	f.dialog = New(store, store, f)
	return f
}

func (f *fake) ShortcutLabel(key string) string { return "Ctrl+" + key }

func (f *fake) AssignControls(woIDs []int64) []fyne.Disableable {
	f.asked = append(f.asked, woIDs)
	return f.controls
}
func (f *fake) Untick(woIDs []int64) { f.unticked = append(f.unticked, woIDs) }
func (f *fake) StopCorrecting()      { f.stopped++; f.correcting = false }
func (f *fake) StopCorrectingIfAny() {
	if f.correcting {
		f.stoppedIfAny++
		f.correcting = false
	}
}
func (f *fake) Corrected(woID int64, group outbox.Group) {
	if f.correcting && group == outbox.GroupCrew {
		f.corrected = append(f.corrected, woID)
		f.correcting = false
	}
}

// top is the dialog shown on top of the window (nil: none).
func (f *fake) top() fyne.CanvasObject { return f.Win.Canvas().Overlays().Top() }

// pick is the first work order of the replica matching ok.
func (f *fake) pick(ok func(*api.WorkOrder) bool) *api.WorkOrder {
	f.t.Helper()
	rows, err := f.store.List(context.Background(), storage.ListQuery{})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, r := range rows {
		wo, err := f.store.WorkOrder(context.Background(), r.Id)
		if err != nil {
			f.t.Fatal(err)
		}
		if ok(wo) {
			return wo
		}
	}
	f.t.Fatal("no work order of the demo fits")
	return nil
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

// check is the tick box labelled text in the dialog on top.
func (f *fake) check(text string) *dialogs.Check {
	f.t.Helper()
	var found *dialogs.Check
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		if c, ok := o.(*dialogs.Check); ok && c.Text == text && found == nil {
			found = c
		}
	})
	if found == nil {
		f.t.Fatalf("no %q tick box in:\n%s", text, viewtest.Texts(f.top()))
	}
	return found
}

// tap taps the button labelled text in the dialog on top.
func (f *fake) tap(text string) {
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
	test.Tap(found)
}
