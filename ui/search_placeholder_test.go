package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TestTheSearchHintFitsAt1024: the search box's hint names what it finds
// and its shortcut; at 1024x700 the box is narrower than at 1280, and the
// hint read "…site or description (Ctrl+F" there, its key cut off.
func TestTheSearchHintFitsAt1024(t *testing.T) {
	h := newHarness(t)
	for _, size := range []fyne.Size{fyne.NewSize(1024, 700), fyne.NewSize(1280, 800)} {
		h.win.Resize(size)
		h.settle()
		s := h.desk.list.Search()
		th := theme.Current()
		need := fyne.MeasureText(s.PlaceHolder, th.Size(theme.SizeNameText), fyne.TextStyle{}).Width + 2*th.Size(theme.SizeNameInnerPadding)
		if have := s.Size().Width; need > have {
			t.Errorf("at %v the search hint %q needs %.0f px of the box's %.0f", size, s.PlaceHolder, need, have)
		}
	}
}
