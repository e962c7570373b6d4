package summary

import (
	"context"
	"strings"
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

// fake is everything the tab depends on: the replica (an invoice, the
// notifications and our actions per work order, in memory) and the window
// (the job sheets it was asked for, kept).
type fake struct {
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	invoices map[int64]*api.Invoice
	events   map[int64][]storage.EventRecord
	rows     map[int64][]storage.OutboxRow

	jobSheets []int64 // the work orders whose job sheet was asked for
}

// newFake is the tab in a test window as wide as the detail pane, on an
// accepted work order with nothing but its number, status and NTE.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t,
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted, Currency: "USD",
			Nte: api.Nte{Amount: api.MustMoney("1000.00", "USD")}},
		invoices: map[int64]*api.Invoice{},
		events:   map[int64][]storage.EventRecord{},
		rows:     map[int64][]storage.OutboxRow{},
	}
	f.tab = New(f, f)
	w := test.NewTempWindow(t, f.tab.Content())
	w.Resize(fyne.NewSize(520, 900))
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

func (f *fake) Invoice(_ context.Context, woID int64) (*api.Invoice, error) {
	return f.invoices[woID], nil
}
func (f *fake) Events(_ context.Context, woID int64) ([]storage.EventRecord, error) {
	return f.events[woID], nil
}
func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	return f.rows[woID], nil
}
func (f *fake) ShowJobSheet(wo *api.WorkOrder) { f.jobSheets = append(f.jobSheets, wo.WorkOrderId) }

// fields is what the tab shows, section by section: a heading, then each
// of its fields as "Label: value" (the description a line of its own).
func (f *fake) fields() []string {
	var out []string
	for _, o := range f.tab.box.Objects {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.Form:
			for _, it := range w.Items {
				out = append(out, it.Text+": "+it.Widget.(*widget.Label).Text)
			}
		}
	}
	return out
}

// field is the value of the field labelled label ("" when not shown).
func (f *fake) field(label string) string {
	for _, s := range f.fields() {
		if v, ok := strings.CutPrefix(s, label+": "); ok {
			return v
		}
	}
	return ""
}
