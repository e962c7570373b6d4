package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// tabOf returns the detail view's tab of type T.
func tabOf[T tab](h *harness) T {
	h.t.Helper()
	for _, tb := range h.desk.detail.tabs {
		if x, ok := tb.(T); ok {
			return x
		}
	}
	h.t.Fatalf("no %T tab", *new(T))
	return *new(T)
}

// replicaRows is every work order of the replica, in the list's default
// order (read from storage, so the search does not depend on how the list
// pages its rows).
func replicaRows(h *harness) []storage.Row {
	h.t.Helper()
	rows, err := h.store.List(context.Background(), storage.ListQuery{})
	if err != nil {
		h.t.Fatal(err)
	}
	return rows
}

// openInvoice opens, on the Invoice tab, the first listed work order whose
// invoice and price list (asked of the sandbox directly, so that only the
// chosen one is opened in the window) satisfy ok.
func openInvoice(h *harness, ok func(wo *api.WorkOrder, inv *api.Invoice, pl *api.PriceList) bool) *invoiceTab {
	h.t.Helper()
	ctx := context.Background()
	client := h.eng.Client
	for _, r := range replicaRows(h) {
		wo, err := h.store.WorkOrder(ctx, r.Id)
		if err != nil || !wo.InvoiceVisible() || wo.Status == api.StatusRejected || wo.Status == api.StatusRecalled {
			continue
		}
		inv, err1 := client.GetInvoice(ctx, wo.WorkOrderId)
		pl, err2 := client.GetPriceList(ctx, wo.WorkOrderId)
		if err1 != nil || err2 != nil || len(pl.Items) == 0 || !ok(wo, inv, pl) {
			continue
		}
		h.open(r.Id)
		h.selectTab("Invoice")
		t := tabOf[*invoiceTab](h)
		if t.stored == nil || t.pl == nil {
			h.t.Fatalf("opening %s did not load its invoice and price list", wo.WorkOrderNumber)
		}
		return t
	}
	h.t.Fatal("no work order in the demo world fits")
	return nil
}

// clearLines removes every line with its delete button, as a person would.
func clearLines(t *testing.T, inv *invoiceTab) {
	t.Helper()
	for len(inv.rows) > 0 {
		test.Tap(inv.rows[0].remove)
	}
	if len(inv.inv.LineItems) != 0 {
		t.Fatalf("%d lines left after removing them all", len(inv.inv.LineItems))
	}
}

// addPriceItem picks item i of the price list and adds it.
func addPriceItem(t *testing.T, inv *invoiceTab, i int) *lineRow {
	t.Helper()
	inv.priceSel.SetSelectedIndex(i)
	test.Tap(inv.addItem)
	if len(inv.rows) == 0 {
		t.Fatal("adding a price list item added no line")
	}
	return inv.rows[len(inv.rows)-1]
}

func TestBuildingAnInvoiceFromThePriceListShowsTotalAndNteWarning(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return !wo.Nte.NoLimit() && inv.Status.Editable()
	})
	wo := h.desk.detail.wo
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
	if row.rate.Disabled() != first.IsRateReadOnly {
		t.Errorf("rate entry disabled=%v for an item whose rate is read-only=%v", row.rate.Disabled(), first.IsRateReadOnly)
	}
	// A fixed-rate item, when the customer has one, cannot be re-priced.
	for i, it := range inv.pl.Items {
		if it.IsRateReadOnly {
			fixed := addPriceItem(t, inv, i)
			if !fixed.rate.Disabled() {
				t.Errorf("the rate of %q is fixed by the price list but can be edited", it.Description)
			}
			break
		}
	}
	row = inv.rows[0] // adding a line rebuilt the rows

	// Quantity on the first line so the total lands at about 95% of the NTE.
	nte := wo.Nte.Amount.In(cur)
	others := decimal.Zero
	for _, l := range inv.inv.LineItems[1:] {
		others = others.Add(l.ComputedSubtotal().Amount)
	}
	target := nte.Amount.Mul(decimal.NewFromFloat(0.95)).Sub(others)
	if !target.IsPositive() {
		t.Fatalf("the fixed-rate line alone (%s) is above 95%% of the NTE %s; pick another work order", others, format.Money(nte))
	}
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
	h.send()
	stored, err := h.store.Invoice(context.Background(), wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if !stored.TotalAmount.Amount.Equal(want.Amount) || len(stored.LineItems) != len(inv.inv.LineItems) || stored.InvoiceNumber != "INV-TEST-1" {
		t.Fatalf("the service holds total %s with %d lines, number %q; want %s with %d lines",
			format.Money(stored.TotalAmount), len(stored.LineItems), stored.InvoiceNumber, format.Money(want), len(inv.inv.LineItems))
	}
	if !strings.Contains(inv.lastAction.Text, "Sent") {
		t.Errorf("after sending, the tab says %q", inv.lastAction.Text)
	}
}

func TestSubmitWaitsForCheckOutAndSaysSo(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return !wo.Status.Completed() && inv.Status.Editable()
	})
	if !inv.problems.Visible() || !strings.Contains(inv.problems.Text, "the service takes the invoice only once the work is done") || inv.problems.Importance == widget.DangerImportance {
		t.Fatalf("before check-out the checklist says %q (importance %v)", inv.problems.Text, inv.problems.Importance)
	}
	test.Tap(inv.submit)
	if inv.problems.Importance != widget.DangerImportance || !strings.Contains(inv.problems.Text, "the service takes the invoice only once the work is done") {
		t.Errorf("pressing Submit before check-out leaves the checklist %q (importance %v)", inv.problems.Text, inv.problems.Importance)
	}
	if rows, _ := h.store.OutboxRows(context.Background(), h.desk.detail.wo.WorkOrderId); len(rows) != 0 {
		t.Errorf("an invoice the service would refuse was queued: %+v", rows)
	}
}

func TestSubmittingACompleteInvoiceShowsItSubmitted(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		if !wo.Status.Completed() || inv.Status != api.InvoiceDraft || len(inv.LineItems) == 0 {
			return false
		}
		level, _ := api.NteStanding(inv.TotalAmount.In(wo.Currency), wo.Nte.Amount.In(wo.Currency))
		return level != api.NteOver
	})
	wo := h.desk.detail.wo
	if inv.submit.Disabled() {
		t.Fatalf("a complete draft cannot be submitted: %s", inv.problems.Text)
	}
	test.Tap(inv.submit)
	h.send()
	h.waitFor("the submitted invoice", func() bool { return inv.badge.Text() == "Submitted" })
	if !inv.editNote.Visible() || !strings.Contains(inv.editNote.Text, "does not allow changes") {
		t.Errorf("a submitted invoice explains %q", inv.editNote.Text)
	}
	if !inv.number.Disabled() || !inv.submit.Disabled() {
		t.Error("a submitted invoice can still be edited or submitted")
	}
	rows, _ := h.store.OutboxRows(context.Background(), wo.WorkOrderId)
	if len(rows) != 1 || rows[0].Kind != outbox.KindInvoiceSubmit || rows[0].State != storage.OutboxDone {
		t.Errorf("outbox after submitting: %+v", rows)
	}
}

func TestInvoiceAttachmentsAddOpenRemove(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, i *api.Invoice, _ *api.PriceList) bool { return i.Status.Editable() })
	path := filepath.Join(t.TempDir(), "parts-receipt.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4 receipt"), 0o600); err != nil {
		t.Fatal(err)
	}
	inv.files.AddFiles([]string{path}) // what choosing the file in the open dialog does
	h.send()
	listed := func() string { return strings.Join(texts(inv.files), "\n") }
	if !strings.Contains(listed(), "parts-receipt.pdf") {
		t.Fatalf("after sending, the invoice lists:\n%s", listed())
	}
	// Open… shows the file's dialog with a fresh temporary link, as for a
	// step's file (files.Panel's link dialog).
	test.Tap(buttonIn(t, inv.files, "Open…"))
	h.flush()
	if says := h.overlayText(); !strings.Contains(says, "link valid for 15:00") {
		t.Fatalf("opening the file showed %q", says)
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Close"))
	test.Tap(buttonIn(t, inv.files, "Remove…"))
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Remove"))
	h.send()
	if strings.Contains(listed(), "parts-receipt.pdf") {
		t.Fatalf("after removing, the invoice still lists:\n%s", listed())
	}
}

// otherWorkOrder is a listed work order other than id, to click away to.
func otherWorkOrder(h *harness, id int64) int64 {
	h.t.Helper()
	return h.rowWhere(func(r storage.Row) bool { return r.Id != id }).Id
}

func TestUnsavedInvoiceEditsSurviveOpeningAnotherWorkOrder(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, i *api.Invoice, _ *api.PriceList) bool {
		return i.Status.Editable() && len(i.LineItems) > 0 && i.LineItems[0].Type != api.LineTax
	})
	id := h.desk.detail.wo.WorkOrderId
	other := otherWorkOrder(h, id)
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

	h.open(other)
	if h.desk.detail.wo.WorkOrderId != other {
		t.Fatal("the other work order did not open")
	}
	if inv.unsaved.Text != "" {
		t.Errorf("the other work order shows the first one's unsaved note %q", inv.unsaved.Text)
	}
	h.open(id)
	h.selectTab("Invoice")
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
	h.send()
	if inv.unsaved.Text != "" || !inv.save.Disabled() {
		t.Errorf("after saving: note %q, Save disabled=%v", inv.unsaved.Text, inv.save.Disabled())
	}
	h.open(other)
	h.open(id)
	if len(inv.drafts) != 0 {
		t.Errorf("%d drafts kept after saving", len(inv.drafts))
	}
	if got := inv.rows[0].qty.Text; got != qty || inv.unsaved.Text != "" {
		t.Errorf("after saving and coming back: quantity %q (want %q), note %q", got, qty, inv.unsaved.Text)
	}
}

// redTexts is the visible danger-coloured text of the tab.
func redTexts(inv *invoiceTab) []string {
	var out []string
	walk(inv.body, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Importance == widget.DangerImportance && strings.TrimSpace(l.Text) != "" {
			out = append(out, l.Text)
		}
	})
	return out
}

func TestASubmittedInvoiceDropsTheDraftAndSaysWhereItStands(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		if !wo.Status.Completed() || inv.Status != api.InvoiceDraft || len(inv.LineItems) == 0 || inv.LineItems[0].Type == api.LineTax {
			return false
		}
		level, _ := api.NteStanding(inv.TotalAmount.In(wo.Currency), wo.Nte.Amount.In(wo.Currency))
		return level != api.NteOver
	})
	id := h.desk.detail.wo.WorkOrderId
	other := otherWorkOrder(h, id)
	saved := inv.rows[0].qty.Text
	inv.rows[0].qty.SetText(inv.inv.LineItems[0].Quantity.Add(decimal.NewFromInt(5)).String())
	h.open(other)

	// Meanwhile the invoice as the service holds it is submitted (say from
	// another desk): the set-aside edits can no longer be sent.
	if _, err := h.store.SubmitInvoice(context.Background(), id, false); err != nil {
		t.Fatal(err)
	}
	h.send()
	h.waitFor("the submitted invoice in the replica", func() bool {
		st, err := h.store.Invoice(context.Background(), id)
		return err == nil && st.Status == api.InvoiceSubmitted
	})
	h.open(id)
	h.selectTab("Invoice")
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
		{"", "Submitted", "Submitted — waiting for the customer"},
		{api.InvoiceAuthorized, "Authorized", "Authorized — nothing more to do"},
		{api.InvoicePaid, "Paid", "Paid — nothing more to do"},
	} {
		if step.to != "" {
			if err := h.sb.SetInvoiceStatus(id, step.to, ""); err != nil {
				t.Fatal(err)
			}
		}
		h.waitFor(step.badge, func() bool { return inv.badge.Text() == step.badge })
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
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return wo.Status.Completed() && inv.Status.Editable() && len(inv.LineItems) > 0
	})
	inv.number.SetText("")
	if inv.settled.Visible() || !inv.problems.Visible() || !strings.Contains(inv.problems.Text, "enter the invoice number") {
		t.Errorf("a draft without a number: settled visible=%v, checklist %q", inv.settled.Visible(), inv.problems.Text)
	}
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

func TestTheInvoiceTabFitsANarrowPane(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, i *api.Invoice, pl *api.PriceList) bool {
		ok, _ := quoteAllowed(wo)
		return ok && !wo.Nte.NoLimit() && i.Status.Editable() && len(i.LineItems) > 0
	})
	// A long description and a total over the NTE, so every control shows.
	inv.rows[0].desc.SetText("Replace the condenser fan motor on rooftop unit 3, including the capacitor and the contactor, haul away old parts")
	inv.rows[0].qty.SetText(h.desk.detail.wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(3)).Div(inv.inv.LineItems[0].Rate.Amount.Add(decimal.NewFromInt(1))).Ceil().String())
	inv.discount.SetText("1.00")
	if !inv.requestNte.Visible() {
		t.Fatal("the NTE increase button is hidden over the NTE")
	}

	const width = 480
	if w := inv.scroll.Content.MinSize().Width; w > width {
		t.Errorf("the tab needs %.0f px, wider than a %d px pane", w, width)
	}
	inv.scroll.Resize(fyne.NewSize(width, 700))
	check := func(name string, o fyne.CanvasObject) {
		t.Helper()
		p, ok := positionIn(inv.scroll, o)
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
	if w := inv.scroll.Content.MinSize().Width; w > width {
		t.Errorf("without a price list the tab needs %.0f px", w)
	}
}
