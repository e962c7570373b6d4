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
		// A harness per subtest: its service closes before the next starts.
		t.Run(map[bool]string{false: "ctrl", true: "cmd"}[mac], func(t *testing.T) {
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
					t.Errorf("the shortcut help does not name %s%s: %s", want, key, help)
				}
			}
			for _, s := range []string{help, h.desk.list.Search().PlaceHolder, drawnTexts(h.desk.detail.empty)} {
				if strings.Contains(s, wrong) || strings.Contains(s, strings.TrimSuffix(wrong, "+")) {
					t.Errorf("%q names %s", s, wrong)
				}
			}
			if !strings.Contains(h.desk.list.Search().PlaceHolder, "("+want+"F)") {
				t.Errorf("the search box reads %q", h.desk.list.Search().PlaceHolder)
			}
		})
	}
}
