package ui

import (
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// drawnTexts is every text drawn under o.
func drawnTexts(o fyne.CanvasObject) string {
	var out []string
	walk(o, func(c fyne.CanvasObject) {
		if t, ok := c.(*canvas.Text); ok && t.Text != "" {
			out = append(out, t.Text)
		}
	})
	return strings.Join(out, " | ")
}

// TestShortcutHelpSaysCmdOnAMac: the shortcut help, the search box and the
// empty detail's hint name the keys as the keyboard has them: Cmd on a Mac
// (where the shortcuts are Cmd ones), Ctrl elsewhere.
func TestShortcutHelpSaysCmdOnAMac(t *testing.T) {
	t.Cleanup(func() { onMac = runtime.GOOS == "darwin" })
	for _, mac := range []bool{false, true} {
		onMac = mac
		want, wrong := "Ctrl+", "Cmd+"
		if mac {
			want, wrong = wrong, want
		}
		h := newHarness(t)
		h.menuItem("Keyboard shortcuts").Action()
		help := drawnTexts(h.win.Canvas().Overlays().Top())
		for _, key := range []string{"R", "F", "L"} {
			if !strings.Contains(help, want+key) {
				t.Errorf("mac %v: the shortcut help does not name %s%s: %s", mac, want, key, help)
			}
		}
		for _, s := range []string{help, h.desk.list.search.PlaceHolder, drawnTexts(h.desk.detail.empty)} {
			if strings.Contains(s, wrong) || strings.Contains(s, strings.TrimSuffix(wrong, "+")) {
				t.Errorf("mac %v: %q names %s", mac, s, wrong)
			}
		}
		if !strings.Contains(h.desk.list.search.PlaceHolder, "("+want+"F)") {
			t.Errorf("mac %v: the search box reads %q", mac, h.desk.list.search.PlaceHolder)
		}
		h.dismissOverlays()
	}
}
