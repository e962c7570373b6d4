package ui

// Tests for what a new user met in the real window during the demo trial:
// leftovers of the previous work order, a status note cut short with room
// to spare, money shown as raw digits, and a handful of rough edges.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// tabScroll is the vertical scroll a detail tab lays its page out in.
func tabScroll(h *harness, name string) *container.Scroll {
	h.t.Helper()
	for _, it := range h.desk.detail.appTabs.Items {
		if it.Text == name {
			// The page, or the one scrolled part of it (the Invoice tab
			// keeps Save and Submit at its foot, out of the scroll).
			if s := firstScroll(it.Content); s != nil {
				return s
			}
			h.t.Fatalf("the %s tab is not a scrolled page (%T)", name, it.Content)
		}
	}
	h.t.Fatalf("no %s tab", name)
	return nil
}

// firstScroll is o, or the first scroll in it, depth first.
func firstScroll(o fyne.CanvasObject) *container.Scroll {
	switch v := o.(type) {
	case *container.Scroll:
		return v
	case *fyne.Container:
		for _, c := range v.Objects {
			if s := firstScroll(c); s != nil {
				return s
			}
		}
	}
	return nil
}

// wheel turns the mouse wheel over the page s, down by dy pixels (as the
// driver hands the page a wheel event; test.Scroll would find the innermost
// scrollable under the pointer, perhaps an entry on the page).
func wheel(s *container.Scroll, dy float32) {
	s.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -dy}})
}

// TestAnotherWorkOrderOpensEachTabAtItsTop: a person scrolls down the
// Summary and the Invoice of one work order, then opens another. Each tab
// shows the new work order from its top (the description first), while a
// refresh of the same work order (a notification) leaves the page where
// the person had scrolled.
func TestAnotherWorkOrderOpensEachTabAtItsTop(t *testing.T) {
	h := newHarness(t)
	first := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusCheckedOut })
	second := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusCheckedIn })
	h.open(first.Id)

	for _, name := range []string{"Summary", "Invoice"} {
		h.selectTab(name)
		h.settle()
		s := tabScroll(h, name)
		wheel(s, 400)
		if s.Offset.Y <= 0 {
			t.Fatalf("the %s tab of %s does not scroll (content %.0f px in %.0f px)", name, first.Number, s.Content.MinSize().Height, s.Size().Height)
		}
		// The same work order refreshed in place keeps the position.
		kept := s.Offset.Y
		h.desk.changed([]int64{first.Id})
		if s.Offset.Y != kept {
			t.Errorf("refreshing %s in place moved the %s tab from %.0f to %.0f px", first.Number, name, kept, s.Offset.Y)
		}
	}

	h.open(second.Id)
	for _, name := range []string{"Summary", "Invoice"} {
		h.selectTab(name)
		s := tabScroll(h, name)
		if s.Offset.Y != 0 || s.Content.Position().Y != 0 {
			t.Errorf("%s opens its %s tab scrolled %.0f px down (content drawn at %.0f): its top is hidden",
				second.Number, name, s.Offset.Y, s.Content.Position().Y)
		}
	}
}

// TestEscClearsTheSearch: Esc in the search box empties it and the list
// shows every work order again.
func TestEscClearsTheSearch(t *testing.T) {
	h := newHarness(t)
	l := h.desk.list
	all := l.Len()
	h.desk.focusSearch()
	test.Type(l.Search(), h.rows()[0].Number)
	if l.Len() != 1 {
		t.Fatalf("searching %s lists %d work orders", h.rows()[0].Number, l.Len())
	}
	h.win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if l.Search().Text != "" || l.Len() != all || h.listCount() != fmt.Sprintf("%d work orders", all) {
		t.Errorf("after Esc the search holds %q and the list %d of %d work orders (%q)", l.Search().Text, l.Len(), all, h.listCount())
	}
}

// TestTheScheduledStartIsNotOfferedAfterCheckOut: once the visit is over,
// "Set scheduled start" is disabled and says why; before, it is offered.
func TestTheScheduledStartIsNotOfferedAfterCheckOut(t *testing.T) {
	h := newHarness(t)
	v := visitOf(h)
	for _, c := range []struct {
		status api.WorkOrderStatus
		offer  bool
	}{
		{api.StatusCheckedIn, true},
		{api.StatusCheckedOut, false},
		{api.StatusAccepted, true},
	} {
		r := h.rowWhere(func(r storage.Row) bool { return r.Status == c.status })
		h.open(r.Id)
		h.selectTab("Visit")
		if v.schedSave.Disabled() == c.offer {
			t.Errorf("%s (%s): Set scheduled start enabled = %v, want %v", r.Number, c.status, !v.schedSave.Disabled(), c.offer)
		}
		if c.offer && v.schedWhy.Visible() {
			t.Errorf("%s (%s): the Visit tab says %q though a start can be set", r.Number, c.status, v.schedWhy.Text)
		}
		if !c.offer && (!v.schedWhy.Visible() || !strings.Contains(v.schedWhy.Text, "checked out")) {
			t.Errorf("%s (%s): the disabled button is not explained: %q (shown %v)", r.Number, c.status, v.schedWhy.Text, v.schedWhy.Visible())
		}
	}
}

// TestTheDemoCustomerSaysWhyItCannotAct: the Customer menu's actions that
// cannot apply to the open work order show the sandbox's refusal, in its
// own words, under a plain title, not "Error".
func TestTheDemoCustomerSaysWhyItCannotAct(t *testing.T) {
	h := newHarness(t)
	noQuote := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // takes quotes
	h.open(noQuote.Id)
	check := func(item, title, says string) {
		t.Helper()
		h.menuItem(item).Action()
		h.flush()
		shown := h.overlayTexts()
		if len(shown) == 0 {
			t.Fatalf("%s shows no dialog", item)
		}
		all := strings.Join(shown, "\n")
		if slices.Contains(shown, "Error") || !slices.Contains(shown, title) || !strings.Contains(all, says) {
			t.Errorf("%s shows %q; want the title %q and %q", item, shown, title, says)
		}
		h.dismissOverlays()
	}
	const refused = "The customer could not do that"
	check("Approve the quote", refused, "Work order "+noQuote.Number+" has no submitted quote to approve.")
	check("Reject the quote", refused, "Work order "+noQuote.Number+" has no submitted or approved quote to reject.")

	// An invoice still in Draft cannot be authorized, paid or disputed.
	var draft storage.Row
	for _, r := range h.rows() {
		if r.Status != api.StatusCheckedIn && r.Status != api.StatusCheckedOut {
			continue
		}
		h.open(r.Id)
		if inv, err := h.store.Invoice(context.Background(), r.Id); err == nil && inv.Status == api.InvoiceDraft {
			draft = r
			break
		}
	}
	if draft.Id == 0 {
		t.Fatal("the demo world has no draft invoice to try")
	}
	check("Authorize the invoice", refused, "The invoice of work order "+draft.Number+" is draft; the customer cannot move it to authorized.")
	check("Pay the invoice", refused, "The invoice of work order "+draft.Number+" is draft; the customer cannot move it to paid.")

	sakura := h.create(sandbox.WorkOrderSpec{Customer: "Sakura Mart Japan", Status: api.StatusAccepted})
	h.open(sakura.Id)
	check("Request a quote", refused, "Sakura Mart Japan does not use quotes")
}

// TestTheBulkResultSaysTheOutcomeAndFitsIt: once every work order of a bulk
// accept is answered, the dialog's first line says so ("2 work orders
// accepted") and the dialog is no taller than what it lists.
func TestTheBulkResultSaysTheOutcomeAndFitsIt(t *testing.T) {
	h := newHarness(t)
	picked := h.rowsWhere(2, func(r storage.Row) bool { return r.Status == api.StatusNew })
	for _, r := range picked {
		h.scrollIntoView(r.Id)
		h.tick(r.Number)
	}
	test.Tap(h.listButton("Accept"))
	if shown := h.overlayTexts(); len(shown) < 2 || !strings.Contains(shown[0], "Waiting") {
		t.Errorf("before the service answers the bulk dialog shows %q", shown)
	}
	h.send()
	h.flush()
	shown := h.overlayTexts()
	// texts lists the dialog's content first, then its button and title.
	if len(shown) < 2 || shown[0] != "2 work orders accepted" {
		t.Fatalf("the finished bulk accept shows %q; want its first line to say 2 work orders accepted", shown)
	}
	for _, s := range shown {
		if strings.Contains(s, "Accepting") {
			t.Errorf("the finished dialog still says %q", s)
		}
	}
	top := h.win.Canvas().Overlays().Top()
	var lines *widget.Label
	walk(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, picked[0].Number+" — done") {
			lines = l
		}
	})
	if lines == nil {
		t.Fatalf("the dialog does not list %s as done: %q", picked[0].Number, shown)
	}
	drv := fyne.CurrentApp().Driver()
	end := drv.AbsolutePositionForObject(lines).Y + lines.MinSize().Height
	closeAt := drv.AbsolutePositionForObject(buttonIn(t, top, "Close")).Y
	if gap := closeAt - end; gap > 4*theme.Padding()+theme.InnerPadding() {
		t.Errorf("%.0f px of empty dialog between the last result and Close: the dialog is not sized to its content", gap)
	}
}

// TestTheQueuedNoteSaysSentOnceSent: the status bar's note about an action
// just taken says "queued, sending…" only while it is; once the outbox has
// sent everything it says "sent", never "sending" about what went out.
func TestTheQueuedNoteSaysSentOnceSent(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(r.Id)
	test.Tap(h.desk.detail.accept)
	h.flush()
	want := "Accept " + r.Number + ": queued, sending…"
	if got := h.desk.status.NoteLabel().Text; got != want {
		t.Fatalf("after tapping Accept the status bar says %q, want %q", got, want)
	}
	h.send()
	h.desk.status.Refresh()
	if got := h.desk.status.NoteLabel().Text; got != "Accept "+r.Number+": sent" {
		t.Errorf("once sent the status bar says %q", got)
	}
}

// TestANoteForAnActionSentAlreadySaysSent: the outbox can send an action
// before the window puts up its note (a fast service); the note then says
// "sent" at once, not "sending…" beside "Outbox: all sent".
func TestANoteForAnActionSentAlreadySaysSent(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	if _, err := h.store.Accept(context.Background(), r.Id, ""); err != nil {
		t.Fatal(err)
	}
	h.send()
	h.desk.status.Queued("Accept " + r.Number)
	if got, bar := h.desk.status.NoteLabel().Text, h.desk.status.OutboxLabel().Text; got != "Accept "+r.Number+": sent" || bar != "Outbox: all sent" {
		t.Errorf("an action sent before its note: the status bar says %q beside %q", got, bar)
	}
}
