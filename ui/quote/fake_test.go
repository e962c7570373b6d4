package quote

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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

// fake is everything the tab depends on: the replica (price lists, our
// actions and the customer's notifications per work order, the
// customers that refused quotes, in memory), the queue (each quote kept
// as queued) and the window (actions run inline, as the window's tests
// run them; what it was asked, kept).
type fake struct {
	viewtest.Host
	t    *testing.T
	tab  *Tab
	page fyne.CanvasObject
	wo   *api.WorkOrder

	priceLists map[int64]*api.PriceList
	rows       map[int64][]storage.OutboxRow
	events     map[int64][]storage.EventRecord
	refused    map[int64]*storage.QuotesRefusal // by customer

	quotes     []queuedQuote // what SubmitQuote queued
	triedAgain []int64       // customers TryQuotesAgain forgot the refusal of
	correcting bool          // the person corrects a refused quote
}

type queuedQuote struct {
	woID   int64
	amount api.Money
	reason string
	lines  []api.LineItem
}

// dollarList is a customer's price list in dollars: a part and an hour.
func dollarList() *api.PriceList {
	return &api.PriceList{Currency: "USD", Items: []api.PriceListItem{
		{Id: 11, Description: "Compressor", Rate: api.MustMoney("450.00", "USD")},
		{Id: 12, Description: "Labour (hour)", Rate: api.MustMoney("95.00", "USD")},
	}}
}

// newFake is the tab in a test window as wide as the detail pane, on an
// accepted dollar work order with an NTE of $1,000.00 and no quote, of a
// customer that takes quotes, whose price list is loaded.
func newFake(t *testing.T) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t,
		wo: &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted, Currency: "USD",
			Customer: api.Customer{Id: 3, Name: "Northwind Retail"}, Nte: api.Nte{Amount: api.MustMoney("1000.00", "USD")}},
		priceLists: map[int64]*api.PriceList{7: dollarList()},
		rows:       map[int64][]storage.OutboxRow{},
		events:     map[int64][]storage.EventRecord{},
		refused:    map[int64]*storage.QuotesRefusal{},
	}
	f.tab = New(f, f, f)
	f.page = f.tab.Content()
	w := test.NewTempWindow(t, f.page)
	w.Resize(fyne.NewSize(520, 900))
	return f
}

// show opens the work order on the tab, as the window does on a change.
func (f *fake) show() { f.tab.Show(f.wo) }

func (f *fake) PriceList(_ context.Context, woID int64) (*api.PriceList, error) {
	return f.priceLists[woID], nil
}
func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	return f.rows[woID], nil
}
func (f *fake) Events(_ context.Context, woID int64) ([]storage.EventRecord, error) {
	return f.events[woID], nil
}
func (f *fake) QuotesRefused(_ context.Context, customerID int64) (*storage.QuotesRefusal, error) {
	return f.refused[customerID], nil
}

func (f *fake) SubmitQuote(_ context.Context, woID int64, amount api.Money, reason string, lines []api.LineItem) (*storage.OutboxRow, error) {
	f.quotes = append(f.quotes, queuedQuote{woID, amount, reason, lines})
	return &storage.OutboxRow{Id: int64(len(f.quotes)), Kind: outbox.KindQuote, Group: outbox.GroupQuote, State: storage.OutboxPending, Created: fixedNow, WorkOrderIds: []int64{woID}}, nil
}
func (f *fake) TryQuotesAgain(_ context.Context, customerID int64) error {
	f.triedAgain = append(f.triedAgain, customerID)
	delete(f.refused, customerID)
	return nil
}

// sentOurs is a quote of ours the service took, with reason, as the
// outbox lists it once done.
func (f *fake) sentOurs(amount api.Money, reason string) {
	req, err := json.Marshal(api.QuoteRequest{WorkOrderId: f.wo.WorkOrderId, Amount: amount, Comment: reason})
	if err != nil {
		f.t.Fatal(err)
	}
	id := int64(len(f.rows[f.wo.WorkOrderId]) + 1)
	f.rows[f.wo.WorkOrderId] = append(f.rows[f.wo.WorkOrderId], storage.OutboxRow{Id: id, Kind: outbox.KindQuote, Group: outbox.GroupQuote,
		State: storage.OutboxDone, Request: req, Created: fixedNow.Add(-time.Hour), WorkOrderIds: []int64{f.wo.WorkOrderId}})
}

// customerSaid is the customer's notification that the quote is now q.
func (f *fake) customerSaid(q api.Quote) {
	f.events[f.wo.WorkOrderId] = append(f.events[f.wo.WorkOrderId], storage.EventRecord{
		Event: api.Event{Body: &api.QuoteChangedEvent{Quote: q}}, ReceivedAt: fixedNow})
}

func (f *fake) CorrectingIn(woID int64, group outbox.Group) bool {
	return f.correcting && woID == f.wo.WorkOrderId && group == outbox.GroupQuote
}
func (f *fake) Background(fn func()) { fn() }
func (f *fake) Do(fn func())         { fn() }

// says is everything the tab shows, a line per label and button.
func (f *fake) says() string {
	var out []string
	viewtest.Walk(f.page, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.Button:
			out = append(out, w.Text)
		}
	})
	return strings.Join(out, "\n")
}

// shows reports whether o is on screen: it and everything it sits in is
// visible.
func (f *fake) shows(o fyne.CanvasObject) bool {
	found := false
	viewtest.Walk(f.page, func(c fyne.CanvasObject) { found = found || c == o })
	return found
}

// add picks price list item i, with qty, and adds it as a line.
func (f *fake) add(i int, qty string) {
	f.tab.priceSel.SetSelectedIndex(i)
	f.tab.qty.SetText(qty)
	test.Tap(f.tab.addLine)
}

// drawn is the text the canvas draws under o, in order: what a person
// reads, after truncation ("…") and wrapping.
func drawn(o fyne.CanvasObject) string {
	var out []string
	viewtest.Walk(o, func(c fyne.CanvasObject) {
		if t, ok := c.(*canvas.Text); ok && t.Text != "" {
			out = append(out, t.Text)
		}
	})
	return strings.Join(out, " ")
}
