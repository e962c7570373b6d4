package ui

import (
	"context"
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/activity"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// TestBulkRejectAsksWhyAndReportsEachWorkOrder ticks two New rows, rejects
// them together with a reason, and reads each work order's result, its new
// status in the list and the reason on its summary.
func TestBulkRejectAsksWhyAndReportsEachWorkOrder(t *testing.T) {
	h := newHarness(t)
	customers := map[string]bool{} // of different customers
	news := h.rowsWhere(2, func(r storage.Row) bool {
		if r.Status != api.StatusNew || customers[r.Customer] {
			return false
		}
		customers[r.Customer] = true
		return true
	})
	first, second := news[0], news[1]

	for _, r := range []storage.Row{first, second} {
		h.scrollIntoView(r.Id)
		h.tick(r.Number)
	}
	if h.listButton("Reject").Text != "Reject 2" {
		t.Fatalf("with two rows ticked the bulk reject button reads %q", h.listButton("Reject").Text)
	}
	test.Tap(h.listButton("Reject"))
	dlg := h.win.Canvas().Overlays().Top()
	if !strings.Contains(h.overlayText(), "rejecting these 2 work orders is final") {
		t.Fatalf("bulk reject shows %q", h.overlayText())
	}
	confirm := buttonIn(t, dlg, "Reject")
	if !confirm.Disabled() {
		t.Fatal("Reject is enabled before a reason is given")
	}
	const reason = "Our refrigeration team is fully booked this month"
	test.Type(dialogEntry(t, dlg), reason)
	test.Tap(confirm)
	h.send()
	h.flush()

	text := h.overlayText()
	for _, r := range []storage.Row{first, second} {
		if !strings.Contains(text, strings.ToLower(r.Number)+" — done") {
			t.Errorf("the bulk result does not say %s was rejected:\n%s", r.Number, text)
		}
	}
	h.dismissOverlays()

	for _, r := range []storage.Row{first, second} {
		h.scrollIntoView(r.Id)
		if got := screenRowOf(t, h.win, h.desk.list.Table(), r.Number).cells["Status"].text(); got != "Rejected" {
			t.Errorf("after rejecting, the list shows %s as %q", r.Number, got)
		}
	}
	for _, r := range []storage.Row{first, second} {
		h.open(r.Id)
		if summary := strings.Join(texts(h.desk.detail.tabs[0].Content()), "\n"); !strings.Contains(summary, reason) {
			t.Errorf("the summary of %s does not say why it was rejected", r.Number)
		}
	}
}

// dialogEntry is the first text entry in a dialog.
func dialogEntry(t *testing.T, dlg fyne.CanvasObject) *widget.Entry {
	t.Helper()
	var e *widget.Entry
	walk(dlg, func(o fyne.CanvasObject) {
		if x, ok := o.(*widget.Entry); ok && e == nil {
			e = x
		}
		if x, ok := o.(*dialogs.Entry); ok && e == nil {
			e = &x.Entry
		}
	})
	if e == nil {
		t.Fatal("the dialog has no entry")
	}
	return e
}

// activityItem is one entry of the Activity tab as drawn.
type activityItem struct {
	title, text    string         // the title as drawn: "time · what"
	retry, discard *widget.Button // nil when not shown
}

// what is the title without its time: "Ben Okafor accepted".
func (it activityItem) what() string {
	_, what, _ := strings.Cut(it.title, " · ")
	return what
}

// activityItems reads the Activity tab, newest first, as its list shows
// it on screen.
func (h *harness) activityItems() []activityItem {
	h.t.Helper()
	h.selectTab("Activity")
	var items []activityItem
	walk(tabOf[*activity.Tab](h).Content(), func(o fyne.CanvasObject) {
		if it, ok := activityItemOf(o); ok {
			items = append(items, it)
		}
	})
	return items
}

// activityLines is every line of the Activity tab, newest first, each
// drawn as its list draws it when scrolled to (activityItems reads only
// those on screen).
func (h *harness) activityLines() []activityItem {
	h.t.Helper()
	var list *widget.List
	walk(tabOf[*activity.Tab](h).Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.List); ok && list == nil {
			list = l
		}
	})
	if list == nil {
		h.t.Fatal("the Activity tab has no list")
	}
	var items []activityItem
	for i := range list.Length() {
		o := list.CreateItem()
		list.UpdateItem(i, o)
		if it, ok := activityItemOf(o); ok {
			items = append(items, it)
		}
	}
	return items
}

// activityItemOf reads o as a line of the Activity tab, if it is one.
func activityItemOf(o fyne.CanvasObject) (activityItem, bool) {
	box, ok := o.(*fyne.Container)
	if !ok || len(box.Objects) != 2 {
		return activityItem{}, false
	}
	labels, ok1 := box.Objects[0].(*fyne.Container)
	buttons, ok2 := box.Objects[1].(*fyne.Container)
	if !ok1 || !ok2 || len(labels.Objects) != 2 || len(buttons.Objects) != 2 {
		return activityItem{}, false
	}
	title, ok1 := labels.Objects[0].(*widget.Label)
	text, ok2 := labels.Objects[1].(*widget.Label)
	if !ok1 || !ok2 {
		return activityItem{}, false
	}
	it := activityItem{title: title.Text, text: text.Text}
	if buttons.Visible() {
		it.retry, _ = buttons.Objects[0].(*widget.Button)
		it.discard, _ = buttons.Objects[1].(*widget.Button)
	}
	return it, true
}

// activityAbout is the drawn Activity entry whose title contains what.
func (h *harness) activityAbout(what string) activityItem {
	h.t.Helper()
	items := h.activityItems()
	for _, it := range items {
		if strings.Contains(it.title, what) {
			return it
		}
	}
	h.t.Fatalf("the Activity tab shows nothing about %q: %+v", what, items)
	return activityItem{}
}

// TestARefusedActionOffersRetryAndDiscard: a quote the service refuses
// shows the service's own message with Retry and Discard; once the reason
// is gone, Retry sends it and it goes through. A refused back-dated
// check-in is discarded: it is marked so and never sent.
func TestARefusedActionOffersRetryAndDiscard(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // takes quotes
	nte := r.Nte.Amount
	h.open(r.Id)
	h.selectTab("Quote")
	q := quoteOf(h)
	minor := int32(api.MinorUnits(r.Nte.Currency))
	q.amount().SetText(nte.Mul(decimal.NewFromInt(2)).StringFixed(minor))
	q.reason().SetText("Compressor must be replaced")
	test.Tap(q.submit())
	// Before it goes out, the customer raises the NTE above the quote.
	if err := h.sb.SetNte(r.Id, nte.Mul(decimal.NewFromInt(3))); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the raised NTE", func() bool {
		wo, _ := h.store.WorkOrder(ctx, r.Id)
		return wo.Nte.Amount.Amount.Equal(nte.Mul(decimal.NewFromInt(3)))
	})
	h.send()

	it := h.activityAbout("Quote")
	if !strings.HasPrefix(it.text, "Refused by the service: The quote") || !strings.Contains(it.text, "must exceed the current NTE") {
		t.Fatalf("the refused quote reads %q; want the service's message", it.text)
	}
	if it.retry == nil || it.discard == nil {
		t.Fatal("the refused quote offers no Retry and Discard")
	}

	// The customer goes back to the old NTE; Retry sends the quote again.
	if err := h.sb.SetNte(r.Id, nte); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the NTE back", func() bool {
		wo, _ := h.store.WorkOrder(ctx, r.Id)
		return wo.Nte.Amount.Amount.Equal(nte)
	})
	test.Tap(h.activityAbout("Quote").retry)
	h.flush()
	if it := h.activityAbout("Quote"); strings.Contains(it.text, "Refused") || it.retry != nil {
		t.Fatalf("after Retry the quote still reads %q", it.text)
	}
	h.send()
	h.flush()
	if it := h.activityAbout("Quote"); it.text != "Sent: the service accepted it." || it.retry != nil {
		t.Fatalf("after Retry and sending, the quote reads %q", it.text)
	}
	if got := h.desk.detail.quote.Text(); got != "Quote submitted" {
		t.Fatalf("after the retried quote went through, the header reads %q", got)
	}

	// Discard: Harbor Point Hotels does not allow back-dating, but the
	// replica's copy of its settings is out of date and says it does, so
	// the back-date is queued and the service refuses it.
	hp := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted})
	staleSettings(t, h, hp.Id)
	h.open(hp.Id)
	h.selectTab("Visit")
	setBackDate(t, visitOf(h), fixedNow.Add(-3*time.Hour))
	test.Tap(visitOf(h).checkIn)
	h.send()
	it = h.activityAbout("Check in")
	if !strings.Contains(it.text, "does not allow back-dating") || it.discard == nil {
		t.Fatalf("the refused check-in reads %q (discard offered: %v)", it.text, it.discard != nil)
	}
	test.Tap(it.discard)
	if !strings.Contains(h.overlayText(), "discard this action?") {
		t.Fatalf("Discard asks nothing; overlay %q", h.overlayText())
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Discard"))
	h.flush()
	if it := h.activityAbout("Check in"); it.text != "Discarded: not sent." || it.retry != nil || it.discard != nil {
		t.Fatalf("after Discard the check-in reads %q (buttons still shown: %v)", it.text, it.retry != nil)
	}
	h.send()
	h.desk.changed([]int64{hp.Id})
	if got := h.desk.detail.status.Text(); got != "Accepted" {
		t.Fatalf("the discarded check-in went out: the header reads %q", got)
	}
}

// TestANotificationKeepsTheSelectionAndScrollPosition: while the person
// looks at a work order half-way down the list, with another row ticked,
// the customer changes its NTE. The row's NTE and the header update in
// place; the list does not move, the open row stays open and the tick
// stays. A desktop notification says what changed.
func TestANotificationKeepsTheSelectionAndScrollPosition(t *testing.T) {
	h := newHarness(t)
	sent := h.recordNotifications()
	rows := h.rows()
	var target storage.Row
	for _, r := range rows[20:] {
		if !r.Nte.IsZero() && r.Status != api.StatusRejected && r.Status != api.StatusRecalled {
			target = r
			break
		}
	}
	if target.Id == 0 {
		t.Fatal("no work order with an NTE the customer can change")
	}
	h.scrollIntoView(target.Id)
	tbl := h.desk.list.Table()
	mid := fyne.CurrentApp().Driver().AbsolutePositionForObject(tbl).AddXY(tbl.Size().Width/2, tbl.Size().Height/2)
	test.Scroll(h.win.Canvas(), mid, 0, -10) // rest between two rows
	// Open it with a click on its number, and tick another row.
	test.TapCanvas(h.win.Canvas(), screenRowOf(t, h.win, tbl, target.Number).cells["Number"].center())
	if got := h.desk.detail.number.String(); got != target.Number {
		t.Fatalf("clicking %s opened %q", target.Number, got)
	}
	var ticked string
	for _, r := range screenRows(t, h.win, tbl) {
		if r.number() != target.Number {
			ticked = r.number()
			break
		}
	}
	h.tick(ticked)

	screen := func() []string {
		var out []string
		for _, r := range screenRows(t, h.win, tbl) {
			out = append(out, r.number()+" at "+strconvF(r.y))
		}
		return out
	}
	before := screen()
	oldNte := screenRowOf(t, h.win, tbl, target.Number).cells["NTE"].text()

	raised := api.Money{Amount: target.Nte.Amount.Add(decimal.NewFromInt(1234)), Currency: target.Nte.Currency}
	h.menuItem("Change the NTE…").Action()
	dlg := h.win.Canvas().Overlays().Top()
	entry := dialogEntry(t, dlg)
	entry.SetText("")
	test.Type(entry, raised.Amount.StringFixed(int32(api.MinorUnits(raised.Currency))))
	test.Tap(buttonIn(t, dlg, "Change"))
	h.waitFor("the new NTE in the list", func() bool {
		return screenRowOf(t, h.win, tbl, target.Number).cells["NTE"].text() == format.Money(raised)
	})

	if after := screen(); !slices.Equal(before, after) {
		t.Errorf("the list moved when the NTE changed:\nbefore %v\nafter  %v", before, after)
	}
	row := screenRowOf(t, h.win, tbl, target.Number)
	if drawnIn(row.cells["Number"].c).fill != color.Color(palette.OpenRow) {
		t.Error("the open work order's row is no longer marked open")
	}
	if got := h.desk.detail.number.String(); got != target.Number {
		t.Errorf("the detail view switched to %q", got)
	}
	if got := h.desk.detail.nte.Text; !strings.HasPrefix(got, format.Money(raised)) {
		t.Errorf("the header NTE reads %q, want %s (was %s)", got, format.Money(raised), oldNte)
	}
	if got := screenRowOf(t, h.win, tbl, ticked).cells[""].text(); got != "[x]" || h.listButton("Accept").Text != "Accept 1" {
		t.Errorf("the tick on %s was lost (box %s, bulk button %q)", ticked, got, h.listButton("Accept").Text)
	}
	want := fyne.Notification{Title: "NTE changed: " + target.Number, Content: "The customer set the NTE to " + format.Money(raised) + "."}
	if !slices.Contains(sent.all(), want) {
		t.Errorf("desktop notifications sent: %+v; want %+v", sent.all(), want)
	}
}

func strconvF(f float32) string { return decimal.NewFromFloat32(f).StringFixed(1) }

// TestCustomerEventsRaiseDesktopNotifications: an NTE change of a work
// order the person is not looking at, and a newly dispatched work order,
// each raise one desktop notification that names the work order.
func TestCustomerEventsRaiseDesktopNotifications(t *testing.T) {
	h := newHarness(t)
	sent := h.recordNotifications()
	r := h.create(sandbox.WorkOrderSpec{Currency: "JPY", Status: api.StatusAccepted})
	if err := h.sb.SetNte(r.Id, decimal.Zero); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the NTE notification", func() bool { return len(sent.all()) == 1 })
	want := fyne.Notification{Title: "NTE changed: " + r.Number, Content: "The customer set the NTE to no limit."}
	if got := sent.all()[0]; got != want {
		t.Errorf("the NTE change raised %+v, want %+v", got, want)
	}

	before := h.rows()
	setNow(t, fixedNow.Add(2*time.Minute)) // a minute on: shown alone, not with the NTE's
	h.menuItem("Dispatch a new work order").Action()
	h.waitFor("the new work order notification", func() bool { return len(sent.all()) == 2 })
	h.waitFor("the new work order in the list", func() bool { return h.desk.list.Len() == len(before)+1 })
	var added storage.Row
	for _, x := range h.rows() {
		if !slices.ContainsFunc(before, func(b storage.Row) bool { return b.Id == x.Id }) {
			added = x
		}
	}
	wo, err := h.store.WorkOrder(context.Background(), added.Id)
	if err != nil {
		t.Fatal(err)
	}
	want = fyne.Notification{Title: "New work order: " + wo.WorkOrderNumber, Content: wo.Customer.Name + " sent a new work order. " + format.Sentence(wo.AccompanyingMessage)}
	if got := sent.all()[1]; got != want {
		t.Errorf("the dispatch raised %+v, want %+v", got, want)
	}
}

// TestEnterOpensTheHighlightedWorkOrder: in the list, Down moves the
// highlight and Enter opens the highlighted work order.
func TestEnterOpensTheHighlightedWorkOrder(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	c.Focus(h.desk.list.Table())
	first := h.desk.detail.number.String() // the window opens on the first row
	for range 3 {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	if got := h.desk.detail.number.String(); got != first {
		t.Fatalf("moving the highlight opened %s before Enter", got)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.flush()
	want := h.rows()[3]
	if got := h.desk.detail.number.String(); got != want.Number {
		t.Fatalf("Down three times and Enter opened %q, want the fourth row %s", got, want.Number)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnter}) // the keypad's Enter
	h.flush()
	if got, want := h.desk.detail.number.String(), h.rows()[2].Number; got != want {
		t.Fatalf("Up and keypad Enter opened %q, want %s", got, want)
	}
}

// TestUpArrowKeepsTheHighlightedRowOnScreen walks the highlight down the
// list with the arrow key and back up: the highlighted row is always one
// the person can see.
func TestUpArrowKeepsTheHighlightedRowOnScreen(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	tbl := h.desk.list.Table()
	c.Focus(tbl)
	rows := h.rows()
	at := 0
	press := func(key fyne.KeyName, delta int) {
		t.Helper()
		c.Focused().TypedKey(&fyne.KeyEvent{Name: key})
		at += delta
		if tbl.KeyboardRow() != at {
			t.Fatalf("the highlight is on row %d, want %d", tbl.KeyboardRow(), at)
		}
		drawn := screenRows(t, h.win, tbl)
		if !slices.ContainsFunc(drawn, func(r screenRow) bool { return r.number() == rows[at].Number }) {
			var shown []string
			for _, r := range drawn {
				shown = append(shown, r.number())
			}
			t.Fatalf("after %s the highlighted row %d (%s) is not on screen; the list shows %v", key, at, rows[at].Number, shown)
		}
	}
	for range 30 {
		press(fyne.KeyDown, 1)
	}
	for range 30 {
		press(fyne.KeyUp, -1)
	}
}
