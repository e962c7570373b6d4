package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// reopen builds a new main window on the same app and replica, as the next
// start of the app would, and returns it.
func (h *harness) reopen() *Desk {
	h.t.Helper()
	d := New(h.desk.app, h.desk.deps)
	d.Window().Show()
	h.t.Cleanup(d.Window().Close)
	return d
}

// The window size and the split position come back however the app ended.
func TestWindowSizeAndSplitAreRememberedOnEveryExit(t *testing.T) {
	for _, exit := range []struct {
		name string
		end  func(h *harness)
	}{
		{"close button", func(h *harness) { h.close() }},
		{"File › Quit", func(h *harness) { h.menuItem("Quit").Action() }},
		{"app stopped", func(h *harness) {
			// A quit from the system tray or the OS: the app stops, the
			// window is never closed.
			stopped := h.desk.app.Lifecycle().(interface{ OnStopped() func() }).OnStopped()
			if stopped == nil {
				t.Fatal("the window does not hook the app's stop")
			}
			stopped()
		}},
	} {
		t.Run(exit.name, func(t *testing.T) {
			h := newHarness(t)
			want := fyne.NewSize(1366, 868)
			h.win.Resize(want)
			h.desk.split.SetOffset(0.41)
			exit.end(h)

			d := h.reopen()
			if got := d.Window().Canvas().Size(); got != want {
				t.Errorf("after %s the window reopens at %v, want %v", exit.name, got, want)
			}
			if got := d.split.Offset; fmt.Sprintf("%.2f", got) != "0.41" {
				t.Errorf("after %s the split reopens at %.2f, want 0.41", exit.name, got)
			}
		})
	}
}

func TestTheStatusFilterCountsEachStatus(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	all, _ := h.store.Count(ctx)
	counts := map[api.WorkOrderStatus]int{}
	for _, r := range replicaRows(h) {
		counts[r.Status]++
	}
	sel := h.statusFilter()
	if want := fmt.Sprintf("All statuses (%d)", all); sel.Selected != want {
		t.Fatalf("the filter reads %q, want %q", sel.Selected, want)
	}
	newLabel := fmt.Sprintf("New (%d)", counts[api.StatusNew])
	for _, s := range []string{newLabel, fmt.Sprintf("Checked in (%d)", counts[api.StatusCheckedIn])} {
		if !strings.Contains(strings.Join(sel.Options, "|"), s) {
			t.Errorf("the filter offers %q, not %q", sel.Options, s)
		}
	}

	sel.SetSelected(newLabel)
	if h.desk.list.Len() != counts[api.StatusNew] {
		t.Fatalf("filtering %q lists %d work orders", newLabel, h.desk.list.Len())
	}
	// Accepting one moves it out of New: the count follows, the filter
	// stays; the row itself stays in view, Accepted, until the person
	// moves on to another work order (TestARowActedOnUnderAFilterStays).
	first, second := h.rows()[0], h.rows()[1]
	h.open(first.Id)
	if first.Status != api.StatusNew {
		t.Fatalf("the New filter lists a %s work order", first.Status)
	}
	h.desk.detail.accept.OnTapped()
	h.send()
	if want := fmt.Sprintf("New (%d)", counts[api.StatusNew]-1); sel.Selected != want {
		t.Fatalf("after accepting one, the filter reads %q, want %q", sel.Selected, want)
	}
	h.open(second.Id)
	if h.desk.list.Len() != counts[api.StatusNew]-1 {
		t.Fatalf("after accepting one and moving on, the New filter lists %d work orders, want %d", h.desk.list.Len(), counts[api.StatusNew]-1)
	}
	if !strings.Contains(strings.Join(sel.Options, "|"), fmt.Sprintf("Accepted (%d)", counts[api.StatusAccepted]+1)) {
		t.Errorf("the accepted one is not counted: %q", sel.Options)
	}
}

// A list page that cannot be read is said in the status bar, not left as
// blank rows (once however many cells asked: ui/list's
// TestAFailedPageReadIsReportedOnce).
func TestAFailedListReadIsShownOnce(t *testing.T) {
	h := newHarness(t)
	if h.desk.list.Len() <= 50 {
		t.Fatalf("the list has %d rows: too few for a second page of 50", h.desk.list.Len())
	}
	h.store.Close() // the replica becomes unreadable
	h.desk.list.Table().ScrollToBottom()
	h.desk.list.Table().Refresh()
	p := h.desk.status.ProblemLabel()
	if !p.Visible() || !strings.Contains(p.Text, "Could not read the work order list") {
		t.Fatalf("the status bar shows %q (visible %v)", p.Text, p.Visible())
	}
}

// The status bar says in plain words where the work orders come from and
// whether all is sent; the sandbox's address, the token and the receiver
// are a click on it away. A fact that grows longer (the outbox filling
// up) is shown whole, not cut off.
func TestTheStatusBarShowsTheConnectionWhole(t *testing.T) {
	h := newHarness(t)
	s := h.desk.status
	whole := func(l *widget.Label) {
		t.Helper()
		if !l.Visible() || l.Size().Width < l.MinSize().Width {
			t.Errorf("the status bar shows %q cut to %.0f of %.0f px", l.Text, l.Size().Width, l.MinSize().Width)
		}
	}
	if s.ModeLabel().Text != "Demo: sample work orders from a made-up customer" || s.TokenLabel().Visible() || s.ReceiverLabel().Visible() {
		t.Fatalf("the status bar reads %q, token shown %v, receiver shown %v", s.ModeLabel().Text, s.TokenLabel().Visible(), s.ReceiverLabel().Visible())
	}
	whole(s.ModeLabel())
	var mode fyne.Tappable // the mode, with its icon
	walk(s.Row(), func(o fyne.CanvasObject) {
		if a, ok := o.(fyne.Tappable); ok && mode == nil {
			mode = a
		}
	})
	test.Tap(mode)
	details := h.overlayText()
	for _, want := range []string{"connection details", "made-up customer", h.desk.deps.Service, "token until 10:00", "receiver on 127.0.0.1:8090", "outbox: all sent"} {
		if !strings.Contains(details, strings.ToLower(want)) {
			t.Errorf("a click on the status bar's mode shows no %q: %q", want, details)
		}
	}
	h.dismissOverlays()
	before := s.OutboxLabel().Text
	r := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	if _, err := h.store.Accept(context.Background(), r.Id, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.Reject(context.Background(), h.rowWhere(func(x storage.Row) bool { return x.Status == api.StatusNew && x.Id != r.Id }).Id, "Outside our area"); err != nil {
		t.Fatal(err)
	}
	h.flush()
	s.Refresh()
	if s.OutboxLabel().Text == before || !strings.Contains(s.OutboxLabel().Text, "2 pending") {
		t.Fatalf("with two actions queued the outbox reads %q", s.OutboxLabel().Text)
	}
	whole(s.OutboxLabel())
	whole(s.SyncLabel())
}

// TestEveryTabFitsTheDetailPane: at the default window size, whichever work
// order is open and whatever a tab shows while offline (no price list yet),
// the detail pane needs no sideways scrolling.
func TestEveryTabFitsTheDetailPane(t *testing.T) {
	d := offlineDesk(t, syncedReplica(t, 80))
	seen := map[api.WorkOrderStatus]bool{}
	for i := 0; i < d.list.Len(); i++ {
		r, ok := d.list.Row(i)
		if !ok || seen[r.Status] {
			continue
		}
		seen[r.Status] = true
		d.list.Open(r.Id)
		pane := d.detail.scroller.Size().Width
		for _, tb := range d.detail.tabs {
			if w := tb.Content().MinSize().Width + d.detail.appTabs.MinSize().Width - maxTabWidth(d); w > pane {
				t.Errorf("%s (%s): the %s tab needs %.0f px of a %.0f px pane", r.Number, r.Status, tb.Title(), w, pane)
			}
		}
	}
}

// maxTabWidth is the widest tab's content: what the tab strip adds is the rest.
func maxTabWidth(d *Desk) float32 {
	w := float32(0)
	for _, tb := range d.detail.tabs {
		w = max(w, tb.Content().MinSize().Width)
	}
	return w
}

// TestBothPanesFitAt1024x700: on a small laptop screen the detail pane gets
// the width its tabs need (the NTE, the invoice's subtotals and Submit are
// on screen, not past a sideways scroll), the list keeps its own minimum,
// and a wide window keeps the person's divider position.
func TestBothPanesFitAt1024x700(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1024, 700))
	seen := map[api.WorkOrderStatus]bool{}
	for i := 0; i < h.desk.list.Len(); i++ {
		r, ok := h.desk.list.Row(i)
		if !ok || seen[r.Status] {
			continue
		}
		seen[r.Status] = true
		h.desk.list.Open(r.Id)
		pane := h.desk.detail.content().Size().Width
		for _, tb := range h.desk.detail.tabs {
			if need := h.desk.detail.needs(); need > pane {
				t.Errorf("%s (%s) at 1024x700: the detail needs %.0f px (%s tab %.0f) of a %.0f px pane", r.Number, r.Status, need, tb.Title(), tb.Content().MinSize().Width, pane)
			}
		}
		if list := h.desk.split.Leading; list.Size().Width < list.MinSize().Width {
			t.Errorf("the list got %.0f px, less than its %.0f px minimum", list.Size().Width, list.MinSize().Width)
		}
	}
	h.win.Resize(fyne.NewSize(1920, 1080))
	if got := h.desk.split.Offset; got < 0.59 || got > 0.61 {
		t.Errorf("at 1920x1080 the divider sits at %.2f, not the preferred 0.6", got)
	}
}
