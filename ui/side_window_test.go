package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// TestTheKeyboardOpensTheBoardAtTheWindowsSizeAndClosesIt: in the
// tryout's keyboard-only part the dispatch board could not be reached
// (Fyne's menus take no keys) nor left, and it opened at 1280x800 beside
// a 1024x700 window. Ctrl+D opens it at the main window's size, Ctrl+W
// closes it and the receivables window, and Ctrl+/ lists both keys.
func TestTheKeyboardOpensTheBoardAtTheWindowsSizeAndClosesIt(t *testing.T) {
	h := newHarness(t)
	h.win.Resize(fyne.NewSize(1024, 700))
	c := h.win.Canvas()
	c.Focus(h.desk.list.Search()) // as after Ctrl+F: the keys work from an entry too
	press(c, fyne.KeyD, false)
	h.flush()
	board, _ := h.desk.Board()
	if board == nil {
		t.Fatal("Ctrl+D opened no dispatch board")
	}
	if got, want := board.Canvas().Size(), c.Size(); got != want {
		t.Errorf("the board opened at %v beside a window of %v", got, want)
	}
	press(board.Canvas(), fyne.KeyW, false)
	if w, _ := h.desk.Board(); w != nil {
		t.Error("Ctrl+W left the dispatch board open")
	}

	h.menuItem("Receivables").Action()
	h.flush()
	recv, _ := h.desk.Receivables()
	if recv == nil {
		t.Fatal("View › Receivables opened nothing")
	}
	if got, want := recv.Canvas().Size(), c.Size(); got != want {
		t.Errorf("receivables opened at %v beside a window of %v", got, want)
	}
	press(recv.Canvas(), fyne.KeyW, false)
	if w, _ := h.desk.Receivables(); w != nil {
		t.Error("Ctrl+W left the receivables window open")
	}

	c.Focus(h.desk.list.Table())
	press(c, fyne.KeySlash, false)
	h.flush()
	var rows []string
	walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if f, ok := o.(*widget.Form); ok {
			for _, it := range f.Items {
				rows = append(rows, it.Text+" "+strings.Join(texts(it.Widget), " "))
			}
		}
	})
	help := strings.ToLower(strings.Join(rows, "\n"))
	for _, want := range []string{shortcutLabel("D"), "open the dispatch board", shortcutLabel("/"), shortcutLabel("W") + " closes it"} {
		if !strings.Contains(help, strings.ToLower(want)) {
			t.Errorf("the keyboard shortcuts do not list %q:\n%s", want, help)
		}
	}
}
