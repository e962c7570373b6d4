package procedures

import (
	"context"
	"fmt"
	"io"
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

// fake is everything the tab depends on: the work order as the person
// sees it (wo, our queued changes applied, as the store's Pending.Expected
// has it) and as the service last said it (sent), the step files the
// service lists, the queue (each change kept, applied to wo as the store
// does, and a pending row) and the window (a test window as wide as the
// detail pane; actions run inline, as the window's tests run them; what it
// was asked, kept).
type fake struct {
	viewtest.Host
	t   *testing.T
	tab *Tab

	wo, sent *api.WorkOrder
	files    map[int64][]api.Attachment // by step id
	rows     []storage.OutboxRow

	updates []api.StepRequest // what UpdateStep queued
	marked  []int64           // procedures MarkProcedureNA queued
	cleared []int64           // procedures ClearProcedureNA queued
	reloads []int64
}

var yes, no = true, false

// refrigeration is a checked-in work order with the sandbox's editable
// procedure: a temperature, a required free text, a yes/no and an amount;
// and a second procedure the customer does not let be marked N/A.
func refrigeration() *api.WorkOrder {
	return &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusCheckedIn, Currency: "USD",
		WorkDetails: &api.WorkDetails{Procedures: []api.Procedure{
			{Id: 10, Order: 1, Name: "Refrigeration service checklist", Steps: []api.Step{
				{Id: 101, Order: 1, Label: "Temperature before (°F)", DataType: "Float", Status: api.StepUnknown,
					Description: "Read at the evaporator before defrosting."},
				{Id: 102, Order: 2, Label: "Condenser coil cleaned", IsRequired: true, Status: api.StepOpen},
				{Id: 103, Order: 3, Label: "Gaskets OK", DataType: "Bool", Status: api.StepUnknown},
				{Id: 104, Order: 4, Label: "Parts cost", DataType: "Money", Status: api.StepUnknown},
			}},
			{Id: 20, Order: 2, Name: "Site safety", AllowMarkNotApplicable: &no, Steps: []api.Step{
				{Id: 201, Order: 1, Label: "Lockout tagged", IsRequired: true, Status: api.StepUnknown},
			}},
		}}}
}

// newFake opens wo on the tab, in a window as wide as the detail pane.
func newFake(t *testing.T, wo *api.WorkOrder) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, files: map[int64][]api.Attachment{
		101: {{AttachmentId: "a1", Name: "evaporator.jpg", Size: 120_000}},
	}}
	f.tab = New(f, f, f, f)
	f.Win = test.NewTempWindow(t, f.tab.Content())
	f.Win.Resize(fyne.NewSize(460, 800))
	f.wo, f.sent = wo, clone(wo)
	f.show()
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

// send has the service take every pending row, as the outbox's sender
// would: the service's copy is then ours, and the window shows it again.
func (f *fake) send() {
	for i := range f.rows {
		f.rows[i].State = storage.OutboxDone
	}
	f.sent = clone(f.wo)
	f.show()
}

// clone is a copy of wo whose procedures and steps are its own.
func clone(wo *api.WorkOrder) *api.WorkOrder {
	c := *wo
	if wo.WorkDetails != nil {
		d := *wo.WorkDetails
		d.Procedures = append([]api.Procedure(nil), d.Procedures...)
		for i := range d.Procedures {
			d.Procedures[i].Steps = append([]api.Step(nil), d.Procedures[i].Steps...)
		}
		c.WorkDetails = &d
	}
	return &c
}

// ref is step sid of procedure pid of the work order.
func (f *fake) ref(pid, sid int64) api.StepRef {
	return api.StepRef{WorkOrderId: f.wo.WorkOrderId, ProcedureId: pid, StepId: sid}
}

// choose clicks step ref's row in the tree; chooseProcedure a procedure's.
func (f *fake) choose(ref api.StepRef) { f.tab.tree.Select(stepNode(ref.ProcedureId, ref.StepId)) }
func (f *fake) chooseProcedure(pid int64) {
	f.tab.tree.Select(procNode(pid))
}

// Replica

func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	var out []storage.OutboxRow
	for _, r := range f.rows {
		if r.WorkOrderIds[0] == woID {
			out = append(out, r)
		}
	}
	return out, nil
}

// Queue

func (f *fake) enqueue(woID int64, kind outbox.Kind, summary string) *storage.OutboxRow {
	f.rows = append(f.rows, storage.OutboxRow{Id: int64(len(f.rows) + 1), Kind: kind, Summary: summary,
		WorkOrderIds: []int64{woID}, State: storage.OutboxPending, Created: fixedNow})
	return &f.rows[len(f.rows)-1]
}

func (f *fake) UpdateStep(_ context.Context, ref api.StepRef, u api.StepUpdate) (*storage.OutboxRow, error) {
	r, err := f.wo.CheckStepUpdate(ref, u)
	if err != nil {
		return nil, err
	}
	f.updates = append(f.updates, *r)
	_, st, _ := f.wo.Step(ref)
	st.Status, st.Value, st.Comment = r.Status, r.Value, r.Comment
	return f.enqueue(ref.WorkOrderId, outbox.KindStepUpdate, "Update "+f.wo.DescribeStep(ref)), nil
}

func (f *fake) MarkProcedureNA(_ context.Context, woID, pid int64) (*storage.OutboxRow, error) {
	f.marked = append(f.marked, pid)
	p, _ := f.wo.Procedure(pid)
	p.IsMarkedNa = true
	return f.enqueue(woID, outbox.KindProcedureNA, "Mark N/A"), nil
}

func (f *fake) ClearProcedureNA(_ context.Context, woID, pid int64) (*storage.OutboxRow, error) {
	f.cleared = append(f.cleared, pid)
	p, _ := f.wo.Procedure(pid)
	p.IsMarkedNa = false
	return f.enqueue(woID, outbox.KindProcedureNA, "Clear N/A"), nil
}

func (f *fake) AddStepAttachment(_ context.Context, ref api.StepRef, path string) (*storage.OutboxRow, error) {
	r := f.enqueue(ref.WorkOrderId, outbox.KindStepAttachmentAdd, "Attach "+path[strings.LastIndex(path, "/")+1:])
	r.Group, r.Step = outbox.GroupStep, &ref
	return r, nil
}

func (f *fake) RemoveStepAttachment(_ context.Context, ref api.StepRef, id string) (*storage.OutboxRow, error) {
	r := f.enqueue(ref.WorkOrderId, outbox.KindStepAttachmentRemove, "Remove "+id)
	r.Group, r.Step = outbox.GroupStep, &ref
	return r, nil
}

// Links

func (f *fake) StepAttachments(_ context.Context, ref api.StepRef) ([]api.StepAttachment, error) {
	var out []api.StepAttachment
	for _, a := range f.files[ref.StepId] {
		out = append(out, api.StepAttachment{Attachment: a})
	}
	return out, nil
}

func (f *fake) StepAttachmentLink(_ context.Context, ref api.StepRef, id string) (api.DownloadURL, error) {
	return api.DownloadURL{URL: fmt.Sprintf("https://files.example/%d/%s?sig=x", ref.StepId, id), ExpiresAt: fixedNow.Add(15 * time.Minute)}, nil
}

// Window

func (f *fake) Download(context.Context, api.DownloadURL, io.Writer, func(int64, int64)) error {
	return nil
}

// Reload shows the work order again, as the window does once an action
// is queued.
func (f *fake) Reload(woID int64) {
	f.reloads = append(f.reloads, woID)
	f.show()
}

func (f *fake) AsSent(woID int64) *api.WorkOrder {
	if woID != f.sent.WorkOrderId {
		return nil
	}
	return f.sent
}

// says is everything the tab shows, a line per label and button.
func (f *fake) says() string {
	return viewtest.Texts(f.tab.Content())
}

// shows reports whether a label or button shown reads text exactly.
func (f *fake) shows(text string) bool {
	for _, s := range strings.Split(f.says(), "\n") {
		if s == text {
			return true
		}
	}
	return false
}

// overlay is the dialog shown over the window, nil when none.
func (f *fake) overlay() fyne.CanvasObject { return f.Win.Canvas().Overlays().Top() }

// buttonIn is the button reading text shown in o.
func buttonIn(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	found := viewtest.Button(o, text)
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}
