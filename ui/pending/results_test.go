package pending

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// answers is the replica a bulk action's results are read from (its row,
// as the sender leaves it) and the window they are shown over, which
// hands on the replica's changes when told to.
type answers struct {
	win       fyne.Window
	row       storage.OutboxRow
	listening []func([]int64)
	cancelled int
}

func (a *answers) OutboxRow(context.Context, int64) (*storage.OutboxRow, error) {
	r := a.row
	return &r, nil
}

func (a *answers) WorkOrder(_ context.Context, id int64) (*api.WorkOrder, error) {
	return &api.WorkOrder{WorkOrderId: id, WorkOrderNumber: fmt.Sprintf("NWR%d", id)}, nil
}

func (a *answers) Window() fyne.Window { return a.win }

func (a *answers) Subscribe(f func([]int64)) func() {
	a.listening = append(a.listening, f)
	return func() { a.cancelled++ }
}

// changed is the replica telling of a change to the row.
func (a *answers) changed() {
	for _, f := range a.listening {
		f([]int64{1})
	}
}

// shown is each line the dialog on top says, in order, its title last.
func (a *answers) shown() []string {
	var out []string
	viewtest.Walk(a.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, strings.Split(l.Text, "\n")...)
		}
	})
	return out
}

func newAnswers(t *testing.T, ids []int64) (*answers, *Results) {
	test.NewTempApp(t)
	a := &answers{row: storage.OutboxRow{Id: 9, Kind: outbox.KindBulkAccept, State: storage.OutboxPending, WorkOrderIds: ids}}
	a.win = test.NewTempWindow(t, widget.NewLabel("the window"))
	a.win.Resize(fyne.NewSize(1000, 800))
	return a, NewResults(a, a)
}

// The dialog says where the whole action stands, then each work order,
// and follows the replica as the service answers; closed, it stops
// following it.
func TestABulkActionsResultsFollowTheAnswers(t *testing.T) {
	a, results := newAnswers(t, []int64{1, 2})
	results.Show("Accept", &a.row, a.row.WorkOrderIds)
	queued := actiontext.State(a.row)
	if got := a.shown(); !slices.Equal(got, []string{"Waiting for the service's answer…", "NWR1 — " + queued, "NWR2 — " + queued, "Accept 2 work orders"}) {
		t.Fatalf("while queued the dialog says %q", got)
	}

	a.row.BulkResults = []api.BulkResult{{WorkOrderId: 1}}
	a.changed()
	if got := a.shown(); got[0] != "1 of 2 answered so far…" || got[1] != "NWR1 — done" {
		t.Errorf("half answered the dialog says %q", got)
	}
	a.row.State = storage.OutboxDone
	a.row.BulkResults = append(a.row.BulkResults, api.BulkResult{WorkOrderId: 2, Code: 3001, Message: "The work order is on hold."})
	a.changed()
	want := []string{"1 accepted, 1 refused", "NWR1 — done", "NWR2 — refused: The work order is on hold.", "Accept 2 work orders"}
	if got := a.shown(); !slices.Equal(got, want) {
		t.Errorf("answered the dialog says %q; want %q", got, want)
	}
	dialogs.DismissTop(a.win.Canvas())
	if a.cancelled != 1 {
		t.Errorf("closed, the dialog stopped following the replica %d times", a.cancelled)
	}
}

// The first line says where the whole action stands in each case.
func TestABulkActionsOutcomeReadsAsASentence(t *testing.T) {
	for _, c := range []struct {
		r    bulkResult
		n    int
		want string
	}{
		{bulkResult{done: 2}, 2, "2 work orders accepted"},
		{bulkResult{done: 1}, 1, "1 work order accepted"},
		{bulkResult{waiting: 2}, 2, "Waiting for the service's answer…"},
		{bulkResult{done: 1, waiting: 2}, 3, "1 of 3 answered so far…"},
		{bulkResult{refused: 2}, 2, "None accepted, 2 refused"},
		{bulkResult{done: 1, dropped: 1}, 2, "1 accepted, 1 not sent"},
	} {
		if got := c.r.outcome("accepted", c.n); got != c.want {
			t.Errorf("%+v of %d: %q; want %q", c.r, c.n, got, c.want)
		}
	}
}

// Whatever the service did not answer per work order is the row's: all
// refused with its message, or not sent once discarded; more work orders
// than fit scroll instead of growing the dialog.
func TestABulkActionsRowAnswersForTheRest(t *testing.T) {
	var ids []int64
	for i := range 14 {
		ids = append(ids, int64(i+1))
	}
	a, results := newAnswers(t, ids)
	a.row.State, a.row.Error = storage.OutboxFailed, "Bulk actions are not allowed."
	results.Show("Accept", &a.row, ids)
	got := a.shown()
	if got[0] != "None accepted, 14 refused" || got[14] != "NWR14 — refused: Bulk actions are not allowed." {
		t.Errorf("refused whole the dialog says %q", got)
	}
	scrolls := 0
	viewtest.Walk(a.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if _, ok := o.(*container.Scroll); ok {
			scrolls++
		}
	})
	if scrolls == 0 {
		t.Error("14 work orders do not scroll")
	}
	dialogs.DismissTop(a.win.Canvas())

	a.row.State, a.row.Error = storage.OutboxDiscarded, ""
	results.Show("Accept", &a.row, ids[:2])
	if got := a.shown(); !slices.Equal(got, []string{"None accepted, 2 not sent", "NWR1 — not sent (discarded)", "NWR2 — not sent (discarded)", "Accept 2 work orders"}) {
		t.Errorf("discarded the dialog says %q", got)
	}
}
