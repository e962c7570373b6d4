package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// TestShortcutsTableIsShownWhole: View › Keyboard shortcuts (and Help ›
// Keyboard shortcuts) shows every row of the table at once at 1280x800,
// not one row in a scrolling strip (A01); in a low window it scrolls what
// does not fit, and no more.
func TestShortcutsTableIsShownWhole(t *testing.T) {
	h := newHarness(t)
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 500}} {
		h.win.Resize(size)
		for _, menu := range []string{"View", "Help"} {
			item := menuItemIn(t, h.win.MainMenu(), menu, "Keyboard shortcuts")
			item.Action()
			h.flush()
			var form *widget.Form
			var scroll *container.Scroll
			walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *widget.Form:
					form = x
				case *dialogs.Scroll:
					scroll = &x.Scroll
				}
			})
			if form == nil || scroll == nil {
				t.Fatalf("%s › Keyboard shortcuts shows no table", menu)
			}
			want := form.MinSize().Height
			if room := size.Height - 160; want > room {
				want = room
			}
			if got := scroll.Size().Height; got < want-1 {
				t.Errorf("%v, %s › Keyboard shortcuts: the table is shown %.0f high of its %.0f (%d rows)", size, menu, got, form.MinSize().Height, len(form.Items))
			}
			if scroll.Size().Width < form.MinSize().Width-1 {
				t.Errorf("%v: the table is cut at %.0f wide of %.0f", size, scroll.Size().Width, form.MinSize().Width)
			}
			h.dismissOverlays()
		}
	}
}

// TestTheShortcutsScrollByTheKeyboard: at 1024x700 the shortcut table is
// taller than its dialog; the keyboard is on it as it opens, Page Down and
// End scroll to its last row, Home back to the first, and Esc closes it.
// In the real window no key scrolled it, and a keyboard user could not
// read the rows under Ctrl+8 (issue 38's second tryout).
func TestTheShortcutsScrollByTheKeyboard(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1024, 700))
	c := h.win.Canvas()
	menuItemIn(t, h.win.MainMenu(), "Help", "Keyboard shortcuts").Action()
	h.flush()
	s, ok := c.Focused().(*dialogs.Scroll)
	if !ok {
		t.Fatalf("the open table's keyboard is in a %T, not the table", c.Focused())
	}
	bottom := s.Content.MinSize().Height - s.Size().Height
	if bottom <= 0 {
		t.Fatalf("at 1024x700 the table (%.0f high) fits its dialog (%.0f): the test shows nothing", s.Content.MinSize().Height, s.Size().Height)
	}
	typeKey(c, fyne.KeyPageDown)
	if s.Offset.Y <= 0 {
		t.Error("Page Down did not scroll the table")
	}
	typeKey(c, fyne.KeyEnd)
	if s.Offset.Y < bottom-1 {
		t.Errorf("End scrolled to %.0f of %.0f: the last rows are out of sight", s.Offset.Y, bottom)
	}
	typeKey(c, fyne.KeyHome)
	if s.Offset.Y != 0 {
		t.Errorf("Home left the table at %.0f", s.Offset.Y)
	}
	typeKey(c, fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Error("Esc on the table did not close it")
	}
}

// menuItemIn finds the item labelled label in the main menu's menu.
func menuItemIn(t *testing.T, mm *fyne.MainMenu, menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range mm.Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no %s › %s", menu, label)
	return nil
}

// TestMenusShowEachShortcut: every shortcut of the window but Ctrl+Enter
// (a dialog's text takes it) is on a menu item that shows it and does
// what the key does.
func TestMenusShowEachShortcut(t *testing.T) {
	h := newHarness(t)
	shown := map[string]*fyne.MenuItem{}
	var visit func(items []*fyne.MenuItem)
	visit = func(items []*fyne.MenuItem) {
		for _, it := range items {
			if it.Shortcut != nil {
				shown[it.Shortcut.ShortcutName()] = it
			}
			if it.ChildMenu != nil {
				visit(it.ChildMenu.Items)
			}
		}
	}
	for _, m := range h.win.MainMenu().Items {
		visit(m.Items)
	}
	for _, k := range h.desk.deskKeys() {
		it := shown[k.shortcut().ShortcutName()]
		switch {
		case k.key == fyne.KeyReturn:
			if it != nil {
				t.Errorf("%s is on the menu item %q: it would take Ctrl+Enter from a dialog's text", k.label(), it.Label)
			}
		case it == nil:
			t.Errorf("no menu item shows %s (%s)", k.label(), k.what)
		}
	}
	// A menu's shortcut runs its item: Ctrl+3 shows the third tab.
	if it := shown[deskKey{key: fyne.Key3}.shortcut().ShortcutName()]; it != nil {
		it.Action()
		if got := h.desk.detail.appTabs.Selected().Text; got != h.desk.detail.tabs[2].Title() {
			t.Errorf("View › Tab › %s shows the %s tab", it.Label, got)
		}
	}
}

// TestGettingStartedOpensOnceOnTheDemosFirstStart: Help › Getting started
// explains the day's work and, in the demo, where its customer is played
// from; the demo's first start opens it, and only the first.
func TestGettingStartedOpensOnceOnTheDemosFirstStart(t *testing.T) {
	h := newHarness(t)
	h.desk.app.Preferences().RemoveValue(guideShownKey)
	h.desk.firstStartGuide()
	h.flush()
	got := guideText(h)
	for _, want := range []string{"getting started", "the list", "accept", "dispatch board", "check in", "invoice", "customer menu"} {
		if !strings.Contains(got, want) {
			t.Errorf("the guide does not speak of %q: %q", want, got)
		}
	}
	typeKey(h.win.Canvas(), fyne.KeyEscape)
	if h.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Esc did not close the guide")
	}
	h.desk.firstStartGuide() // the next start
	if h.win.Canvas().Overlays().Top() != nil {
		t.Error("the guide opened again on the next start")
	}
	menuItemIn(t, h.win.MainMenu(), "Help", "Getting started").Action()
	if !strings.Contains(guideText(h), "dispatch board") {
		t.Errorf("Help › Getting started shows %q", guideText(h))
	}
}

// guideText is the topmost dialog's words, its rich text too, in lower case.
func guideText(h *harness) string {
	out := h.overlayTexts()
	walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if r, ok := o.(*widget.RichText); ok {
			out = append(out, r.String())
		}
	})
	return strings.ToLower(strings.Join(out, "\n"))
}
