package invoice

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// fixedNow pins the clock, so what the tab writes is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { viewtest.Main(m, func() time.Time { return fixedNow }) }

// fake is everything the tab depends on: the replica (invoices, price
// lists, notices, files and the outbox in memory), the queue (each action
// a pending row, sent by send as the service would take it), the service's
// links, the window (a test window; actions queued inline, as the window's
// tests run them) and the other tabs (what the tab asked of them).
type fake struct {
	viewtest.Host
	t   *testing.T
	tab *Tab
	wo  *api.WorkOrder

	invoices   map[int64]*api.Invoice
	priceLists map[int64]*api.PriceList
	notices    map[int64]*storage.InvoiceNotice
	files      map[int64][]api.Attachment
	rows       []row
	refuse     map[string]string // Summary → the service's refusal when sent

	inFlight map[fyne.Disableable]bool
	// sendInWrite delivers what an action queued before Act hands back,
	// as the app's sender can: the work order is shown again meanwhile.
	sendInWrite bool

	quoteRequests []nteRequest
	wrote         []string
}

type nteRequest struct {
	total  api.Money
	lines  []api.LineItem
	reason string
}

// newFake opens wo on the tab, in a window as wide as the detail pane.
func newFake(t *testing.T, wo *api.WorkOrder, inv *api.Invoice, pl *api.PriceList) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{t: t, invoices: map[int64]*api.Invoice{}, priceLists: map[int64]*api.PriceList{},
		notices: map[int64]*storage.InvoiceNotice{}, files: map[int64][]api.Attachment{}, refuse: map[string]string{},
		inFlight: map[fyne.Disableable]bool{}}
	f.tab = New(f, f, f, f, f)
	f.Win = test.NewTempWindow(t, f.tab.Content())
	f.Win.Resize(fyne.NewSize(520, 800))
	f.put(wo, inv, pl)
	f.open(wo)
	return f
}

// put places a work order's invoice and price list in the replica.
func (f *fake) put(wo *api.WorkOrder, inv *api.Invoice, pl *api.PriceList) {
	if inv != nil {
		c := *inv
		c.LineItems = append([]api.LineItem(nil), inv.LineItems...)
		f.invoices[wo.WorkOrderId] = &c
	}
	if pl != nil {
		f.priceLists[wo.WorkOrderId] = pl
	}
}

// open shows wo, as the window does when it is opened or changes.
func (f *fake) open(wo *api.WorkOrder) {
	f.wo = wo
	f.tab.Show(wo)
}

// send has the service take every pending row, as the outbox's sender
// would, and shows the work order again, as the window does on a change.
func (f *fake) send() {
	for i := range f.rows {
		r := &f.rows[i]
		if r.State != storage.OutboxPending {
			continue
		}
		if msg, ok := f.refuse[r.Summary]; ok {
			r.State, r.Error, r.ErrorCode = storage.OutboxFailed, msg, 3052
			continue
		}
		r.State = storage.OutboxDone
		id := r.WorkOrderIds[0]
		inv := f.invoices[id]
		switch {
		case strings.HasPrefix(r.Summary, "Save invoice"):
			saved := r.saved
			saved.Status = api.InvoiceDraft
			if inv != nil {
				saved.Status = inv.Status
			}
			f.invoices[id] = &saved
		case r.Summary == "Submit invoice":
			inv.Status = api.InvoiceSubmitted
		case r.Summary == "Delete invoice":
			f.invoices[id] = &api.Invoice{WorkOrderId: id, Status: inv.Status, Currency: inv.Currency}
		}
	}
	f.open(f.wo)
}

// setStatus is the customer moving the invoice along.
func (f *fake) setStatus(st api.InvoiceStatus) {
	f.invoices[f.wo.WorkOrderId].Status = st
	f.open(f.wo)
}

// Replica

func (f *fake) Invoice(_ context.Context, woID int64) (*api.Invoice, error) {
	inv, ok := f.invoices[woID]
	if !ok {
		return nil, storage.ErrNotFound
	}
	c := *inv
	c.LineItems = append([]api.LineItem(nil), inv.LineItems...)
	return &c, nil
}

func (f *fake) PriceList(_ context.Context, woID int64) (*api.PriceList, error) {
	pl, ok := f.priceLists[woID]
	if !ok {
		return nil, storage.ErrNotFound
	}
	return pl, nil
}

func (f *fake) InvoiceNotice(_ context.Context, woID int64) (*storage.InvoiceNotice, error) {
	return f.notices[woID], nil
}

func (f *fake) InvoiceAttachments(_ context.Context, woID int64) ([]api.Attachment, error) {
	return f.files[woID], nil
}

func (f *fake) OutboxRow(_ context.Context, id int64) (*storage.OutboxRow, error) {
	for _, r := range f.rows {
		if r.Id == id {
			return &r.OutboxRow, nil
		}
	}
	return nil, storage.ErrNotFound
}

func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	var out []storage.OutboxRow
	for _, r := range f.rows {
		if r.WorkOrderIds[0] == woID {
			out = append(out, r.OutboxRow)
		}
	}
	return out, nil
}

// Queue: each action a pending row, as storage makes it.

// row is an outbox row and, for a save, the invoice it carries.
type row struct {
	storage.OutboxRow
	saved api.Invoice
}

func (f *fake) enqueue(woID int64, summary string, group outbox.Group, touches outbox.Parts) *row {
	f.rows = append(f.rows, row{OutboxRow: storage.OutboxRow{Id: int64(len(f.rows) + 1), Summary: summary,
		WorkOrderIds: []int64{woID}, State: storage.OutboxPending, Group: group, Touches: touches, Created: fixedNow}})
	return &f.rows[len(f.rows)-1]
}

func (f *fake) SaveInvoice(_ context.Context, woID int64, inv api.Invoice) (*storage.OutboxRow, error) {
	r := f.enqueue(woID, "Save invoice", outbox.GroupInvoice, 0)
	r.saved = inv
	return &r.OutboxRow, nil
}

func (f *fake) SubmitInvoice(_ context.Context, woID int64, _ bool) (*storage.OutboxRow, error) {
	return &f.enqueue(woID, "Submit invoice", outbox.GroupInvoice, 0).OutboxRow, nil
}

func (f *fake) DeleteInvoice(_ context.Context, woID int64) (*storage.OutboxRow, error) {
	return &f.enqueue(woID, "Delete invoice", outbox.GroupInvoice, 0).OutboxRow, nil
}

func (f *fake) AddInvoiceAttachment(_ context.Context, woID int64, path string) (*storage.OutboxRow, error) {
	return &f.enqueue(woID, "Attach "+path[strings.LastIndex(path, "/")+1:], outbox.GroupFile, outbox.InvoiceAttachments).OutboxRow, nil
}

func (f *fake) RemoveInvoiceAttachment(_ context.Context, woID int64, id string) (*storage.OutboxRow, error) {
	return &f.enqueue(woID, "Remove "+id, outbox.GroupFile, outbox.InvoiceAttachments).OutboxRow, nil
}

// Links

func (f *fake) InvoiceAttachmentLink(_ context.Context, woID int64, id string) (api.DownloadURL, error) {
	return api.DownloadURL{URL: fmt.Sprintf("https://files.example/%d/%s?sig=x", woID, id), ExpiresAt: fixedNow.Add(15 * time.Minute)}, nil
}

// Window

func (f *fake) Download(_ context.Context, _ api.DownloadURL, w io.Writer, _ func(int64, int64)) error {
	_, err := io.WriteString(w, "%PDF-1.4")
	return err
}

// Act is the window's: the controls stay disabled while the action is
// queued (here, at once), and keep what the rules asked for meanwhile.
func (f *fake) Act(controls []fyne.Disableable, write func(context.Context) error, done func(error)) {
	for _, c := range controls {
		if _, busy := f.inFlight[c]; busy {
			return
		}
	}
	for _, c := range controls {
		f.inFlight[c] = !c.Disabled()
		c.Disable()
	}
	err := write(context.Background())
	if f.sendInWrite {
		f.send()
	}
	for _, c := range controls {
		arrange.SetEnabled(c, f.inFlight[c])
		delete(f.inFlight, c)
	}
	done(err)
}

func (f *fake) Busy(w fyne.Disableable) bool { _, ok := f.inFlight[w]; return ok }

func (f *fake) Enable(w fyne.Disableable, on bool) {
	if _, busy := f.inFlight[w]; busy {
		f.inFlight[w] = on
		return
	}
	arrange.SetEnabled(w, on)
}

// Elsewhere

// QuoteAllowed is the rule (api's Can) the Quote tab words.
func (f *fake) QuoteAllowed(wo *api.WorkOrder) (bool, string) {
	if err := wo.Can(api.SubmitQuote); err != nil {
		return false, format.Capital(err.Error()) + "."
	}
	return true, "The NTE is " + format.Nte(wo.Nte.Amount) + "."
}

func (f *fake) RequestNte(total api.Money, lines []api.LineItem, reason string) {
	f.quoteRequests = append(f.quoteRequests, nteRequest{total, lines, reason})
}

func (f *fake) WriteToCustomer(text string) { f.wrote = append(f.wrote, text) }

// Fixtures: a work order of Northwind Retail with an NTE of $1,050.00,
// checked out, its price list, and a draft invoice of two hours' labour.

func workOrder(change ...func(*api.WorkOrder)) *api.WorkOrder {
	wo := &api.WorkOrder{WorkOrderId: 41, WorkOrderNumber: "WN41", Status: api.StatusCheckedOut, Currency: "USD",
		Created: fixedNow.AddDate(0, -1, 0), Nte: api.Nte{Amount: api.MustMoney("1050.00", "USD")},
		Customer: api.Customer{Name: "Northwind Retail"}}
	for _, c := range change {
		c(wo)
	}
	wo.StampCurrency()
	return wo
}

func priceList(currency string) *api.PriceList {
	m := func(s string) api.Money { return api.MustMoney(s, currency) }
	if currency == "JPY" {
		m = func(s string) api.Money { return api.MustMoney(strings.TrimSuffix(s, ".00")+"00", currency) }
	}
	return &api.PriceList{AllowProviderItems: api.Yes, AllowPriceListItems: api.Yes, Currency: currency, Items: []api.PriceListItem{
		{Id: 11, Description: "Labor, per hour", Type: api.LineLabor, Unit: "hour", Rate: m("85.00")},
		{Id: 12, Description: "Service call", Type: api.LineLabor, Unit: "visit", Rate: m("95.00")},
		{Id: 13, Description: "Air filter 20x25", Type: api.LineMaterial, Unit: "each", Rate: m("12.00"), IsRateReadOnly: true},
	}}
}

func draft(wo *api.WorkOrder, change ...func(*api.Invoice)) *api.Invoice {
	day := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	pl := priceList(wo.Currency)
	inv := &api.Invoice{WorkOrderId: wo.WorkOrderId, InvoiceNumber: "INV-41", InvoiceDate: &day, Status: api.InvoiceDraft, Currency: wo.Currency,
		LineItems: []api.LineItem{{Id: 1, Type: api.LineLabor, Description: pl.Items[0].Description, Quantity: decimal.NewFromInt(2),
			Rate: pl.Items[0].Rate, PriceListItemId: pl.Items[0].Id}}}
	for _, c := range change {
		c(inv)
	}
	inv.StampCurrency()
	for i := range inv.LineItems {
		inv.LineItems[i].Subtotal = inv.LineItems[i].ComputedSubtotal()
	}
	inv.TotalAmount = inv.Totals(wo.Currency).Total
	return inv
}

// Helpers to act as a person does and to read what the tab shows.

// clearLines removes every line with its delete button, as a person would.
func clearLines(t *testing.T, inv *Tab) {
	t.Helper()
	for len(inv.rows) > 0 {
		test.Tap(inv.rows[0].remove)
	}
	if len(inv.inv.LineItems) != 0 {
		t.Fatalf("%d lines left after removing them all", len(inv.inv.LineItems))
	}
}

// addPriceItem picks item i of the price list and adds it.
func addPriceItem(t *testing.T, inv *Tab, i int) *lineRow {
	t.Helper()
	inv.priceSel.SetSelectedIndex(i)
	test.Tap(inv.addItem)
	if len(inv.rows) == 0 {
		t.Fatal("adding a price list item added no line")
	}
	return inv.rows[len(inv.rows)-1]
}

// texts is the visible label and button texts under o.
func texts(o fyne.CanvasObject) []string {
	var out []string
	viewtest.Walk(o, func(c fyne.CanvasObject) {
		if l, ok := c.(*widget.Label); ok {
			out = append(out, l.Text)
		} else if b := viewtest.AsButton(c); b != nil {
			out = append(out, b.Text)
		}
	})
	return out
}

// shownTexts is every visible label and button text of the tab.
func shownTexts(inv *Tab) string { return strings.Join(texts(inv.Content()), "\n") }

// redTexts is the visible danger-coloured text of the tab.
func redTexts(inv *Tab) []string {
	var out []string
	viewtest.Walk(inv.Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Importance == widget.DangerImportance && strings.TrimSpace(l.Text) != "" {
			out = append(out, l.Text)
		}
	})
	return out
}

// positionIn is target's position relative to root, found through
// containers and widget renderers; false when it is not shown under root.
func positionIn(root, target fyne.CanvasObject) (fyne.Position, bool) {
	if root == target {
		return fyne.Position{}, true
	}
	if !root.Visible() {
		return fyne.Position{}, false
	}
	var kids []fyne.CanvasObject
	switch c := root.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(c).Objects()
	}
	for _, k := range kids {
		if p, ok := positionIn(k, target); ok {
			return k.Position().Add(p), true
		}
	}
	return fyne.Position{}, false
}

// settle lays the window out again, as the desktop driver does frame by
// frame: a word-wrapped label knows its height only once it has its width.
func (f *fake) settle() {
	size := f.Win.Canvas().Size()
	for range 2 {
		f.Win.Resize(size.AddWidthHeight(1, 1))
		f.Win.Resize(size)
	}
}

// gaugeSeen is what the NTE gauge shows: its words and the colour of its
// filled part.
func gaugeSeen(t *testing.T, inv *Tab) (string, color.Color) {
	t.Helper()
	if !inv.gauge.BarShown() || !inv.gauge.Bar.Visible() {
		t.Fatal("the NTE gauge is hidden")
	}
	var text string
	var rects []*canvas.Rectangle
	for _, o := range test.WidgetRenderer(inv.gauge.Bar).Objects() {
		switch c := o.(type) {
		case *canvas.Text:
			text = c.Text
		case *canvas.Rectangle:
			if c.Visible() && c.Size().Width > 0 {
				rects = append(rects, c)
			}
		}
	}
	// The filled part is drawn over the track, so it is the last rectangle.
	if len(rects) == 0 {
		t.Fatal("the NTE gauge draws no bar")
	}
	return text, rects[len(rects)-1].FillColor
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
