package demo

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

func TestMain(m *testing.M) {
	viewtest.Main(m, func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) })
}

// sandbox is the customer's side: each call it was asked to make, in
// words, answered with refuse (nil: done).
type sandbox struct {
	calls  []string
	refuse error
}

func (s *sandbox) call(format string, args ...any) error {
	s.calls = append(s.calls, fmt.Sprintf(format, args...))
	return s.refuse
}

func (s *sandbox) ApproveQuote(id int64) error { return s.call("approve quote %d", id) }
func (s *sandbox) RejectQuote(id int64, reason string) error {
	return s.call("reject quote %d: %s", id, reason)
}
func (s *sandbox) RequestQuote(id int64) error { return s.call("request quote %d", id) }
func (s *sandbox) SetNte(id int64, amount decimal.Decimal) error {
	return s.call("set NTE %d to %s", id, amount)
}
func (s *sandbox) DispatchWorkOrder() (api.WorkOrder, error) {
	return api.WorkOrder{}, s.call("dispatch")
}
func (s *sandbox) SetInvoiceStatus(id int64, status api.InvoiceStatus, comment string) error {
	return s.call("invoice %d %s %q", id, status, comment)
}
func (s *sandbox) MarkProcedure(woID, procID int64, na bool, readOnly bool) error {
	return s.call("procedure %d of %d N/A %v read-only %v", procID, woID, na, readOnly)
}
func (s *sandbox) Do(id int64, action, comment string) error {
	return s.call("%s on %d %q", action, id, comment)
}

// fake is the window around the menu (viewtest.Host: work runs inline),
// showing wo, keeping what it told the person.
type fake struct {
	viewtest.Host
	t       *testing.T
	wo      *api.WorkOrder
	sb      *sandbox
	menu    *fyne.Menu
	infos   []string // "title: message"
	flashed []string
}

func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, sb: &sandbox{}}
	f.Win = test.NewTempWindow(t, widget.NewLabel("the window"))
	f.Win.Resize(fyne.NewSize(1000, 800))
	f.menu = Menu(f.sb, f)
	return f
}

func (f *fake) WorkOrderShown() *api.WorkOrder { return f.wo }
func (f *fake) Info(title, msg string)         { f.infos = append(f.infos, title+": "+msg) }
func (f *fake) Flash(text string)              { f.flashed = append(f.flashed, text) }

// choose chooses the menu's item labelled label.
func (f *fake) choose(label string) {
	f.t.Helper()
	for _, it := range f.menu.Items {
		if it.Label == label {
			it.Action()
			return
		}
	}
	f.t.Fatalf("the Customer menu has no %q", label)
}

// dialog is the dialog shown, failing the test when there is none.
func (f *fake) dialog() fyne.CanvasObject {
	f.t.Helper()
	top := f.Win.Canvas().Overlays().Top()
	if top == nil {
		f.t.Fatal("no dialog")
	}
	return top
}

// tap taps the dialog's button reading text.
func (f *fake) tap(text string) {
	f.t.Helper()
	b := viewtest.Button(f.dialog(), text)
	if b == nil {
		f.t.Fatalf("no %s in %q", text, viewtest.Texts(f.dialog()))
	}
	test.Tap(b)
}
