package pending

import (
	"context"
	"errors"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// fixedNow pins the clock, so the times the header writes are the same on
// every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { viewtest.Main(m, func() time.Time { return fixedNow }) }

// fake is everything the header depends on: the queue (each answer kept,
// the rows it answers for those the header shows) and the window
// (viewtest.Host: writes run inline, errors and what was queued kept;
// what else the header asked, kept). Its rows are queued in a real
// replica, so that what they carry is what the form would get back.
type fake struct {
	viewtest.Host
	t      *testing.T
	header *Header
	store  *storage.Store
	wo     *api.WorkOrder
	rows   map[int64]storage.OutboxRow

	fail                     error // what the queue's calls fail with
	retried, discarded, kept []int64

	changed    [][]int64
	edited     []int64
	stopped    int
	correcting int64 // the row the person corrects (0: none)
	ended      []int64
	colleague  string // what ColleagueFirst says
}

// newFake is the header in a test window, for the first work order of a
// generated replica.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, store: viewtest.GeneratedReplica(t, 1), rows: map[int64]storage.OutboxRow{}}
	wo, err := f.store.WorkOrder(context.Background(), 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	f.wo = wo
	f.header = New(f, f)
	f.Win = test.NewTempWindow(t, container.NewVBox(f.header.Queued(), f.header.Refused()))
	f.Win.Resize(fyne.NewSize(600, 600))
	return f
}

// queue queues an action with the replica, as the window does.
func (f *fake) queue(do func(ctx context.Context, s *storage.Store) (*storage.OutboxRow, error)) storage.OutboxRow {
	f.t.Helper()
	r, err := do(context.Background(), f.store)
	if err != nil {
		f.t.Fatal(err)
	}
	return *r
}

// refused is r refused by the service with msg, at fixedNow.
func refused(r storage.OutboxRow, msg string, code int) storage.OutboxRow {
	r.State, r.Error, r.ErrorCode, r.Updated = storage.OutboxFailed, msg, code, fixedNow
	return r
}

// show has the header show the work order with queued and refused.
func (f *fake) show(queued, refused []storage.OutboxRow) {
	for _, r := range append(append([]storage.OutboxRow{}, queued...), refused...) {
		f.rows[r.Id] = r
	}
	f.header.Show(&storage.Pending{Replica: f.wo, Expected: f.wo, Queued: queued, Refused: refused})
}

func (f *fake) answer(id int64) (*storage.OutboxRow, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	r, ok := f.rows[id]
	if !ok {
		return nil, errors.New("no such action")
	}
	return &r, nil
}

func (f *fake) Retry(_ context.Context, id int64) (*storage.OutboxRow, error) {
	f.retried = append(f.retried, id)
	return f.answer(id)
}
func (f *fake) Discard(_ context.Context, id int64) error {
	f.discarded = append(f.discarded, id)
	return f.fail
}
func (f *fake) OutboxRow(_ context.Context, id int64) (*storage.OutboxRow, error) {
	return f.answer(id)
}
func (f *fake) KeepMine(_ context.Context, id int64) (*storage.OutboxRow, error) {
	f.kept = append(f.kept, id)
	return f.answer(id)
}

func (f *fake) Changed(ids []int64)                            { f.changed = append(f.changed, ids) }
func (f *fake) ColleagueFirst(int64, storage.OutboxRow) string { return f.colleague }
func (f *fake) Edit(r storage.OutboxRow)                       { f.edited = append(f.edited, r.Id) }
func (f *fake) StopCorrecting()                                { f.stopped++; f.correcting = 0 }
func (f *fake) Correcting(rowID int64) bool                    { return rowID != 0 && rowID == f.correcting }
func (f *fake) CorrectingHint(storage.OutboxRow) string        { return "Correct it here." }
func (f *fake) EndCorrecting(rowID int64) {
	f.ended = append(f.ended, rowID)
	if rowID == f.correcting {
		f.correcting = 0
	}
}
