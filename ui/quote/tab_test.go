package quote

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// lineRemove is the remove button of quote line i.
func lineRemove(t *testing.T, q *Tab, i int) *widget.Button {
	t.Helper()
	var found []*widget.Button
	viewtest.Walk(q.linesBox.Objects[i], func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok {
			found = append(found, b)
		}
	})
	if len(found) != 1 {
		t.Fatalf("quote line %d has %d buttons, want its remove button", i+1, len(found))
	}
	return found[0]
}

// TestATypedQuoteIsCheckedThenQueued: an amount that is not a number, not
// above the NTE, in cents the currency does not have, or without a
// reason is refused in plain words, queues nothing and keeps what was
// typed; a good one is queued (replacing a refused one being corrected),
// the window says so, and the form is empty again.
func TestATypedQuoteIsCheckedThenQueued(t *testing.T) {
	f := newFake(t)
	f.show()
	q := f.tab
	for _, c := range []struct{ name, amount, reason, want string }{
		{"not a number", "lots", "Compressor must be replaced", "enter the quote amount as a number, e.g. 1200.00"},
		{"nothing typed", "", "Compressor must be replaced", "enter the quote amount as a number"},
		{"not above the NTE", "1000.00", "Compressor must be replaced", "the quote must exceed the current NTE of " + format.Money(f.wo.Nte.Amount)},
		{"cents the dollar lacks", "1500.555", "Compressor must be replaced", "USD amounts have at most 2 decimals"},
		{"no reason", "1500.00", "  ", "a reason is required"},
	} {
		q.amount.SetText(c.amount)
		q.reason.SetText(c.reason)
		test.Tap(q.submit)
		if got := f.LastError(); !strings.Contains(got, c.want) {
			t.Errorf("%s: Submit quote says %q; want %q", c.name, got, c.want)
		}
		if len(f.quotes) != 0 || len(f.Said) != 0 {
			t.Fatalf("%s: a quote was queued: %+v", c.name, f.quotes)
		}
		if q.amount.Text != c.amount || q.reason.Text != c.reason {
			t.Errorf("%s: the form lost what was typed: %q, %q", c.name, q.amount.Text, q.reason.Text)
		}
	}
	errs := len(f.Errors)
	q.amount.SetText("1,500.00")
	q.reason.SetText(" Compressor must be replaced ")
	test.Tap(q.submit)
	want := api.MustMoney("1500.00", "USD")
	if len(f.Errors) != errs || len(f.quotes) != 1 || !f.quotes[0].amount.Amount.Equal(want.Amount) || f.quotes[0].amount.Currency != "USD" || f.quotes[0].reason != "Compressor must be replaced" || f.Replaced != 1 {
		t.Fatalf("a good quote queued %+v (errors %q, %d correction contexts)", f.quotes, f.Errors[errs:], f.Replaced)
	}
	if got := []string{"Quote " + format.Money(want) + " for NWR7"}; !slices.Equal(f.Said, got) {
		t.Errorf("the window was told %q; want %q", f.Said, got)
	}
	if q.amount.Text != "" || q.reason.Text != "" {
		t.Errorf("after queueing the form still holds %q, %q", q.amount.Text, q.reason.Text)
	}
}

// TestQuoteLinesTotalIntoTheAmount: with lines from the price list the
// quote is their total, kept in step as quantities change and lines go;
// an unreadable quantity is named and stops the quote; lines below the
// NTE are refused; above it the quote queued is their total, whatever the
// hidden amount entry held, and the current quote lists them.
func TestQuoteLinesTotalIntoTheAmount(t *testing.T) {
	f := newFake(t)
	f.show()
	q := f.tab
	if q.amount.Disabled() || q.amountNote.Visible() {
		t.Fatal("without lines the amount must be typed")
	}
	money := func(d decimal.Decimal) string { return format.Money(api.Money{Amount: d, Currency: "USD"}) }
	rate := func(i int) decimal.Decimal { return f.priceLists[7].Items[i].Rate.Amount }
	shows := func(want decimal.Decimal) {
		t.Helper()
		if q.amount.Text != want.StringFixed(2) || !q.amount.Disabled() {
			t.Fatalf("the amount reads %q (disabled %v), want the lines' total %s, not typed", q.amount.Text, q.amount.Disabled(), want.StringFixed(2))
		}
		if !q.amountNote.Visible() || !strings.Contains(q.amountNote.Text, "total of the line items") {
			t.Fatalf("the amount does not say it is the lines' total: %q", q.amountNote.Text)
		}
		if !strings.Contains(q.total.Text, money(want)) {
			t.Fatalf("the lines total reads %q, want %s", q.total.Text, money(want))
		}
	}

	q.amount.SetText("999999.00") // typed before any line: the lines take over
	f.add(0, "2")
	shows(rate(0).Mul(decimal.NewFromInt(2)))
	f.add(1, "1")
	shows(rate(0).Mul(decimal.NewFromInt(2)).Add(rate(1)))

	// A changed quantity changes the line's subtotal and the amount.
	q.lineRows[0].qty.SetText("3")
	shows(rate(0).Mul(decimal.NewFromInt(3)).Add(rate(1)))
	if want := money(rate(0).Mul(decimal.NewFromInt(3))); q.lineRows[0].subtotal.Text != want {
		t.Errorf("line 1's subtotal reads %q, want %s", q.lineRows[0].subtotal.Text, want)
	}
	// An unreadable quantity is named; the line keeps its last good one.
	q.lineRows[0].qty.SetText("three")
	if !q.lineErr.Visible() || !strings.Contains(q.lineErr.Text, "Line 1") {
		t.Fatalf("an unreadable quantity shows %q", q.lineErr.Text)
	}
	shows(rate(0).Mul(decimal.NewFromInt(3)).Add(rate(1)))
	q.reason.SetText("More work than the NTE covers")
	test.Tap(q.submit)
	if !strings.Contains(f.LastError(), "fix the line items first") || len(f.quotes) != 0 {
		t.Fatalf("submitting with an unreadable quantity said %q and queued %+v", f.LastError(), f.quotes)
	}
	q.lineRows[0].qty.SetText("3")
	if q.lineErr.Visible() {
		t.Fatalf("a fixed quantity still shows %q", q.lineErr.Text)
	}

	// Removing a line takes it out of the amount.
	test.Tap(lineRemove(t, q, 1))
	shows(rate(0).Mul(decimal.NewFromInt(3)))
	test.Tap(lineRemove(t, q, 0))
	if q.amount.Disabled() || q.amountNote.Visible() || q.total.Text != "" {
		t.Fatalf("without lines the amount is disabled=%v, note %q, total %q", q.amount.Disabled(), q.amountNote.Text, q.total.Text)
	}

	// Lines below the NTE: the person is told to add to them.
	f.add(0, "1")
	test.Tap(q.submit)
	if !strings.Contains(f.LastError(), "which must exceed the current NTE") || len(f.quotes) != 0 {
		t.Fatalf("lines below the NTE said %q and queued %+v", f.LastError(), f.quotes)
	}
	// With lines the quote is their total, whatever the hidden amount entry holds.
	errs := len(f.Errors)
	above := f.wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(2)).Div(rate(0)).Ceil()
	q.lineRows[0].qty.SetText(above.String())
	total := rate(0).Mul(above)
	q.amount.SetText(total.Add(decimal.NewFromInt(1)).StringFixed(2))
	test.Tap(q.submit)
	if len(f.Errors) != errs || len(f.quotes) != 1 {
		t.Fatalf("a quote of its lines' total said %q and queued %+v", f.Errors[errs:], f.quotes)
	}
	got := f.quotes[0]
	if !got.amount.Amount.Equal(total) || len(got.lines) != 1 || got.lines[0].PriceListItemId != 11 || !got.lines[0].Quantity.Equal(above) {
		t.Fatalf("queued %s with lines %+v, want %s of its one line", format.Money(got.amount), got.lines, money(total))
	}
	if len(q.lines) != 0 || q.reason.Text != "" {
		t.Errorf("after queueing the form still holds %d lines and %q", len(q.lines), q.reason.Text)
	}
	// The submitted quote shows what it is made of.
	f.wo.Nte.Quote = &api.Quote{Amount: got.amount, Comment: got.reason, QuoteStatus: api.QuoteSubmitted, LineItems: got.lines}
	f.show()
	if line := "Compressor: " + above.String() + " × "; !strings.Contains(q.current.Text, line) || !strings.Contains(q.current.Text, money(total)) {
		t.Errorf("the current quote reads %q, want its line %q… and %s", q.current.Text, line, money(total))
	}
}

// TestQuantityIsOneAgainAfterAddLine: the quantity typed for one price
// list line is not left for the next one.
func TestQuantityIsOneAgainAfterAddLine(t *testing.T) {
	f := newFake(t)
	f.show()
	f.add(0, "6")
	if q := f.tab; len(q.lines) != 1 || !q.lines[0].Quantity.Equal(decimal.NewFromInt(6)) {
		t.Fatalf("the line added: %+v", q.lines)
	}
	if got := f.tab.qty.Text; got != "1" {
		t.Errorf("after Add line the quantity reads %q", got)
	}
}

// TestAPriceListInAnotherCurrencyIsRefusedAndExplained: a price list in
// dollars of Canada on a work order billed in US dollars is explained and
// offers nothing; Add line adds nothing. (The Invoice tab refuses it too:
// ui/invoice.)
func TestAPriceListInAnotherCurrencyIsRefusedAndExplained(t *testing.T) {
	f := newFake(t)
	pl := dollarList()
	pl.Currency = "CAD"
	for i := range pl.Items {
		pl.Items[i].Rate.Currency = "CAD"
	}
	f.priceLists[7] = pl
	f.show()
	q := f.tab
	if !q.plNote.Visible() || !strings.Contains(q.plNote.Text, "price list is in CAD, but this work order is billed in USD") {
		t.Fatalf("the quote tab explains %q", q.plNote.Text)
	}
	if len(q.priceSel.Options) != 0 || !q.addLine.Disabled() {
		t.Fatalf("a CAD price list is offered on a USD quote: %d items, add enabled %v", len(q.priceSel.Options), !q.addLine.Disabled())
	}
	test.Tap(q.addLine)
	if len(q.lines) != 0 || q.amount.Disabled() {
		t.Fatal("a line was added from a price list in another currency")
	}
}

// TestAQuoteQuantityTooLargeToWriteOutIsRefusedAsItIsTyped types
// 1e10000000, eleven characters worth ten million digits, as a quote
// line's quantity, key by key as a person does: it is refused on the spot
// with the limit in words, and the line keeps its quantity (taken, its
// amount was written out in full on the main goroutine: seconds per
// keystroke, the window frozen). The invoice's lines: ui/invoice.
func TestAQuoteQuantityTooLargeToWriteOutIsRefusedAsItIsTyped(t *testing.T) {
	const huge = "1e10000000"
	f := newFake(t)
	f.show()
	q := f.tab
	f.add(0, "2")
	q.lineRows[0].qty.SetText("")
	test.Type(q.lineRows[0].qty, huge)
	if !q.lineErr.Visible() || !strings.Contains(q.lineErr.Text, "the quantity is too large: at most 28 digits") {
		t.Errorf("typing %s as a quote quantity says %q", huge, q.lineErr.Text)
	}
	if got := q.lines[0].Quantity; api.CheckDigits(got) != nil || len(q.amount.Text) > 60 {
		t.Errorf("the quote line took a quantity of %d digits, its amount %d", len(got.String()), len(q.amount.Text))
	}

	// Adding a line with it is refused too, and adds nothing.
	f.add(0, huge)
	if len(q.lines) != 1 || !strings.Contains(f.LastError(), "too large") {
		t.Errorf("adding a line of %s: %d lines, the window says %q", huge, len(q.lines), f.LastError())
	}
}

// TestTheQuoteFormForgetsThePreviousWorkOrdersItem: a person picks an item
// and a quantity on a dollar work order, then opens a yen one. The yen
// order's price list shows no item picked and a quantity of 1, its amount
// placeholder has no decimals, and picking one of its own items adds a line.
func TestTheQuoteFormForgetsThePreviousWorkOrdersItem(t *testing.T) {
	f := newFake(t)
	f.show()
	q := f.tab
	if got, want := q.amount.PlaceHolder, "e.g. "+quoteExample(f.wo); got != want || !strings.HasSuffix(got, ".00") {
		t.Errorf("the dollar amount's placeholder reads %q, want %s with cents", got, want)
	}
	q.priceSel.SetSelectedIndex(1)
	q.qty.SetText("12")

	f.wo = &api.WorkOrder{WorkOrderId: 8, WorkOrderNumber: "SMJ8", Status: api.StatusAccepted, Currency: "JPY",
		Customer: api.Customer{Id: 4, Name: "Sakura Mart Japan"}, Nte: api.Nte{Amount: api.MustMoney("191000", "JPY")}}
	f.priceLists[8] = &api.PriceList{Currency: "JPY", Items: []api.PriceListItem{{Id: 21, Description: "Compressor", Rate: api.MustMoney("65000", "JPY")}}}
	f.show()
	if q.priceSel.Selected != "" || q.priceSel.SelectedIndex() >= 0 {
		t.Errorf("on the yen work order the price list still shows %q, picked on the previous work order", q.priceSel.Selected)
	}
	if strings.Contains(drawn(q.priceSel), "$") {
		t.Errorf("the yen work order's price list select draws %q", drawn(q.priceSel))
	}
	if q.qty.Text != "1" {
		t.Errorf("the quantity reads %q on the newly opened work order, want 1", q.qty.Text)
	}
	if got := q.amount.PlaceHolder; !strings.HasPrefix(got, "e.g. ") || strings.Contains(strings.TrimPrefix(got, "e.g. "), ".") {
		t.Errorf("the yen amount's placeholder reads %q: yen have no decimals", got)
	}
	q.priceSel.SetSelectedIndex(0)
	test.Tap(q.addLine)
	if len(f.Errors) != 0 {
		t.Fatalf("adding a line on the yen work order said %q", f.Errors)
	}
	if len(q.lines) != 1 || q.lines[0].Rate.Currency != "JPY" {
		t.Fatalf("after Add line the yen work order has lines %+v", q.lines)
	}
}

// TestTheQuoteAmountOfLinesReadsAsMoney: with lines, the Amount row shows
// their total formatted in the work order's currency, in the text colour,
// and no greyed-out "1710.00".
func TestTheQuoteAmountOfLinesReadsAsMoney(t *testing.T) {
	f := newFake(t)
	f.show()
	q := f.tab
	f.add(0, "12")
	total, err := q.linesTotal()
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Walk(f.page, func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.Text == format.Amount(total) {
			t.Errorf("the quote form shows the raw %q in an entry (disabled %v)", e.Text, e.Disabled())
		}
	})
	shown := drawn(q.amountNote)
	if !q.amountNote.Visible() || !strings.HasPrefix(shown, format.Money(total)+" — the total of the line items") {
		t.Errorf("the Amount row reads %q, want it to start with %q", shown, format.Money(total)+" — the total of the line items")
	}
	if q.amountNote.Importance == widget.LowImportance {
		t.Error("the total is drawn in the faint low-importance colour")
	}

	// Without lines the amount is typed again.
	test.Tap(lineRemove(t, q, 0))
	if !q.amount.Visible() || q.amount.Disabled() || q.amountNote.Visible() {
		t.Errorf("without lines the amount entry shows %v, disabled %v; the total note shows %v", q.amount.Visible(), q.amount.Disabled(), q.amountNote.Visible())
	}
}

// TestWhetherAQuoteMayBeAskedFor: the form is open while the rules allow a
// quote and says why not where they do not; amber only where the customer
// waits on us or refused; a rejected quote may be copied into a new one.
func TestWhetherAQuoteMayBeAskedFor(t *testing.T) {
	f := newFake(t)
	q := f.tab
	for _, c := range []struct {
		name    string
		quote   *api.Quote
		open    bool
		says    string
		amber   bool
		canCopy bool
	}{
		{"no quote", nil, true, "The NTE is " + format.Nte(f.wo.Nte.Amount) + ". If the work will cost more, submit a quote", false, false},
		{"requested", &api.Quote{QuoteStatus: api.QuoteRequested, Amount: api.Money{Currency: "USD"}}, true, "The customer asked for a quote and is waiting for your answer.", true, false},
		{"submitted", &api.Quote{QuoteStatus: api.QuoteSubmitted, Amount: api.MustMoney("1500.00", "USD")}, false, "waiting for the customer's decision", false, false},
		{"approved", &api.Quote{QuoteStatus: api.QuoteApproved, Amount: api.MustMoney("1500.00", "USD")}, false, "the customer must first reject the approved quote", false, false},
		{"rejected", &api.Quote{QuoteStatus: api.QuoteRejected, Amount: api.MustMoney("1500.00", "USD")}, true, "The customer rejected the last quote; you may submit a new one.", true, true},
	} {
		f.wo.Nte.Quote = c.quote
		f.show()
		if f.shows(q.submit) != c.open || !strings.Contains(q.explain.Text, c.says) {
			t.Errorf("%s: the form is open %v (want %v); the tab explains %q, want %q", c.name, f.shows(q.submit), c.open, q.explain.Text, c.says)
		}
		if amber := q.explain.Importance == widget.WarningImportance; amber != c.amber {
			t.Errorf("%s: the explanation is amber %v, want %v", c.name, amber, c.amber)
		}
		if f.shows(q.copyRejected) != c.canCopy {
			t.Errorf("%s: Copy into a new quote shown %v, want %v", c.name, f.shows(q.copyRejected), c.canCopy)
		}
		if ok, why := Allowed(f.wo); ok != c.open || !strings.Contains(why, c.says) {
			t.Errorf("%s: Allowed says %v, %q", c.name, ok, why)
		}
	}
	f.wo.Nte.Quote = nil
	f.wo.Nte.Amount = api.Money{Currency: "USD"}
	f.show()
	if got := q.explain.Text; !strings.HasPrefix(got, "NTE: no limit (the customer set no maximum).") {
		t.Errorf("without a limit the tab explains %q", got)
	}
}

// TestARejectedQuoteLabelsTheCustomersReasonAndOurs: once the customer
// rejects our quote, the tab shows their reason labelled as theirs (from
// their notification, else from the quote's comment when it is not ours)
// and ours labelled as ours; when they gave none it says so, and our
// reason is never shown as theirs.
func TestARejectedQuoteLabelsTheCustomersReasonAndOurs(t *testing.T) {
	const ours = "Emergency call-out after hours"
	for _, c := range []struct {
		name     string
		sentOurs bool
		told     *string // the customer's notification's remark; nil: none came
		comment  string  // the quote's Comment as the service lists it
		want     []string
	}{
		{"their reason, notified", true, ptr("Please itemise the parts"), "Please itemise the parts",
			[]string{"The customer's reason for rejecting it: Please itemise the parts.", "Our reason for the quote: Emergency call-out after hours."}},
		{"no reason, notified", true, ptr(""), ours,
			[]string{"The customer gave no reason for rejecting it.", "Our reason for the quote: Emergency call-out after hours."}},
		{"their reason in the comment", true, nil, "Too dear",
			[]string{"The customer's reason for rejecting it: Too dear.", "Our reason for the quote: Emergency call-out after hours."}},
		{"our reason still the comment", true, nil, ours,
			[]string{"The customer gave no reason for rejecting it.", "Our reason for the quote: Emergency call-out after hours."}},
		{"not our quote", false, nil, "Too dear", []string{"Comment on the quote: Too dear."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			amount := api.MustMoney("1500.00", "USD")
			if c.sentOurs {
				f.sentOurs(amount, ours)
			}
			rejected := api.Quote{Amount: amount, Comment: c.comment, QuoteStatus: api.QuoteRejected}
			if c.told != nil {
				f.customerSaid(api.Quote{Amount: amount, Comment: *c.told, QuoteStatus: api.QuoteRejected})
			}
			f.wo.Nte.Quote = &rejected
			f.show()
			shown := f.tab.current.Text
			if want := format.Money(amount) + "\n" + strings.Join(c.want, "\n"); shown != want {
				t.Errorf("the current quote reads %q; want %q", shown, want)
			}
			// Copied into a new quote, the reason is ours, never theirs.
			test.Tap(f.tab.copyRejected)
			wantReason := ""
			if c.sentOurs {
				wantReason = ours
			}
			if f.tab.amount.Text != "1500.00" || f.tab.reason.Text != wantReason {
				t.Errorf("the copy reads %q, %q; want 1500.00, %q", f.tab.amount.Text, f.tab.reason.Text, wantReason)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestARejectedQuoteCopiesItsLines: Copy into a new quote fills the form
// with the rejected quote's lines, whose total is the amount.
func TestARejectedQuoteCopiesItsLines(t *testing.T) {
	f := newFake(t)
	line := api.LineItem{Type: api.LinePriceList, Description: "Compressor", Quantity: decimal.NewFromInt(3), Rate: api.MustMoney("450.00", "USD"), PriceListItemId: 11, Id: 5}
	f.wo.Nte.Quote = &api.Quote{Amount: api.MustMoney("1350.00", "USD"), QuoteStatus: api.QuoteRejected, LineItems: []api.LineItem{line}}
	f.show()
	test.Tap(f.tab.copyRejected)
	q := f.tab
	if len(q.lines) != 1 || q.lines[0].Description != "Compressor" || q.lines[0].Id != 0 || q.amount.Text != "1350.00" || !q.amount.Disabled() {
		t.Fatalf("the copy holds lines %+v and the amount %q", q.lines, q.amount.Text)
	}
}

// TestQuotesRefusedCloseTheFormUntilTriedAgain: once the service refused a
// quote because the customer accepts none, the form at that customer is
// closed and says so, with the service's words and Try again; correcting
// the refused quote opens it; Try again forgets the refusal and opens it
// (the service judges the next one).
func TestQuotesRefusedCloseTheFormUntilTriedAgain(t *testing.T) {
	f := newFake(t)
	q := f.tab
	f.show()
	if !f.shows(q.submit) || f.shows(q.tryAgain) {
		t.Fatal("the quote form is closed before any refusal")
	}
	at := fixedNow.Add(-24 * time.Hour)
	f.refused[3] = &storage.QuotesRefusal{At: at, Message: "Quotes are not accepted for this customer."}
	f.show()
	want := fmt.Sprintf("Northwind Retail does not accept quotes: the service refused one on %s (“Quotes are not accepted for this customer”). "+
		"The quote form stays closed at this customer; if it has changed its mind, try again.", format.Day(at))
	if f.shows(q.submit) || !f.shows(q.tryAgain) || q.explain.Text != want || q.explain.Importance != widget.WarningImportance {
		t.Fatalf("after the refusal the form is open %v, Try again shown %v; the tab explains %q", f.shows(q.submit), f.shows(q.tryAgain), q.explain.Text)
	}
	f.correcting = true
	q.Gate(f.wo)
	if !f.shows(q.submit) {
		t.Error("correcting the refused quote, the form stays closed")
	}
	f.correcting = false
	q.Gate(f.wo)
	if f.shows(q.submit) {
		t.Error("once the correction stops, the form stays open")
	}
	test.Tap(q.tryAgain)
	if !slices.Equal(f.triedAgain, []int64{3}) || !f.shows(q.submit) || f.shows(q.tryAgain) || len(f.Errors) != 0 {
		t.Fatalf("Try again forgot the refusal of %v; the form is open %v; errors %q", f.triedAgain, f.shows(q.submit), f.Errors)
	}
}

// TestARefusedQuoteIsPutBackToCorrect: a refused quote's draft fills the
// form; the form holds nothing else then, and holds something else once
// the person changes it, or before, when they had typed another quote.
func TestARefusedQuoteIsPutBackToCorrect(t *testing.T) {
	f := newFake(t)
	f.show()
	q := f.tab
	typed := &outbox.Draft{Amount: api.MustMoney("1500.00", "USD"), Text: "Compressor must be replaced"}
	if q.HoldsOther(typed) {
		t.Fatal("an empty form holds another quote")
	}
	q.amount.SetText("1800.00")
	if !q.HoldsOther(typed) {
		t.Fatal("a typed amount of another quote is not seen")
	}
	q.EditDraft(typed)
	if q.amount.Text != "1500.00" || q.reason.Text != "Compressor must be replaced" || q.HoldsOther(typed) {
		t.Fatalf("Edit put back %q, %q (holds other %v)", q.amount.Text, q.reason.Text, q.HoldsOther(typed))
	}
	q.reason.SetText("Two compressors")
	if !q.HoldsOther(typed) {
		t.Error("a changed reason is not seen")
	}
	line := api.LineItem{Type: api.LinePriceList, Description: "Compressor", Quantity: decimal.NewFromInt(3), Rate: api.MustMoney("450.00", "USD"), PriceListItemId: 11}
	ofLines := &outbox.Draft{Amount: api.MustMoney("1350.00", "USD"), Text: "Three units", Lines: []api.LineItem{line}}
	q.EditDraft(ofLines)
	if len(q.lines) != 1 || q.amount.Text != "1350.00" || q.HoldsOther(ofLines) {
		t.Fatalf("Edit of a quote of lines put back %+v, %q", q.lines, q.amount.Text)
	}
	q.lineRows[0].qty.SetText("4")
	if !q.HoldsOther(ofLines) {
		t.Error("a changed quantity is not seen")
	}
}

// TestAnNteIncreaseFromADiscountedInvoiceAsksForTheLinesTotal: an
// invoice's discount cannot travel on a quote: the form filled from it
// asks for the lines' total and says why it is not the invoice total.
func TestAnNteIncreaseFromADiscountedInvoiceAsksForTheLinesTotal(t *testing.T) {
	f := newFake(t)
	f.show()
	q := f.tab
	line := api.LineItem{Type: api.LinePriceList, Description: "Compressor", Quantity: decimal.NewFromInt(5), Rate: api.MustMoney("450.00", "USD"), PriceListItemId: 11, Id: 9}
	invoiced := api.MustMoney("2240.00", "USD") // 2,250.00 less a discount of 10.00
	q.Prefill(invoiced, []api.LineItem{line}, "Invoice total exceeds the NTE")
	if q.amount.Text != "2250.00" || !q.amount.Disabled() || len(q.lines) != 1 || q.lines[0].Id != 0 {
		t.Fatalf("the quote amount reads %q (disabled %v), lines %+v; want the lines' total 2250.00", q.amount.Text, q.amount.Disabled(), q.lines)
	}
	if !strings.Contains(q.amountNote.Text, format.Money(invoiced)) || !strings.Contains(q.amountNote.Text, "discount") {
		t.Errorf("the quote does not explain the invoice's discount: %q", q.amountNote.Text)
	}
	if q.reason.Text != "Invoice total exceeds the NTE" {
		t.Errorf("the reason reads %q", q.reason.Text)
	}
}

func TestAmountExamplesFollowTheCurrency(t *testing.T) {
	for cur, want := range map[string]string{"USD": "1850.00", "EUR": "1850.00", "JPY": "185000", "KWD": "1850.000"} {
		if got := amountExample(cur); got != want {
			t.Errorf("amountExample(%s) = %q, want %q", cur, got, want)
		}
	}
	wo := &api.WorkOrder{Currency: "JPY", Nte: api.Nte{Amount: api.MustMoney("1000", "JPY")}}
	if _, err := parseQuote(wo, "lots", "x"); err == nil || !strings.Contains(err.Error(), "e.g. 1200") {
		t.Errorf("a yen amount that is not a number says %v", err)
	}
}

// TestTheQuoteExampleIsAboveTheNTE: the amount a quote's placeholder offers
// is one the form takes: a round figure above the NTE, in the currency's
// decimals.
func TestTheQuoteExampleIsAboveTheNTE(t *testing.T) {
	for _, c := range []struct{ nte, cur, want string }{
		{"2450", "USD", "3000.00"},
		{"191000", "JPY", "230000"},
		{"0", "EUR", "1850.00"},
		{"99", "GBP", "120.00"},
		{"5", "USD", "6.00"},
	} {
		wo := &api.WorkOrder{Currency: c.cur, Nte: api.Nte{Amount: api.MustMoney(c.nte, c.cur)}}
		if got := quoteExample(wo); got != c.want {
			t.Errorf("with an NTE of %s %s the example reads %q, want %q", c.nte, c.cur, got, c.want)
		}
	}
}
