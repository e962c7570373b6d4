package invoice

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

func TestBuildingAnInvoiceFromThePriceListShowsTotalAndNteWarning(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	cur := wo.Currency
	clearLines(t, inv)
	if !strings.Contains(inv.total.Text, format.Money(api.Money{Currency: cur})) {
		t.Fatalf("an invoice without lines shows %q", inv.total.Text)
	}

	// First item: description and default rate come from the price list.
	first := inv.pl.Items[0]
	row := addPriceItem(t, inv, 0)
	if row.desc.Text != first.Description {
		t.Errorf("the new line reads %q, want the price list's %q", row.desc.Text, first.Description)
	}
	if want := first.Rate.In(cur).Amount.StringFixed(int32(api.MinorUnits(cur))); row.rate.Text != want {
		t.Errorf("the new line's rate reads %q, want the list rate %s", row.rate.Text, want)
	}
	if row.rate.Disabled() {
		t.Error("the rate of an item whose rate is not fixed cannot be edited")
	}
	// A fixed-rate item cannot be re-priced.
	if fixed := addPriceItem(t, inv, 2); !fixed.rate.Disabled() {
		t.Errorf("the rate of %q is fixed by the price list but can be edited", inv.pl.Items[2].Description)
	}
	row = inv.rows[0] // adding a line rebuilt the rows

	// Quantity on the first line so the total lands at about 95% of the NTE.
	nte := wo.Nte.Amount.In(cur)
	others := inv.inv.LineItems[1].ComputedSubtotal().Amount
	target := nte.Amount.Mul(decimal.NewFromFloat(0.95)).Sub(others)
	qty := target.Div(first.Rate.Amount).Truncate(2)
	row.qty.SetText(qty.String())

	// Bad input changes nothing.
	before := inv.total.Text
	row.qty.SetText("two")
	if !strings.Contains(inv.inputErr.Text, "quantity must be a number") {
		t.Errorf("typing a word as quantity says %q", inv.inputErr.Text)
	}
	if inv.total.Text != before || !inv.inv.LineItems[0].Quantity.Equal(qty) {
		t.Errorf("an unreadable quantity changed the invoice: total %q, quantity %s", inv.total.Text, inv.inv.LineItems[0].Quantity)
	}
	row.qty.SetText(qty.String())

	want := api.Money{Currency: cur}
	for _, l := range inv.inv.LineItems {
		want, _ = want.Add(l.ComputedSubtotal())
	}
	if !strings.Contains(inv.total.Text, format.Money(want)) {
		t.Fatalf("the total reads %q, want %s", inv.total.Text, format.Money(want))
	}
	if !row.subtotal.Visible() || row.subtotal.Text != format.Money(inv.inv.LineItems[0].ComputedSubtotal()) {
		t.Errorf("the line subtotal reads %q", row.subtotal.Text)
	}
	if !inv.nteWarn.Visible() || !strings.Contains(inv.nteWarn.Text, "Close to the NTE") {
		t.Errorf("at %s of an NTE of %s the warning reads %q", format.Money(want), format.Money(nte), inv.nteWarn.Text)
	}
	if inv.gauge.Bar.Value < 0.9 || inv.gauge.Bar.Value > 1 {
		t.Errorf("the NTE gauge stands at %.2f", inv.gauge.Bar.Value)
	}
	if inv.requestNte.Visible() {
		t.Error("the NTE increase button shows while the total is within the NTE")
	}

	// Save goes through the outbox; the service's copy comes back.
	inv.number.SetText("INV-TEST-1")
	test.Tap(inv.save)
	if len(f.Said) != 1 || f.Said[0] != "Invoice of WN41" || f.Replaced != 1 {
		t.Errorf("saving told the person %q (correction context asked %d times)", f.Said, f.Replaced)
	}
	f.send()
	stored := f.invoices[wo.WorkOrderId]
	if !stored.TotalAmount.Amount.Equal(want.Amount) || len(stored.LineItems) != len(inv.inv.LineItems) || stored.InvoiceNumber != "INV-TEST-1" {
		t.Fatalf("the service holds total %s with %d lines, number %q; want %s with %d lines",
			format.Money(stored.TotalAmount), len(stored.LineItems), stored.InvoiceNumber, format.Money(want), len(inv.inv.LineItems))
	}
	if !strings.Contains(inv.lastAction.Text, "Sent") {
		t.Errorf("after sending, the tab says %q", inv.lastAction.Text)
	}
}

func TestSubmitWaitsForCheckOutAndSaysSo(t *testing.T) {
	wo := workOrder(func(w *api.WorkOrder) { w.Status = api.StatusCheckedIn })
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	if !inv.problems.Visible() || !strings.Contains(inv.problems.Text, "the service takes the invoice only once the work is done") || inv.problems.Importance == widget.DangerImportance {
		t.Fatalf("before check-out the checklist says %q (importance %v)", inv.problems.Text, inv.problems.Importance)
	}
	test.Tap(inv.submit)
	if inv.problems.Importance != widget.DangerImportance || !strings.Contains(inv.problems.Text, "the service takes the invoice only once the work is done") {
		t.Errorf("pressing Submit before check-out leaves the checklist %q (importance %v)", inv.problems.Text, inv.problems.Importance)
	}
	if len(f.rows) != 0 {
		t.Errorf("an invoice the service would refuse was queued: %+v", f.rows)
	}
}

func TestSubmittingACompleteInvoiceShowsItSubmitted(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	if inv.submit.Disabled() {
		t.Fatalf("a complete draft cannot be submitted: %s", inv.problems.Text)
	}
	f.submit()
	f.send()
	if inv.badge.Text() != "Submitted" {
		t.Errorf("the submitted invoice's badge reads %q", inv.badge.Text())
	}
	if !inv.editNote.Visible() || !strings.Contains(inv.editNote.Text, "does not allow changes") {
		t.Errorf("a submitted invoice explains %q", inv.editNote.Text)
	}
	if !inv.number.Disabled() || !inv.submit.Disabled() {
		t.Error("a submitted invoice can still be edited or submitted")
	}
	if len(f.rows) != 1 || f.rows[0].Summary != "Submit invoice" || f.rows[0].State != storage.OutboxDone {
		t.Errorf("outbox after submitting: %+v", f.rows)
	}
}

// The invoice's files are its own: added while it may change, opened
// through a temporary link, removed after asking.
func TestInvoiceAttachmentsAddOpenRemove(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	path := filepath.Join(t.TempDir(), "parts-receipt.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4 receipt"), 0o600); err != nil {
		t.Fatal(err)
	}
	inv.AddFiles([]string{path}) // what dropping the file on the window does
	if len(f.rows) != 1 || f.rows[0].Summary != "Attach parts-receipt.pdf" || len(f.Said) != 1 || f.Said[0] != "parts-receipt.pdf for the invoice of WN41" {
		t.Fatalf("adding a file queued %+v, told %q", f.rows, f.Said)
	}
	f.rows[0].State = storage.OutboxDone
	f.files[wo.WorkOrderId] = []api.Attachment{{AttachmentId: "att-9", Name: "parts-receipt.pdf", Size: 16, Created: fixedNow}}
	f.open(wo)
	listed := func() string { return strings.Join(texts(inv.files), "\n") }
	if !strings.Contains(listed(), "parts-receipt.pdf") {
		t.Fatalf("the invoice lists:\n%s", listed())
	}
	test.Tap(buttonIn(t, inv.files, "Open…"))
	if says := strings.Join(texts(f.Win.Canvas().Overlays().Top()), "\n"); !strings.Contains(says, "Link valid for 15:00") {
		t.Fatalf("opening the file showed %q", says)
	}
	test.Tap(buttonIn(t, f.Win.Canvas().Overlays().Top(), "Close"))
	test.Tap(buttonIn(t, inv.files, "Remove…"))
	test.Tap(buttonIn(t, f.Win.Canvas().Overlays().Top(), "Remove"))
	if len(f.rows) != 2 || f.rows[1].Summary != "Remove att-9" {
		t.Fatalf("removing the file queued %+v", f.rows)
	}

	// A submitted invoice takes no files, and says why.
	f.setStatus(api.InvoiceSubmitted)
	if !inv.files.Add.Disabled() || !strings.Contains(listed(), "Files cannot be added or removed: ") {
		t.Errorf("a submitted invoice: Add disabled %v, the panel says:\n%s", inv.files.Add.Disabled(), listed())
	}
}

// submit presses Submit invoice and answers yes to the question it asks
// first, which must be there.
func (f *fake) submit() {
	f.t.Helper()
	test.Tap(f.tab.submit)
	top := f.Win.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(strings.Join(texts(top), "\n"), "Submit the invoice?") {
		f.t.Fatal("Submit invoice did not ask first")
	}
	test.Tap(buttonIn(f.t, top, "Submit invoice"))
}

// buttonIn finds a visible button by its text under o.
func buttonIn(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	found := viewtest.Button(o, text)
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}

func TestUnsavedInvoiceEditsSurviveOpeningAnotherWorkOrder(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	other := workOrder(func(w *api.WorkOrder) { w.WorkOrderId, w.WorkOrderNumber = 42, "WN42" })
	f.put(other, draft(other), priceList("USD"))
	inv := f.tab
	if inv.unsaved.Text != "" {
		t.Fatalf("a freshly opened invoice says %q", inv.unsaved.Text)
	}
	qty := inv.inv.LineItems[0].Quantity.Add(decimal.NewFromInt(3)).String()
	inv.rows[0].qty.SetText(qty)
	inv.number.SetText("INV-KEEP-1")
	total := inv.total.Text
	if !inv.unsaved.Visible() || inv.unsaved.Text != "Unsaved changes — Save to send them" {
		t.Fatalf("after an edit the note is visible=%v %q", inv.unsaved.Visible(), inv.unsaved.Text)
	}

	f.open(other)
	if inv.unsaved.Text != "" || inv.number.Text != "INV-41" {
		t.Errorf("the other work order shows the first one's unsaved note %q, number %q", inv.unsaved.Text, inv.number.Text)
	}
	f.open(wo)
	if got := inv.rows[0].qty.Text; got != qty {
		t.Errorf("back on the work order the quantity reads %q, want the unsaved %q", got, qty)
	}
	if inv.number.Text != "INV-KEEP-1" || inv.total.Text != total {
		t.Errorf("back on the work order: number %q, %q; want INV-KEEP-1, %q", inv.number.Text, inv.total.Text, total)
	}
	if inv.unsaved.Text == "" || inv.save.Disabled() {
		t.Errorf("the restored draft: note %q, Save disabled=%v", inv.unsaved.Text, inv.save.Disabled())
	}

	// Saving sends it; the note goes and nothing is kept aside any more.
	test.Tap(inv.save)
	f.send()
	if inv.unsaved.Text != "" || !inv.save.Disabled() {
		t.Errorf("after saving: note %q, Save disabled=%v", inv.unsaved.Text, inv.save.Disabled())
	}
	f.open(other)
	f.open(wo)
	if len(inv.drafts) != 0 {
		t.Errorf("%d drafts kept after saving", len(inv.drafts))
	}
	if got := inv.rows[0].qty.Text; got != qty || inv.unsaved.Text != "" {
		t.Errorf("after saving and coming back: quantity %q (want %q), note %q", got, qty, inv.unsaved.Text)
	}
}

func TestASubmittedInvoiceDropsTheDraftAndSaysWhereItStands(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	other := workOrder(func(w *api.WorkOrder) { w.WorkOrderId, w.WorkOrderNumber = 42, "WN42" })
	f.put(other, draft(other), priceList("USD"))
	inv := f.tab
	saved := inv.rows[0].qty.Text
	inv.rows[0].qty.SetText(inv.inv.LineItems[0].Quantity.Add(decimal.NewFromInt(5)).String())
	f.open(other)

	// Meanwhile the invoice as the service holds it is submitted (say from
	// another desk): the set-aside edits can no longer be sent.
	f.invoices[wo.WorkOrderId].Status = api.InvoiceSubmitted
	f.open(wo)
	if r := inv.rows[0]; r.qtyLbl == nil || r.qtyLbl.Text != saved || r.qty != nil || inv.unsaved.Visible() && inv.unsaved.Text != "" {
		t.Errorf("the submitted invoice shows quantity %v (want the service's %q as text), unsaved note %q", r.qtyLbl, saved, inv.unsaved.Text)
	}
	if len(inv.drafts) != 0 {
		t.Errorf("%d drafts kept for a submitted invoice", len(inv.drafts))
	}

	for _, step := range []struct {
		to    api.InvoiceStatus
		badge string
		line  string
	}{
		{api.InvoiceSubmitted, "Submitted", "Submitted — waiting for the customer"},
		{api.InvoiceAuthorized, "Authorized", "Authorized — nothing more to do"},
		{api.InvoicePaid, "Paid", "Paid — nothing more to do"},
	} {
		f.setStatus(step.to)
		if inv.badge.Text() != step.badge {
			t.Errorf("%s: the badge reads %q", step.badge, inv.badge.Text())
		}
		if !inv.settled.Visible() || !strings.HasPrefix(inv.settled.Text, step.line) || inv.settled.Importance == widget.DangerImportance {
			t.Errorf("%s: the tab says %q (visible=%v)", step.badge, inv.settled.Text, inv.settled.Visible())
		}
		if red := redTexts(inv); len(red) > 0 {
			t.Errorf("%s: the tab shows in red %q", step.badge, red)
		}
		if !inv.submit.Disabled() || !inv.save.Disabled() || !inv.del.Disabled() {
			t.Errorf("%s: submit, save, delete disabled = %v %v %v", step.badge, inv.submit.Disabled(), inv.save.Disabled(), inv.del.Disabled())
		}
	}
}

func TestADisputedInvoiceStillListsWhatBlocksSubmission(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo, func(i *api.Invoice) { i.Status = api.InvoiceDisputed; i.Comment = "Missing sign-off sheet" }), priceList("USD"))
	inv := f.tab
	inv.number.SetText("")
	if inv.settled.Visible() || !inv.problems.Visible() || !strings.Contains(inv.problems.Text, "enter the invoice number") {
		t.Errorf("a disputed invoice without a number: settled visible=%v, checklist %q", inv.settled.Visible(), inv.problems.Text)
	}
	if !strings.Contains(inv.details.Text, "The customer disputes it: Missing sign-off sheet") {
		t.Errorf("the dispute reads %q", inv.details.Text)
	}
}

func TestTheInvoiceTabFitsANarrowPane(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	// A long description and a total over the NTE, so every control shows.
	inv.rows[0].desc.SetText("Replace the condenser fan motor on rooftop unit 3, including the capacitor and the contactor, haul away old parts")
	inv.rows[0].qty.SetText(wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(3)).Div(inv.inv.LineItems[0].Rate.Amount.Add(decimal.NewFromInt(1))).Ceil().String())
	inv.discount.SetText("1.00")
	if !inv.requestNte.Visible() {
		t.Fatal("the NTE increase button is hidden over the NTE")
	}

	const width = 480
	if w := inv.Content().MinSize().Width; w > width {
		t.Errorf("the tab needs %.0f px, wider than a %d px pane", w, width)
	}
	inv.Content().Resize(fyne.NewSize(width, 700))
	check := func(name string, o fyne.CanvasObject) {
		t.Helper()
		p, ok := positionIn(inv.Content(), o)
		if !ok {
			t.Errorf("%s is not shown", name)
			return
		}
		if p.X < 0 || p.X+o.Size().Width > width+0.5 || o.Size().Width+0.5 < o.MinSize().Width {
			t.Errorf("%s spans x %.0f–%.0f (min width %.0f) in a %d px pane", name, p.X, p.X+o.Size().Width, o.MinSize().Width, width)
		}
	}
	check("Save", inv.save)
	check("Submit", inv.submit)
	check("Delete", inv.del)
	check("Discount", inv.discount)
	check("Add item", inv.addItem)
	check("Add tax line", inv.addTax)
	check("Request NTE increase", inv.requestNte)
	check("the NTE gauge", inv.gauge)
	for i, r := range inv.rows {
		check(fmt.Sprintf("line %d remove button", i+1), r.remove)
		check(fmt.Sprintf("line %d quantity", i+1), r.qty)
		check(fmt.Sprintf("line %d rate", i+1), r.rate)
		check(fmt.Sprintf("line %d description", i+1), r.desc)
	}
	if inv.rows[0].desc.Size().Width < 60 {
		t.Errorf("the description gets only %.0f px", inv.rows[0].desc.Size().Width)
	}

	// Before the price list arrives its picker says so in few words.
	inv.pl = nil
	inv.renderAdders()
	if w := inv.Content().MinSize().Width; w > width {
		t.Errorf("without a price list the tab needs %.0f px", w)
	}
}

// TestAQuantityTooLargeToWriteOutIsRefusedAsItIsTyped types 1e10000000,
// eleven characters worth ten million digits, as a line's quantity, key by
// key as a person does: it is refused on the spot with the limit in
// words, and the line keeps its quantity (taken, its subtotal was written
// out in full on the main goroutine: seconds per keystroke).
func TestAQuantityTooLargeToWriteOutIsRefusedAsItIsTyped(t *testing.T) {
	const huge = "1e10000000"
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	qty, subtotal := inv.inv.LineItems[0].Quantity, inv.rows[0].subtotal.Text
	inv.rows[0].qty.SetText("")
	test.Type(inv.rows[0].qty, huge)
	if !strings.Contains(inv.inputErr.Text, "Line 1: the quantity is too large: at most 28 digits") {
		t.Errorf("typing %s as an invoice quantity says %q", huge, inv.inputErr.Text)
	}
	// It keeps the last quantity that could be read ("1e10" on the way).
	if got := inv.inv.LineItems[0].Quantity; api.CheckDigits(got) != nil {
		t.Errorf("the invoice line took a quantity of %d digits", len(got.String()))
	}
	if err := inv.rows[0].qty.Validate(); err == nil {
		t.Error("the quantity entry does not mark the number as wrong")
	}
	inv.rows[0].qty.SetText(qty.String())
	if inv.inputErr.Text != "" || inv.rows[0].subtotal.Text != subtotal {
		t.Errorf("after fixing the quantity: %q, subtotal %q (was %q)", inv.inputErr.Text, inv.rows[0].subtotal.Text, subtotal)
	}
}

// TestTheWheelScrollsTheInvoiceOverItsFields: on a long invoice, the mouse
// wheel turned over any field (the number, the date, a line's description,
// quantity and rate) scrolls the form, as it does over the gaps between
// them. Fyne's entries kept the wheel to themselves.
func TestTheWheelScrollsTheInvoiceOverItsFields(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	f.Win.Resize(fyne.NewSize(520, 600))
	inv := f.tab
	for len(inv.rows) < 8 {
		addPriceItem(t, inv, 0)
	}
	f.settle()
	if inv.scroll.Content.MinSize().Height <= inv.scroll.Size().Height {
		t.Fatalf("the invoice (%.0f px) fits its %.0f px pane: nothing to scroll", inv.scroll.Content.MinSize().Height, inv.scroll.Size().Height)
	}
	c := f.Win.Canvas()
	drv := fyne.CurrentApp().Driver()
	for _, fl := range []struct {
		what string
		o    fyne.CanvasObject
	}{
		{"the invoice number", inv.number},
		{"the invoice date", inv.date},
		{"a line's description", inv.rows[0].desc},
		{"a line's quantity", inv.rows[0].qty},
		{"a line's rate", inv.rows[0].rate},
	} {
		inv.scroll.ScrollToTop()
		pos := drv.AbsolutePositionForObject(fl.o).Add(fyne.NewPos(fl.o.Size().Width/2, fl.o.Size().Height/2))
		if top := drv.AbsolutePositionForObject(inv.scroll); pos.Y < top.Y || pos.Y > top.Y+inv.scroll.Size().Height {
			t.Fatalf("%s is not on screen at the top of the invoice", fl.what)
		}
		test.Scroll(c, pos, 0, -60) // one wheel step down
		if inv.scroll.Offset.Y <= 0 {
			t.Errorf("the wheel over %s did not scroll the invoice", fl.what)
		}
	}
}

// The invoice's fields offer examples the form takes: a number, a
// discount in the currency's own minor units. The date, empty, reads
// empty: an example day there looked like a day filled in (issue 38, A07).
func TestPlaceholdersAreExamplesTheInvoiceTakes(t *testing.T) {
	wo := workOrder(func(w *api.WorkOrder) { w.Status = api.StatusCheckedIn })
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	if ex, ok := strings.CutPrefix(inv.number.PlaceHolder, "e.g. "); !ok || strings.TrimSpace(ex) == "" {
		t.Errorf("the invoice number's placeholder reads %q", inv.number.PlaceHolder)
	}
	if ph := inv.date.PlaceHolder; !strings.HasPrefix(ph, "Not set") || strings.ContainsAny(ph, "0123456789") {
		t.Errorf("the empty invoice date reads %q", ph)
	}
	if _, err := format.ParseRate(inv.discount.PlaceHolder, wo.Currency); err != nil {
		t.Errorf("the discount's placeholder %q is refused: %v", inv.discount.PlaceHolder, err)
	}
}

// Zero-decimal currencies (JPY) show and ask for amounts without decimals.
func TestInvoiceAmountsFollowTheCurrencysMinorUnits(t *testing.T) {
	wo := workOrder(func(w *api.WorkOrder) { w.Currency, w.Nte.Amount = "JPY", api.MustMoney("105000", "JPY") })
	f := newFake(t, wo, draft(wo), priceList("JPY"))
	usd := workOrder(func(w *api.WorkOrder) { w.WorkOrderId, w.WorkOrderNumber = 42, "WN42" })
	f.put(usd, draft(usd), priceList("USD"))
	inv := f.tab
	if inv.discount.PlaceHolder != "0" {
		t.Errorf("a JPY discount's placeholder reads %q, want 0", inv.discount.PlaceHolder)
	}
	row := addPriceItem(t, inv, 0)
	row.rate.SetText("abc")
	if !strings.Contains(inv.inputErr.Text, "e.g. 85") || strings.Contains(inv.inputErr.Text, "85.00") {
		t.Errorf("a bad JPY rate says %q", inv.inputErr.Text)
	}
	inv.discount.SetText("1.5")
	if !strings.Contains(inv.inputErr.Text, "JPY amounts have no decimals") {
		t.Errorf("a JPY discount with decimals says %q", inv.inputErr.Text)
	}
	// And on a USD work order the placeholder has its two decimals.
	f.open(usd)
	if inv.discount.PlaceHolder != "0.00" {
		t.Errorf("a USD discount's placeholder reads %q", inv.discount.PlaceHolder)
	}
}

// A submitted invoice is read, not edited: number, date, lines and totals
// are plain text, with no faint disabled entries.
func TestASubmittedInvoiceReadsAsText(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	inv.number.SetText("INV-READ-7")
	day := fixedNow
	inv.date.SetDate(&day)
	test.Tap(inv.save)
	f.send()
	f.submit()
	f.send()
	if inv.badge.Text() != "Submitted" {
		t.Fatalf("the badge reads %q", inv.badge.Text())
	}
	f.settle()

	stored := f.invoices[wo.WorkOrderId]
	var labels []string
	viewtest.Walk(inv.body, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Entry:
			t.Errorf("a submitted invoice shows an entry reading %q (disabled=%v)", w.Text, w.Disabled())
		case *xwidget.WheelEntry:
			t.Errorf("a submitted invoice shows an entry reading %q (disabled=%v)", w.Text, w.Disabled())
		case *xwidget.DateEntry:
			t.Errorf("a submitted invoice shows a date entry reading %q (disabled=%v)", w.Text, w.Disabled())
		case *widget.Select:
			t.Errorf("a submitted invoice shows a picker %q", w.PlaceHolder)
		case *widget.Button:
			if w != inv.files.Add {
				t.Errorf("a submitted invoice shows the %q button", w.Text)
			}
		case *widget.Label:
			labels = append(labels, w.Text)
		}
	})
	shown := "\n" + strings.Join(labels, "\n") + "\n"
	want := []string{"INV-READ-7", format.Day(day), "Total " + format.Money(stored.TotalAmount.In(wo.Currency))}
	for _, l := range stored.LineItems {
		l.Rate = l.Rate.In(wo.Currency)
		want = append(want, "\n"+l.Description+"\n", "\n"+l.Quantity.String()+"\n", "\n"+format.Money(l.Rate)+"\n", "\n"+format.Money(l.ComputedSubtotal())+"\n")
	}
	for _, w := range want {
		if !strings.Contains(shown, w) {
			t.Errorf("the submitted invoice does not show %q as text; it shows:%s", strings.TrimSpace(w), shown)
		}
	}
	for _, l := range inv.rows {
		if l.descLbl.Importance == widget.LowImportance || l.qtyLbl.Importance == widget.LowImportance {
			t.Error("a submitted line is shown faint")
		}
	}
	if red := redTexts(inv); len(red) > 0 {
		t.Errorf("the submitted invoice shows in red %q", red)
	}
}

// A draft nobody has touched yet lists calmly what is still missing; it
// turns red only when Submit is pressed, and the service's own words show
// when the service refuses.
func TestAFreshDraftListsWhatIsMissingWithoutAlarm(t *testing.T) {
	const refusal = "Line 1: the category Material is not allowed for this trade."
	wo := workOrder()
	f := newFake(t, wo, nil, priceList("USD"))
	f.refuse["Submit invoice"] = refusal
	inv := f.tab

	list := inv.problems.Text
	if !inv.problems.Visible() || !strings.HasPrefix(list, "Before you can submit:") {
		t.Fatalf("a fresh draft's checklist reads %q", list)
	}
	for _, want := range []string{"add at least one line", "enter the invoice number", "pick the invoice date"} {
		if !strings.Contains(list, want) {
			t.Errorf("the checklist does not say %q:\n%s", want, list)
		}
	}
	if strings.Contains(list, "(30") || strings.Contains(strings.ToLower(list), "refuse") {
		t.Errorf("the checklist speaks of codes or refusals before anything was tried:\n%s", list)
	}
	if red := redTexts(inv); len(red) > 0 {
		t.Errorf("an untouched draft shows in red %q", red)
	}
	if inv.submit.Disabled() {
		t.Fatal("Submit cannot be pressed to find out what is missing")
	}

	test.Tap(inv.submit)
	if inv.problems.Importance != widget.DangerImportance || !strings.Contains(inv.problems.Text, "add at least one line") {
		t.Errorf("after pressing Submit the checklist is %q (importance %v), want it red", inv.problems.Text, inv.problems.Importance)
	}
	if f.Win.Canvas().Overlays().Top() != nil {
		t.Error("pressing Submit also opened a dialog")
	}
	if len(f.rows) != 0 {
		t.Fatalf("an incomplete invoice was queued: %+v", f.rows)
	}

	// Complete it: the red list goes; the service then refuses for its own
	// reason, and says so in its words.
	addPriceItem(t, inv, 0)
	inv.number.SetText("INV-FRESH-1")
	day := fixedNow
	inv.date.SetDate(&day)
	if inv.problems.Visible() {
		t.Fatalf("a complete draft still lists %q", inv.problems.Text)
	}
	f.submit()
	f.send()
	if !strings.Contains(inv.lastAction.Text, refusal) || inv.lastAction.Importance != widget.DangerImportance {
		t.Errorf("after the service refused, the tab says %q (importance %v), want its message in red", inv.lastAction.Text, inv.lastAction.Importance)
	}
}

// Saving must not move the buttons: the next click lands where the person
// aims. (The desktop scroll keeps its offset when the content above changes
// height, so a button's place in the content is its place on screen.)
func TestSavingKeepsTheInvoiceButtonsInPlace(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	at := func(o fyne.CanvasObject) fyne.Position {
		t.Helper()
		f.settle()
		p, ok := positionIn(inv.Content(), o)
		if !ok {
			t.Fatal("the button is not shown")
		}
		return p
	}
	for round := 1; round <= 2; round++ {
		inv.rows[0].qty.SetText(inv.inv.LineItems[0].Quantity.Add(inv.inv.LineItems[0].Quantity).String())
		save, submit := at(inv.save), at(inv.submit)
		test.Tap(inv.save)
		if got := at(inv.submit); got != submit {
			t.Errorf("save %d: after Save the Submit button moved from %v to %v", round, submit, got)
		}
		f.send()
		if got := at(inv.save); got != save {
			t.Errorf("save %d: once the save was sent the Save button moved from %v to %v", round, save, got)
		}
	}
}

// A work order received before invoicing existed (version 4.1) hides its
// invoice until the work is completed, and says so; nothing dropped on the
// tab meanwhile reaches the invoice shown before.
func TestAPre41InvoiceIsHiddenUntilTheWorkIsDone(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	old := workOrder(func(w *api.WorkOrder) {
		w.WorkOrderId, w.WorkOrderNumber, w.Status = 43, "WN43", api.StatusCheckedIn
		w.Created = api.Version41Date.AddDate(0, -1, 0)
	})
	f.open(old)
	inv := f.tab
	if !inv.hidden.Visible() || inv.body.Visible() || !strings.Contains(inv.hidden.Text, "WN43 was received before service version 4.1") {
		t.Fatalf("a pre-4.1 work order shows hidden=%v %q", inv.hidden.Visible(), inv.hidden.Text)
	}
	inv.AddFiles([]string{"/tmp/receipt.pdf"})
	if len(f.rows) != 0 || len(f.Errors) != 1 || !strings.Contains(f.Errors[0], "once the service shows it") {
		t.Errorf("a file dropped on a hidden invoice: queued %+v, told %q", f.rows, f.Errors)
	}
}

// A price list in another currency than the work order's is not offered:
// the tab says why, and adding from it anyway is refused in those words.
func TestAPriceListInAnotherCurrencyIsRefusedAndExplained(t *testing.T) {
	wo := workOrder()
	pl := priceList("USD")
	pl.Currency = "CAD"
	f := newFake(t, wo, draft(wo), pl)
	inv := f.tab
	if !inv.plNote.Visible() || !strings.Contains(inv.plNote.Text, "price list is in CAD, but this work order is billed in USD") {
		t.Fatalf("the invoice tab explains %q", inv.plNote.Text)
	}
	if len(inv.priceSel.Options) != 0 || !inv.addItem.Disabled() {
		t.Fatalf("a CAD price list is offered on a USD invoice: %d items, add enabled %v", len(inv.priceSel.Options), !inv.addItem.Disabled())
	}
	before := len(inv.inv.LineItems)
	inv.onAddItem()
	if len(f.Errors) != 1 || !strings.Contains(f.Errors[0], "price list is in CAD") || len(inv.inv.LineItems) != before {
		t.Fatalf("adding from it said %q and left %d lines (was %d)", f.Errors, len(inv.inv.LineItems), before)
	}
}

// TestAnInvoiceSubmittedWithUnsavedEditsReadsWhatWasSent: number, date and
// lines typed, not saved, and Submit: the save and the submission reach the
// service before the tab hears that they were queued (the app's sender is
// that quick with the demo). The submitted invoice then reads its number
// and date as sent, its lines as text; in the tryout it read "Invoice
// number —", "Invoice date —" and kept the line's entries and bin.
func TestAnInvoiceSubmittedWithUnsavedEditsReadsWhatWasSent(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo, func(inv *api.Invoice) { inv.InvoiceNumber, inv.InvoiceDate = "", nil }), priceList("USD"))
	f.sendInWrite = true
	inv := f.tab
	test.Type(inv.number, "INV-2026-0301")
	day := fixedNow
	inv.date.SetDate(&day)
	f.submit()
	if inv.badge.Text() != "Submitted" {
		t.Fatalf("the badge reads %q", inv.badge.Text())
	}
	if got := f.invoices[wo.WorkOrderId].InvoiceNumber; got != "INV-2026-0301" {
		t.Fatalf("the service holds invoice number %q", got)
	}
	if !inv.numberLbl.Visible() || inv.numberLbl.Text != "INV-2026-0301" {
		t.Errorf("the submitted invoice's number reads %q (shown %v)", inv.numberLbl.Text, inv.numberLbl.Visible())
	}
	if !inv.dateLbl.Visible() || inv.dateLbl.Text != format.Day(day) {
		t.Errorf("the submitted invoice's date reads %q (shown %v), want %q", inv.dateLbl.Text, inv.dateLbl.Visible(), format.Day(day))
	}
	viewtest.Walk(inv.body, func(o fyne.CanvasObject) {
		if e, ok := o.(*xwidget.WheelEntry); ok && e.Visible() {
			t.Errorf("a submitted line still shows an entry reading %q", e.Text)
		}
	})
}

// TestTheUnsavedNoteLeavesTheButtonsTheirHeight: on the narrow pane of a
// 1024x700 window, "Unsaved changes — Save to send them" beside Save and
// Submit wrapped to five lines and stretched both into tall blocks. It
// now takes the footer's width over them, and only while something is
// unsaved; the buttons keep their own height and their place.
func TestTheUnsavedNoteLeavesTheButtonsTheirHeight(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	f.Win.Resize(fyne.NewSize(310, 700)) // the tab's width at 1024x700
	inv := f.tab
	f.settle()
	if inv.unsaved.Visible() {
		t.Errorf("a freshly opened invoice shows the unsaved note %q", inv.unsaved.Text)
	}
	at, _ := positionIn(inv.Content(), inv.submit)
	inv.rows[0].qty.SetText(inv.inv.LineItems[0].Quantity.Add(decimal.NewFromInt(1)).String())
	f.settle()
	if !inv.unsaved.Visible() || inv.unsaved.Text == "" {
		t.Fatal("an edit does not say it is unsaved")
	}
	for _, b := range []*widget.Button{inv.save, inv.submit} {
		if got, want := b.Size().Height, b.MinSize().Height; got > want+1 {
			t.Errorf("%q is %.0f px tall beside the unsaved note; it needs %.0f", b.Text, got, want)
		}
	}
	line := fyne.MeasureText("M", inv.unsaved.Theme().Size("text"), fyne.TextStyle{}).Height
	if h := inv.unsaved.Size().Height; h > 3*line+2*inv.unsaved.Theme().Size("innerPadding") {
		t.Errorf("the unsaved note takes %.0f px (%.1f lines)", h, h/line)
	}
	if got, _ := positionIn(inv.Content(), inv.submit); got != at {
		t.Errorf("Submit moved from %v to %v as the note appeared", at, got)
	}
}

// At the narrowest the detail pane gets, the invoice date is drawn whole,
// empty (its "Not set" hint) or filled, each label then above its field:
// beside its label the date was cut ("Wed 21 Oct 202", "Not set: type or
// p") on a 1024-pixel laptop.
func TestTheInvoiceDateIsWholeOnANarrowPane(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo, func(inv *api.Invoice) { inv.InvoiceDate = nil }), priceList("USD"))
	inv := f.tab
	wed := time.Date(2026, 9, 30, 0, 0, 0, 0, time.Local) // the widest day
	for _, day := range []*time.Time{nil, &wed} {
		inv.date.SetDate(day)
		for _, width := range []float32{arrange.TabWidth, 520} {
			f.Win.Resize(fyne.NewSize(width, 800))
			d := inv.date
			if d.Size().Width < d.MinSize().Width {
				t.Errorf("%.0f px wide, date %q (hint %q): the field has %.0f px of the %.0f it needs", width, d.Text, d.PlaceHolder, d.Size().Width, d.MinSize().Width)
			}
			if c := inv.Content().MinSize().Width; c > arrange.TabWidth {
				t.Errorf("the tab needs %.0f px, more than the pane's %d", c, arrange.TabWidth)
			}
		}
	}
}
