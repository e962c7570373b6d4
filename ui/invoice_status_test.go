package ui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// openSubmittableInvoice opens, on the Invoice tab, a checked-out work
// order whose draft invoice is complete and within the NTE.
func openSubmittableInvoice(h *harness) *invoiceTab {
	h.t.Helper()
	return openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		if !wo.Status.Completed() || inv.Status != api.InvoiceDraft || len(inv.LineItems) == 0 {
			return false
		}
		level, _ := api.NteStanding(inv.TotalAmount.In(wo.Currency), wo.Nte.Amount.In(wo.Currency))
		return level != api.NteOver
	})
}

// summaryText is everything the Summary tab shows.
func summaryText(h *harness) string {
	return strings.Join(texts(tabOf[*summaryTab](h).box), "\n")
}

// The work order stays Checked out at the service while the customer moves
// the invoice along; the Summary's next step and the header follow the
// invoice, and the header still fits the detail pane.
func TestTheHeaderAndSummaryFollowTheInvoice(t *testing.T) {
	h := newHarness(t)
	inv := openSubmittableInvoice(h)
	id := h.desk.detail.wo.WorkOrderId
	header := h.desk.detail.invoice
	if header.text.Text != "" {
		t.Errorf("a draft invoice shows %q in the header", header.text.Text)
	}
	if s := summaryText(h); !strings.Contains(s, "; submit the invoice") {
		t.Errorf("before submitting, the summary says:\n%s", s)
	}

	fits := func(when string) {
		t.Helper()
		h.settle()
		if need, have := h.desk.detail.container.MinSize().Width, h.desk.detail.scroller.Size().Width; need > have {
			t.Errorf("%s: the detail pane needs %.0f px of its %.0f px", when, need, have)
		}
	}
	step := func(badge, says string) {
		t.Helper()
		h.waitFor(badge, func() bool { return header.text.Text == badge })
		if got := h.desk.detail.status.text.Text; got != "Checked out" && got != "Verified" {
			t.Errorf("%s: the work order's own badge reads %q", badge, got)
		}
		s := summaryText(h)
		if !strings.Contains(s, says) {
			t.Errorf("%s: the summary does not say %q:\n%s", badge, says, s)
		}
		if strings.Contains(s, "submit the invoice") {
			t.Errorf("%s: the summary still asks to submit the invoice:\n%s", badge, s)
		}
		fits(badge)
	}

	test.Tap(inv.submit)
	h.send()
	step("Invoice submitted", "Invoice submitted — waiting for the customer")

	if err := h.sb.SetInvoiceStatus(id, api.InvoiceDisputed, "Missing sign-off sheet"); err != nil {
		t.Fatal(err)
	}
	step("Invoice disputed", "Invoice disputed: fix and resubmit. The customer says: Missing sign-off sheet")

	// A disputed invoice may be fixed and sent again.
	test.Tap(inv.submit)
	h.send()
	step("Invoice submitted", "Invoice submitted — waiting for the customer")

	if err := h.sb.SetInvoiceStatus(id, api.InvoiceAuthorized, ""); err != nil {
		t.Fatal(err)
	}
	step("Invoice authorized", "Invoice authorized")
	if err := h.sb.SetInvoiceStatus(id, api.InvoicePaid, ""); err != nil {
		t.Fatal(err)
	}
	step("Invoice paid", "Invoice paid")
}

// A submitted invoice is read, not edited: number, date, lines and totals
// are plain text, with no faint disabled entries.
func TestASubmittedInvoiceReadsAsText(t *testing.T) {
	h := newHarness(t)
	inv := openSubmittableInvoice(h)
	id := h.desk.detail.wo.WorkOrderId
	inv.number.SetText("INV-READ-7")
	day := fixedNow
	inv.date.SetDate(&day)
	test.Tap(inv.save)
	h.send()
	test.Tap(inv.submit)
	h.send()
	h.waitFor("the submitted invoice", func() bool { return inv.badge.text.Text == "Submitted" })
	h.selectTab("Invoice")
	h.settle()

	stored, err := h.store.Invoice(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	walk(inv.body, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Entry:
			t.Errorf("a submitted invoice shows an entry reading %q (disabled=%v)", w.Text, w.Disabled())
		case *wheelEntry:
			t.Errorf("a submitted invoice shows an entry reading %q (disabled=%v)", w.Text, w.Disabled())
		case *dateEntry:
			t.Errorf("a submitted invoice shows a date entry reading %q (disabled=%v)", w.Text, w.Disabled())
		case *widget.Select:
			t.Errorf("a submitted invoice shows a picker %q", w.PlaceHolder)
		case *widget.Button:
			if w != inv.files.add {
				t.Errorf("a submitted invoice shows the %q button", w.Text)
			}
		case *widget.Label:
			labels = append(labels, w.Text)
		}
	})
	shown := "\n" + strings.Join(labels, "\n") + "\n"
	want := []string{"INV-READ-7", dayText(day), "Total " + stored.TotalAmount.In(h.desk.detail.wo.Currency).Format()}
	for _, l := range stored.LineItems {
		l.Rate = l.Rate.In(h.desk.detail.wo.Currency)
		want = append(want, "\n"+l.Description+"\n", "\n"+l.Quantity.String()+"\n", "\n"+l.Rate.Format()+"\n", "\n"+l.ComputedSubtotal().Format()+"\n")
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
	inv.scroll.ScrollToBottom()
	h.capture("invoice-submitted-bottom")
}

// A draft nobody has touched yet lists calmly what is still missing; it
// turns red only when Submit is pressed, and the service's own words show
// when the service refuses.
func TestAFreshDraftListsWhatIsMissingWithoutAlarm(t *testing.T) {
	const refusal = "Line 1: the category Material is not allowed for this trade."
	h := newHarnessWith(t, harnessOptions{service: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/invoice/submit") {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				json.NewEncoder(w).Encode(map[string]any{"Code": 3052, "Message": refusal})
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return wo.Status.Completed() && inv.Status == api.InvoiceDraft
	})
	clearLines(t, inv)
	inv.number.SetText("")
	inv.date.SetDate(nil)
	inv.inv.InvoiceDate = nil
	inv.recompute()

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
	h.settle()
	inv.scroll.ScrollToBottom()
	h.capture("invoice-fresh-draft")
	if inv.submit.Disabled() {
		t.Fatal("Submit cannot be pressed to find out what is missing")
	}

	test.Tap(inv.submit)
	if inv.problems.Importance != widget.DangerImportance || !strings.Contains(inv.problems.Text, "add at least one line") {
		t.Errorf("after pressing Submit the checklist is %q (importance %v), want it red", inv.problems.Text, inv.problems.Importance)
	}
	if txt := h.overlayText(); txt != "" {
		t.Errorf("pressing Submit also opened a dialog: %q", txt)
	}
	h.settle()
	h.capture("invoice-fresh-draft-submit-pressed")
	if rows, _ := h.store.OutboxRows(context.Background(), h.desk.detail.wo.WorkOrderId); len(rows) != 0 {
		t.Fatalf("an incomplete invoice was queued: %+v", rows)
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
	test.Tap(inv.submit)
	if txt := h.overlayText(); strings.Contains(txt, "above the nte") {
		test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Yes"))
	}
	h.send()
	h.desk.changed([]int64{h.desk.detail.wo.WorkOrderId})
	if !strings.Contains(inv.lastAction.Text, refusal) || inv.lastAction.Importance != widget.DangerImportance {
		t.Errorf("after the service refused, the tab says %q (importance %v), want its message in red", inv.lastAction.Text, inv.lastAction.Importance)
	}
}

// Saving must not move the buttons: the next click lands where the person
// aims. (The desktop scroll keeps its offset when the content above changes
// height, so a button's place in the content is its place on screen.)
func TestSavingKeepsTheInvoiceButtonsInPlace(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return wo.Status.Completed() && inv.Status.Editable() && len(inv.LineItems) > 0 && inv.LineItems[0].Type != api.LineTax
	})
	at := func(o fyne.CanvasObject) fyne.Position {
		t.Helper()
		h.settle()
		p, ok := positionIn(inv.scroll.Content, o)
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
		h.send()
		if got := at(inv.save); got != save {
			t.Errorf("save %d: once the save was sent the Save button moved from %v to %v", round, save, got)
		}
	}
}

// Zero-decimal currencies (JPY) show and ask for amounts without decimals.
func TestInvoiceAmountsFollowTheCurrencysMinorUnits(t *testing.T) {
	h := newHarness(t)
	inv := openInvoice(h, func(wo *api.WorkOrder, inv *api.Invoice, _ *api.PriceList) bool {
		return wo.Currency == "JPY" && inv.Status.Editable()
	})
	if inv.discount.PlaceHolder != "0" {
		t.Errorf("a JPY discount's placeholder reads %q, want 0", inv.discount.PlaceHolder)
	}
	row := addPriceItem(t, inv, 0)
	if !row.rate.Disabled() {
		row.rate.SetText("abc")
		if !strings.Contains(inv.inputErr.Text, "e.g. 85") || strings.Contains(inv.inputErr.Text, "85.00") {
			t.Errorf("a bad JPY rate says %q", inv.inputErr.Text)
		}
	}
	inv.discount.SetText("1.5")
	if !strings.Contains(inv.inputErr.Text, "JPY amounts have no decimals") {
		t.Errorf("a JPY discount with decimals says %q", inv.inputErr.Text)
	}

	// And back on a USD work order the placeholder has its two decimals.
	for _, r := range replicaRows(h) {
		if wo, err := h.store.WorkOrder(context.Background(), r.Id); err == nil && wo.Currency == "USD" && wo.InvoiceVisible() {
			h.open(r.Id)
			if inv.discount.PlaceHolder != "0.00" {
				t.Errorf("a USD discount's placeholder reads %q", inv.discount.PlaceHolder)
			}
			break
		}
	}
}
