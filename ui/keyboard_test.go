package ui

import (
	"context"
	"image/color"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// press sends the shortcut mod+key the way the desktop driver does: to the
// main menu's item that shows it, else to the focused widget when it takes
// shortcuts (an entry), else to the window.
func press(c fyne.Canvas, key fyne.KeyName, shift bool) {
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	s := &desktop.CustomShortcut{KeyName: key, Modifier: mod}
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if w.Canvas() == c && w.MainMenu() != nil {
			for _, m := range w.MainMenu().Items {
				if menuShortcut(m, s) {
					return
				}
			}
		}
	}
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	windowShortcut(c, s)
}

// menuShortcut runs the item of m (or of its submenus) that shows s, as
// the desktop driver does before the focused widget sees s.
func menuShortcut(m *fyne.Menu, s fyne.Shortcut) bool {
	for _, it := range m.Items {
		if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() && it.Action != nil {
			it.Action()
			return true
		}
		if it.ChildMenu != nil && menuShortcut(it.ChildMenu, s) {
			return true
		}
	}
	return false
}

// windowShortcut hands s to the canvas's registered shortcuts, as the
// desktop driver does. Fyne's test canvas holds the canvas that has them
// as an embedded interface, which hides its TypedShortcut.
func windowShortcut(c fyne.Canvas, s fyne.Shortcut) {
	if sc, ok := c.(fyne.Shortcutable); ok {
		sc.TypedShortcut(s)
		return
	}
	inner := reflect.ValueOf(c).Elem().Field(0).Interface()
	inner.(fyne.Shortcutable).TypedShortcut(s)
}

// typeKey presses a key without modifier: to the focused widget, else to
// the window (as Esc and Enter reach a dialog just opened).
func typeKey(c fyne.Canvas, key fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: key}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if k := c.OnTypedKey(); k != nil { // none: the key goes nowhere
		k(ev)
	}
}

// TestEveryTabHasAShortcut: Ctrl+1 … Ctrl+9 show the nine tabs in order,
// from the list and from the search box alike, and take the keyboard into
// the tab (to its first control, where it has one: Messages and the
// Internal note have their text boxes); the shortcut help lists each one
// by its name.
func TestEveryTabHasAShortcut(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	help := map[string]string{}
	for _, it := range h.desk.keysHelp() {
		help[it.Text] = it.Widget.(*widget.Label).Text
	}
	for _, from := range []fyne.Focusable{h.desk.list.Table(), h.desk.list.Search()} {
		c.Focus(from)
		for i, tb := range h.desk.detail.tabs {
			press(c, tabKeys[i], false)
			if got := h.desk.detail.appTabs.SelectedIndex(); got != i {
				t.Errorf("from the %T, %s shows tab %d, not %s", from, shortcutLabel(string(tabKeys[i])), got, tb.Title())
			}
			if want := tabStart(tb, h.desk.detail.appTabs.Items[i].Content); want != nil && c.Focused() != want {
				t.Errorf("after %s the keyboard is in a %T, not the %s tab's first control (a %T)", shortcutLabel(string(tabKeys[i])), c.Focused(), tb.Title(), want)
			}
			if title := tb.Title(); (title == "Messages" || title == "Internal note") && tabStart(tb, h.desk.detail.appTabs.Items[i].Content) == nil {
				t.Errorf("the %s tab offers the keyboard nothing", title)
			}
			if want := "Show the " + tb.Title() + " tab"; help[shortcutLabel(string(tabKeys[i]))] != want {
				t.Errorf("the shortcut help says %q for %s, want %q", help[shortcutLabel(string(tabKeys[i]))], shortcutLabel(string(tabKeys[i])), want)
			}
		}
	}
}

// TestTabKeysPutTheKeyboardWhereAPersonTypes: Ctrl+4 takes the keyboard to
// the message box, not the thread above it, and Ctrl+2 to the quote's
// Amount, not the price list under the form: in the real window what was
// typed after Ctrl+4 went nowhere (issue 38's second tryout).
func TestTabKeysPutTheKeyboardWhereAPersonTypes(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	q := openQuotable(h)
	c.Focus(h.desk.list.Table())

	press(c, fyne.Key2, false)
	if f, ok := c.Focused().(fyne.CanvasObject); !ok || asEntry(f) != q.amount() {
		t.Errorf("after Ctrl+2 the keyboard is in a %T, not the quote's Amount", c.Focused())
	}

	c.Focus(h.desk.list.Table())
	press(c, fyne.Key4, false)
	m := msgsOf(h)
	for _, r := range "On our way" {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		}
	}
	if got := m.text().Text; got != "On our way" {
		t.Errorf("typed after Ctrl+4, the message box holds %q (the keyboard was in a %T)", got, c.Focused())
	}
}

// TestActionsByShortcut: Ctrl+Shift+A accepts the open work order; on one
// that cannot be checked in, Ctrl+Shift+I says why in a dialog that Enter
// closes; on an accepted one it checks in, from the Visit tab.
func TestActionsByShortcut(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	c.Focus(h.desk.list.Table())
	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(row.Id)

	press(c, fyne.KeyI, true)
	if !strings.Contains(h.overlayText(), "accept it first") {
		t.Fatalf("Ctrl+Shift+I on a new work order says %q", h.overlayText())
	}
	typeKey(c, fyne.KeyReturn)
	if h.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("Enter did not close the dialog: %q", h.overlayText())
	}

	press(c, fyne.KeyA, true)
	h.flush()
	h.send()
	if wo, _ := h.store.WorkOrder(t.Context(), row.Id); wo.Status != api.StatusAccepted {
		t.Fatalf("after Ctrl+Shift+A %s is %s", row.Number, wo.Status)
	}

	press(c, fyne.KeyI, true)
	h.flush()
	if got := h.desk.detail.tabs[h.desk.detail.appTabs.SelectedIndex()].Title(); got != "Visit" {
		t.Errorf("Ctrl+Shift+I shows the %s tab, not Visit", got)
	}
	if h.desk.detail.wo.Status != api.StatusCheckedIn {
		t.Errorf("after Ctrl+Shift+I the work order is %s (queued: the detail shows what it will be)", h.desk.detail.wo.Status)
	}
}

// TestCtrlEnterSendsTheMessage: in the message box Enter starts a new line
// and Ctrl+Enter sends; the box empties, and the next message starts again
// visible to the customer.
func TestCtrlEnterSendsTheMessage(t *testing.T) {
	h := newHarness(t)
	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusAccepted })
	h.open(row.Id)
	press(h.win.Canvas(), fyne.Key4, false)
	m := msgsOf(h)
	h.win.Canvas().Focus(m.focusable())
	test.Type(m.focusable(), "On our way")
	typeKey(h.win.Canvas(), fyne.KeyReturn)
	test.Type(m.focusable(), "ETA 20 min")
	if m.text().Text != "On our way\nETA 20 min" {
		t.Fatalf("Enter in the message box: %q", m.text().Text)
	}
	press(h.win.Canvas(), fyne.KeyReturn, false)
	h.flush()
	thread, err := h.store.Thread(t.Context(), row.Id)
	if err != nil {
		t.Fatal(err)
	}
	if len(thread) == 0 || thread[len(thread)-1].Text != "On our way\nETA 20 min" {
		t.Fatalf("Ctrl+Enter did not queue the message: %+v", thread)
	}
	if m.text().Text != "" {
		t.Errorf("after sending the box still holds %q", m.text().Text)
	}
}

// TestRejectGoesAheadOnlyOnItsButton: rejecting is final, so the reject
// dialog opens with the keyboard in its reason and neither Ctrl+Enter
// there nor Enter once nothing has the keyboard rejects or drops what was
// typed; Esc cancels it; only its Reject button, valid once a reason is
// given, rejects: tapped, or Space on it once Tab has moved there.
func TestRejectGoesAheadOnlyOnItsButton(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	rows := h.rowsWhere(2, func(r storage.Row) bool { return r.Status == api.StatusNew })

	h.open(rows[0].Id)
	press(c, fyne.KeyR, true)
	if !strings.Contains(h.overlayText(), "reject this work order") {
		t.Fatalf("Ctrl+Shift+R opened %q", h.overlayText())
	}
	typeKey(c, fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Fatal("Esc did not cancel the reject dialog")
	}

	press(c, fyne.KeyR, true)
	reason, _ := c.Focused().(*dialogs.Entry)
	if reason == nil {
		t.Fatalf("the reason does not have the keyboard: %T", c.Focused())
	}
	if b := buttonIn(t, c.Overlays().Top(), "Reject"); !b.Disabled() {
		t.Error("Reject is enabled before a reason is given")
	}
	const typed = "No technician free this week"
	test.Type(reason, typed)
	press(c, fyne.KeyReturn, false) // Ctrl+Enter in the reason
	c.Unfocus()
	typeKey(c, fyne.KeyReturn) // Enter with nothing focused
	h.flush()
	if c.Overlays().Top() == nil || reason.Text != typed || h.desk.detail.wo.Status != api.StatusNew {
		t.Fatalf("Enter rejected or closed the dialog: open %v, reason %q, status %s", c.Overlays().Top() != nil, reason.Text, h.desk.detail.wo.Status)
	}
	c.Focus(reason)
	c.FocusNext() // Tab to Cancel
	c.FocusNext() // and on to Reject
	if b := viewtest.AsButton(c.Focused().(fyne.CanvasObject)); b == nil || b.Text != "Reject" {
		t.Fatalf("Tab twice from the reason reached %T, not Reject", c.Focused())
	}
	typeKey(c, fyne.KeySpace)
	h.flush()
	if c.Overlays().Top() != nil || h.desk.detail.wo.Status != api.StatusRejected {
		t.Errorf("Space on Reject did not reject: dialog %q, status %s", h.overlayText(), h.desk.detail.wo.Status)
	}
	// The status bar names what was rejected, as it does what was
	// accepted ("Accept NWR73267: sent"); it said "Rejection: sent".
	if note := h.desk.status.NoteLabel().Text; !strings.HasPrefix(note, "Reject "+rows[0].Number+": ") {
		t.Errorf("after rejecting %s the status bar says %q", rows[0].Number, note)
	}

	h.open(rows[1].Id)
	press(c, fyne.KeyR, true)
	test.Type(c.Focused().(*dialogs.Entry), "Outside our area")
	test.Tap(buttonIn(t, c.Overlays().Top(), "Reject"))
	h.flush()
	if c.Overlays().Top() != nil || h.desk.detail.wo.Status != api.StatusRejected {
		t.Errorf("tapping Reject did not reject: dialog %q, status %s", h.overlayText(), h.desk.detail.wo.Status)
	}
}

// TestTabSkipsTheTickBoxesAndSpaceTicks: from the list, Tab goes on to the
// next control, not into a row's tick box; Space ticks the highlighted row
// and Reject then counts it.
func TestTabSkipsTheTickBoxesAndSpaceTicks(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	// (A tick box cannot take the keyboard at all: *xwidget.TickBox is no
	// fyne.Focusable.) From the list, Tab moves on to the detail's buttons.
	c.Focus(h.desk.list.Table())
	for range 3 {
		test.FocusNext(c)
		if _, check := c.Focused().(*widget.Check); check && c.Focused() != fyne.Focusable(h.attentionFilter()) {
			t.Fatalf("Tab went into a check box of the list")
		}
	}
	tbl := h.desk.list.Table()
	c.Focus(tbl)
	tbl.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	typeKey(c, fyne.KeySpace)
	if b := h.listButton("Reject"); !b.Visible() || b.Text != "Reject 1" {
		t.Errorf("after Space the bulk button reads %q (shown %v), want Reject 1", b.Text, b.Visible())
	}
	typeKey(c, fyne.KeySpace)
	if b := h.listButton("Reject"); b.Visible() {
		t.Errorf("a second Space left rows ticked: %q", b.Text)
	}
}

// TestTheFocusRingIsSeenInLightAndDark: the Accept button with the
// keyboard is ringed in a colour that stands out at 3:1 from the header
// behind it, in light and in dark; and in a dialog, drawn above the ring,
// a focused button looks unlike an unfocused one, the blue default too.
func TestTheFocusRingIsSeenInLightAndDark(t *testing.T) {
	h := newHarness(t)
	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(row.Id)
	accept := h.desk.detail.accept
	for _, appearance := range []string{appearanceLight, appearanceDark} {
		h.desk.app.Settings().SetTheme(newTheme(appearance, true))
		h.win.Canvas().Focus(accept)
		h.desk.ring.update(h.win.Canvas())
		ring := h.desk.ring.rect
		if !ring.Visible() {
			t.Fatalf("%s: no ring around the focused Accept", appearance)
		}
		drv := fyne.CurrentApp().Driver()
		at, size := drv.AbsolutePositionForObject(ring), ring.Size()
		bAt := drv.AbsolutePositionForObject(accept)
		if at.X > bAt.X || at.Y > bAt.Y || at.X+size.Width < bAt.X+accept.Size().Width || at.Y+size.Height < bAt.Y+accept.Size().Height {
			t.Errorf("%s: the ring %v+%v does not surround Accept %v+%v", appearance, at, size, bAt, accept.Size())
		}
		header := theme.Color(theme.ColorNameHeaderBackground)
		if r := contrast(ring.StrokeColor, header); r < 3 {
			t.Errorf("%s: the ring reads at %.1f:1 on the header", appearance, r)
		}
		// A dialog's buttons: its default (high importance) and Cancel.
		for _, imp := range []widget.Importance{widget.HighImportance, widget.MediumImportance} {
			b := widget.NewButton("Yes", nil)
			b.Importance = imp
			w := test.NewWindow(b)
			plain := buttonFill(b)
			w.Canvas().Focus(b)
			focused := buttonFill(b)
			w.Close()
			if r := contrast(focused, plain); r < 1.4 {
				t.Errorf("%s: a focused button of importance %d differs from an unfocused one at only %.2f:1", appearance, imp, r)
			}
		}
	}
}

// buttonFill is the colour a button's background is drawn in.
func buttonFill(b *widget.Button) color.Color {
	for _, o := range test.WidgetRenderer(b).Objects() {
		if r, ok := o.(*canvas.Rectangle); ok && r.FillColor != nil {
			if _, _, _, a := r.FillColor.RGBA(); a > 0 {
				return over(r.FillColor, theme.Color(theme.ColorNameBackground))
			}
		}
	}
	return theme.Color(theme.ColorNameBackground)
}

// TestAShortcutNeverActsBehindADialog: with the reject dialog open, the
// window's shortcuts (which the menus take before any dialog) do nothing:
// Ctrl+Shift+A accepts nothing behind the unanswered question, and the
// dialog stays; once it is closed they act again.
func TestAShortcutNeverActsBehindADialog(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(row.Id)
	press(c, fyne.KeyR, true)
	if !strings.Contains(h.overlayText(), "reject this work order") {
		t.Fatalf("Ctrl+Shift+R opened %q", h.overlayText())
	}
	press(c, fyne.KeyA, true)
	press(c, fyne.KeyS, false)
	h.flush()
	if rows, _ := h.store.OutboxRows(context.Background(), row.Id); len(rows) != 0 {
		t.Fatalf("shortcuts behind the reject dialog queued %+v", rows)
	}
	if n := len(c.Overlays().List()); n != 1 {
		t.Errorf("%d overlays after the shortcuts behind the dialog; want the reject dialog alone", n)
	}
	h.dismissOverlays()
	press(c, fyne.KeyA, true)
	h.flush()
	if rows, _ := h.store.OutboxRows(context.Background(), row.Id); len(rows) != 1 {
		t.Errorf("with the dialog closed Ctrl+Shift+A queued %d actions", len(rows))
	}
}
