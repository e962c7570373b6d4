package ui

import (
	"context"
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

func TestSelectingAWorkOrderShowsItsDetail(t *testing.T) {
	h := newHarness(t)
	if h.desk.list.Len() < 60 {
		t.Fatalf("the list shows %d work orders, want the whole demo world (>= 60)", h.desk.list.Len())
	}
	r := h.rows()[3]
	h.open(r.Id)
	if got := h.desk.detail.number.String(); got != r.Number {
		t.Fatalf("header shows %q, want %q", got, r.Number)
	}
	wo, _ := h.store.WorkOrder(context.Background(), r.Id)
	summary := strings.Join(texts(h.desk.detail.tabs[0].Content()), "\n")
	if !strings.Contains(summary, wo.AccompanyingMessage) {
		t.Errorf("summary does not show the description %q", wo.AccompanyingMessage)
	}
	if !strings.Contains(h.desk.detail.nte.Text, wo.Currency) {
		t.Errorf("header NTE %q lacks the currency %s", h.desk.detail.nte.Text, wo.Currency)
	}
}

// TestNteShowsInItsOwnCurrency reads the NTE column as drawn: a JPY amount
// with no decimals, a USD amount with its cents, and 0 as "no limit" with
// no currency beside it ("no limit EUR" reads as an amount).
func TestNteShowsInItsOwnCurrency(t *testing.T) {
	h := newHarness(t)
	// grouped writes the whole part with thousands separators.
	grouped := func(d decimal.Decimal) string {
		s := d.Truncate(0).Abs().String()
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	}
	usd := h.create(sandbox.WorkOrderSpec{Currency: "USD", Nte: "2450.75"})
	jpy := h.create(sandbox.WorkOrderSpec{Currency: "JPY", Nte: "185000"})
	none := h.create(sandbox.WorkOrderSpec{Nte: "0"})
	for _, c := range []struct {
		what string
		r    storage.Row
		want string
	}{
		{"a JPY NTE", jpy, "¥" + grouped(jpy.Nte.Amount)},
		{"a USD NTE", usd, "$" + grouped(usd.Nte.Amount) + "." + strings.SplitN(usd.Nte.Amount.StringFixed(2), ".", 2)[1]},
		{"an NTE of 0", none, "no limit"},
	} {
		h.scrollIntoView(c.r.Id)
		row := screenRowOf(t, h.win, h.desk.list.Table(), c.r.Number)
		if got := row.cells["NTE"].text(); got != c.want {
			t.Errorf("%s (%s %s) is drawn as %q, want %q", c.what, c.r.Nte.Amount, c.r.Nte.Currency, got, c.want)
		}
		cur := c.r.Nte.Currency
		if c.r.Nte.IsZero() {
			cur = "—"
		}
		if got := row.cells["Cur"].text(); got != cur {
			t.Errorf("%s: the currency column of %s reads %q, want %s", c.what, c.r.Number, got, cur)
		}
	}
}

func TestRejectNeedsAReasonThenRejects(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(r.Id)

	test.Tap(h.desk.detail.reject)
	dlg := h.win.Canvas().Overlays().Top()
	if dlg == nil || !strings.Contains(h.overlayText(), "is final") {
		t.Fatalf("no rejection dialog; overlay text %q", h.overlayText())
	}
	confirm := buttonIn(t, dlg, "Reject")
	if !confirm.Disabled() {
		t.Fatal("Reject is enabled while no reason is given")
	}
	test.Tap(confirm)
	if rows, _ := h.store.OutboxRows(context.Background(), r.Id); len(rows) != 0 {
		t.Fatalf("a rejection without reason was queued: %+v", rows)
	}
	reason := dialogEntry(t, dlg)
	test.Type(reason, "No refrigeration technician free this week")
	if confirm.Disabled() {
		t.Fatal("Reject stays disabled after a reason was typed")
	}
	test.Tap(confirm)
	h.send()
	h.desk.changed([]int64{r.Id})
	if got := h.desk.detail.status.Text(); got != "Rejected" {
		t.Fatalf("after rejecting, the header status reads %q, want Rejected", got)
	}
	if summary := strings.Join(texts(h.desk.detail.tabs[0].Content()), "\n"); !strings.Contains(summary, "No refrigeration technician free this week") {
		t.Error("the summary of a rejected work order does not say why it was rejected")
	}
}

func TestSubmittingAQuoteShowsSubmitted(t *testing.T) {
	h := newHarness(t)
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // takes quotes
	h.open(r.Id)
	h.selectTab("Quote")
	q := quoteOf(h)

	q.amount().SetText(r.Nte.Amount.String()) // not above the NTE
	q.reason().SetText("Compressor must be replaced")
	test.Tap(q.submit())
	if !strings.Contains(h.overlayText(), "must exceed the current nte") {
		t.Fatalf("a quote equal to the NTE showed %q", h.overlayText())
	}
	h.dismissOverlays()

	above := r.Nte.Amount.Add(r.Nte.Amount).StringFixed(int32(api.MinorUnits(r.Nte.Currency)))
	q.amount().SetText(above)
	test.Tap(q.submit())
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("a valid quote showed %q", txt)
	}
	h.send()
	h.desk.changed([]int64{r.Id})
	if got := h.desk.detail.quote.Text(); got != "Quote submitted" {
		t.Fatalf("after submitting, the header quote badge reads %q", got)
	}
	if says := q.says(); !strings.Contains(says, "waiting for the customer's decision") {
		t.Errorf("the quote tab explains %q", says)
	}
	if q.open() {
		t.Error("a second quote can be entered while one is Submitted")
	}
}

// TestBackdatedCheckInCarriesTheVisitTime: a future time is refused with a
// reason; an earlier time, for a customer that allows back-dating, checks
// the work order in and says when.
func TestBackdatedCheckInCarriesTheVisitTime(t *testing.T) {
	h := newHarness(t)
	earlier := fixedNow.Add(-2 * time.Hour) // 07:00, on the minute select's 5-minute steps
	// Northwind Retail allows back-dating (the sandbox's customer policies).
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted, Created: fixedNow.Add(-48 * time.Hour)})
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)

	setBackDate(t, v, time.Date(2026, 11, 21, 8, 0, 0, 0, time.Local))
	test.Tap(v.checkIn)
	if !strings.Contains(h.overlayText(), "is in the future") {
		t.Fatalf("a future check-in showed %q", h.overlayText())
	}
	h.dismissOverlays()

	setBackDate(t, v, earlier)
	test.Tap(v.checkIn)
	rows, _ := h.store.OutboxRows(context.Background(), r.Id)
	if len(rows) != 1 {
		t.Fatalf("want one queued check-in, got %d", len(rows))
	}
	var req api.VisitRequest
	json.Unmarshal(rows[0].Request, &req)
	if req.ActualActionDate == nil || !req.ActualActionDate.Equal(earlier) {
		t.Fatalf("the check-in carries ActualActionDate %v, want %v", req.ActualActionDate, earlier)
	}
	h.send()
	h.desk.changed([]int64{r.Id})
	if got := h.desk.detail.status.Text(); got != "Checked in" {
		t.Fatalf("after a back-dated check-in the header reads %q, want Checked in (%s)", got, v.lastState.Text)
	}
	when := format.Time(earlier) // the person's own clock, not the wire's UTC
	if got := v.lastState.Text; !strings.Contains(got, "Check in at "+when) || !strings.Contains(got, "the service accepted it") {
		t.Fatalf("the Visit tab says %q; want the check-in at %s, accepted", got, when)
	}
}

// TestBulkAcceptReportsEachWorkOrder ticks the boxes drawn at the start of
// three New rows, presses Accept, and reads each work order's result and
// its new status in the list.
func TestBulkAcceptReportsEachWorkOrder(t *testing.T) {
	h := newHarness(t)
	picked := h.rowsWhere(3, func(r storage.Row) bool { return r.Status == api.StatusNew })
	if h.listButton("Accept").Visible() {
		t.Fatal("bulk Accept shows before anything is ticked")
	}
	for _, r := range picked {
		h.scrollIntoView(r.Id)
		h.tick(r.Number)
		if got := screenRowOf(t, h.win, h.desk.list.Table(), r.Number).cells[""].text(); got != "[x]" {
			t.Fatalf("after a click, the box of %s shows %s", r.Number, got)
		}
	}
	if !h.listButton("Accept").Visible() || h.listButton("Accept").Text != "Accept 3" {
		t.Fatalf("with three rows ticked the bulk button reads %q", h.listButton("Accept").Text)
	}
	test.Tap(h.listButton("Accept"))
	h.send()
	h.flush()
	text := h.overlayText()
	for _, r := range picked {
		if !strings.Contains(text, strings.ToLower(r.Number)+" — done") {
			t.Errorf("the bulk result does not say %s is done:\n%s", r.Number, text)
		}
	}
	h.dismissOverlays()
	for _, r := range picked {
		h.scrollIntoView(r.Id)
		row := screenRowOf(t, h.win, h.desk.list.Table(), r.Number)
		if got := row.cells["Status"].text(); got != "Accepted" {
			t.Errorf("after bulk accept the list shows %s as %q", r.Number, got)
		}
		if got := row.cells[""].text(); got != "[ ]" {
			t.Errorf("after bulk accept %s is still ticked", r.Number)
		}
	}
}

func TestQueuedUploadShowsInTheStatusBar(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(r.Id)
	file := filepath.Join(t.TempDir(), "site-photo.png")
	if err := os.WriteFile(file, []byte("\x89PNG\r\n\x1a\nnot really"), 0o600); err != nil {
		t.Fatal(err)
	}
	attachmentsOf(h).AddFiles([]string{file})
	h.desk.status.Refresh()
	if !h.desk.status.UploadBar().Visible() || !strings.Contains(h.desk.status.ProgressLabel().Text, "Uploading 1 file") {
		t.Fatalf("while a file waits in the outbox the status bar shows %q", h.desk.status.ProgressLabel().Text)
	}
	h.send()
	h.desk.status.Refresh()
	if h.desk.status.UploadBar().Visible() {
		t.Fatal("the upload bar stays after the file was sent")
	}
	h.desk.refreshDetails(r.Id)
	h.flush()
	atts, _ := h.store.Attachments(context.Background(), r.Id)
	found := false
	for _, a := range atts {
		found = found || a.Name == "site-photo.png"
	}
	if !found {
		t.Fatalf("the uploaded file is not listed: %+v", atts)
	}
}

// TestDroppedFilesAttachWhereThePersonIsLooking: files dropped on the window
// go to the open work order, or to its invoice when the Invoice tab is shown;
// a file over 20 MB is refused before anything is queued.
func TestDroppedFilesAttachWhereThePersonIsLooking(t *testing.T) {
	h := newHarness(t)
	// A finished work order whose invoice still takes files (the service
	// refuses them on a submitted one).
	r := h.create(sandbox.WorkOrderSpec{Status: api.StatusCheckedOut, Invoice: api.InvoiceDraft})
	h.open(r.Id)
	dir := t.TempDir()
	photo := filepath.Join(dir, "after-repair.jpg")
	os.WriteFile(photo, []byte("jpeg bytes"), 0o600)
	huge := filepath.Join(dir, "video.mp4")
	f, _ := os.Create(huge)
	f.Truncate(api.MaxAttachmentSize + 1)
	f.Close()

	h.desk.dropped([]string{photo})
	h.selectTab("Invoice")
	h.desk.dropped([]string{photo})
	rows, _ := h.store.OutboxRows(context.Background(), r.Id)
	var kinds []outbox.Kind
	for _, row := range rows {
		kinds = append(kinds, row.Kind)
	}
	if len(kinds) != 2 || kinds[0] != outbox.KindAttachment || kinds[1] != outbox.KindInvoiceAttachmentAdd {
		t.Fatalf("two drops queued %v, want a work order attachment then an invoice attachment", kinds)
	}

	h.selectTab("Attachments")
	h.desk.dropped([]string{huge})
	if !strings.Contains(h.overlayText(), "20 mb") {
		t.Fatalf("dropping a 20 MB+ file showed %q", h.overlayText())
	}
	if rows, _ := h.store.OutboxRows(context.Background(), r.Id); len(rows) != 2 {
		t.Fatalf("the oversized file was queued: %d rows", len(rows))
	}
}

// TestARefusedActionIsExplainedNotHidden replays the QA finding: a back-dated
// check-in the customer does not allow is refused; the next check-in must
// not claim the work order is already checked in, but point to the refused
// row, and work once that row is discarded.
func TestARefusedActionIsExplainedNotHidden(t *testing.T) {
	h := newHarness(t)
	// Harbor Point Hotels does not allow back-dating; the replica's copy of
	// its settings is out of date and says it does.
	r := h.create(sandbox.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted})
	staleSettings(t, h, r.Id)
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	earlier := fixedNow.Add(-3 * time.Hour)
	setBackDate(t, v, earlier)
	test.Tap(v.checkIn)
	h.send()
	h.desk.changed([]int64{r.Id})
	if got := h.desk.detail.status.Text(); got != "Accepted" {
		t.Fatalf("after a refused check-in the header reads %q, want Accepted", got)
	}
	if !strings.Contains(v.lastState.Text, "Refused by the service") {
		t.Fatalf("the visit tab says %q, want the refusal", v.lastState.Text)
	}

	test.Tap(v.checkIn) // now, not back-dated
	msg := h.overlayText()
	if !strings.Contains(msg, "refused by the service") || !strings.Contains(msg, "top of the work order") || strings.Contains(msg, "is checkedin") {
		t.Fatalf("checking in again showed %q; want the refused row and where to resolve it", msg)
	}
	h.dismissOverlays()

	rows, _ := h.store.OutboxRows(context.Background(), r.Id)
	if err := h.store.Discard(context.Background(), rows[0].Id); err != nil {
		t.Fatal(err)
	}
	test.Tap(v.checkIn)
	h.send()
	h.desk.changed([]int64{r.Id})
	if got := h.desk.detail.status.Text(); got != "Checked in" {
		t.Fatalf("after discarding the refusal and checking in now, the header reads %q (%s)", got, v.lastState.Text)
	}
}

// TestDarkModeHeaderFollowsTheTheme: the header band and the number change
// with the theme, so light text never sits on a light band.
func TestDarkModeHeaderFollowsTheTheme(t *testing.T) {
	h := newHarness(t)
	h.desk.Showcase()
	h.flush()
	var fill *xwidget.ThemedFill
	walk(h.desk.detail.body, func(o fyne.CanvasObject) {
		if f, ok := o.(*xwidget.ThemedFill); ok && fill == nil {
			fill = f
		}
	})
	light := fill.Color()
	appearanceChoice(h, "Dark").Action()
	fill.Refresh()
	dark := fill.Color()
	lr, lg, lb, _ := light.RGBA()
	dr, dg, db, _ := dark.RGBA()
	if dr+dg+db >= lr+lg+lb {
		t.Fatalf("the header band did not darken in dark mode: light %v, dark %v", light, dark)
	}
}

// TestTypeAndEnterOpensTheFirstMatch: find a work order in a second — type
// part of its number and press Enter.
func TestTypeAndEnterOpensTheFirstMatch(t *testing.T) {
	h := newHarness(t)
	want := h.rows()[10]
	h.win.Canvas().Focus(h.desk.list.Search())
	test.Type(h.desk.list.Search(), want.Number[3:])
	h.desk.list.Search().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.flush()
	if got := h.desk.detail.number.String(); got != want.Number {
		t.Fatalf("typing %q and Enter opened %q, want %s", want.Number[3:], got, want.Number)
	}
	h.desk.list.Search().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if h.win.Canvas().Focused() != h.desk.list.Table() {
		t.Fatal("Down in the search box does not move into the list")
	}
}

// TestTheWindowNeverGrowsWithItsContent: whatever the detail pane shows (a
// long unbroken file name, every tab in turn), the window's content asks
// for no more width than a small laptop screen has.
func TestTheWindowNeverGrowsWithItsContent(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(r.Id)
	long := filepath.Join(t.TempDir(), strings.Repeat("site-photo-after-compressor-replacement-", 6)+".png")
	os.WriteFile(long, []byte("png"), 0o600)
	attachmentsOf(h).AddFiles([]string{long})
	h.send()
	h.desk.refreshDetails(r.Id)
	h.flush()
	for _, tb := range h.desk.detail.tabs {
		h.selectTab(tb.Title())
		if w := h.win.Content().MinSize().Width; w > 1024 {
			t.Fatalf("on the %s tab the window needs %.0f px: content would push it wider than the screen", tb.Title(), w)
		}
	}
}

// TestTheWindowOpensOnTheFirstWorkOrder: the window never starts with half
// of it empty: the first work order of the list (by default the one whose
// next deadline comes first) is open, and its row shows it.
func TestTheWindowOpensOnTheFirstWorkOrder(t *testing.T) {
	h := newHarness(t)
	first := h.rows()[0]
	if h.desk.detail.wo == nil || h.desk.detail.wo.WorkOrderId != first.Id {
		t.Fatalf("the window opens with %v in the detail, want the list's first, %s", h.desk.detail.wo, first.Number)
	}
	if fill := h.listCell(first.Id, "Number").fill; fill != color.Color(palette.OpenRow) {
		t.Errorf("the first row, open, is filled %v", fill)
	}
	for _, r := range h.rows()[1:] {
		if !r.NextDeadline.IsZero() && r.NextDeadline.Before(first.NextDeadline) {
			t.Fatalf("%s is due before the first row %s", r.Number, first.Number)
		}
	}
}
