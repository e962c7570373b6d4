package ui

import (
	"image/color"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/list"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// TestTheKeyboardsRowIsMarkedAcrossTheList: while the list has the
// keyboard, the row the arrows are on carries a line above and below
// across all its cells, in a colour that stands out 3:1 from the list's
// background, the open row's and an attention row's, in light and dark;
// the mark goes with the keyboard.
func TestTheKeyboardsRowIsMarkedAcrossTheList(t *testing.T) {
	h := newHarness(t)
	c := h.win.Canvas()
	tbl := h.desk.list.Table()
	c.Focus(tbl)
	for range 2 {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	want := h.rows()[tbl.KeyboardRow()].Number
	marked := func() (n int, ys map[float32]bool, numbers []string) {
		ys = map[float32]bool{}
		walk(tbl, func(o fyne.CanvasObject) {
			if x, ok := o.(*list.Cell); ok && drawnIn(x).ring != nil {
				n++
				ys[fyne.CurrentApp().Driver().AbsolutePositionForObject(x).Y] = true
				if d := drawnIn(x); d.label != nil {
					numbers = append(numbers, d.text)
				}
			}
		})
		return n, ys, numbers
	}
	n, ys, numbers := marked()
	if _, cols := tbl.Length(); n != cols || len(ys) != 1 {
		t.Fatalf("%d cells on %d rows are marked, want the %d cells of one row", n, len(ys), cols)
	}
	found := false
	for _, s := range numbers {
		found = found || s == want
	}
	if !found {
		t.Errorf("the marked row reads %q, want the highlighted %s", numbers, want)
	}

	// A click moves the keyboard's row to the clicked one: the mark never
	// stays on a row the person left with the mouse.
	tbl.Select(widget.TableCellID{Row: 4, Col: 1})
	h.flush()
	if _, _, numbers := marked(); !slices.Contains(numbers, h.rows()[4].Number) {
		t.Errorf("after a click on %s the marked row reads %q", h.rows()[4].Number, numbers)
	}
	c.Unfocus()
	if n, _, _ := marked(); n != 0 {
		t.Errorf("%d cells stay marked after the list lost the keyboard", n)
	}

	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		bg := newTheme(appearanceSystem, false).Color(theme.ColorNameBackground, v)
		for what, under := range map[string]color.Color{"list": bg, "open row": over(palette.OpenRow, bg), "attention row": over(palette.AttentionRow, bg)} {
			if r := contrast(palette.Brand, under); r < 3 {
				t.Errorf("variant %d: the row mark on the %s stands out %.2f:1, want 3:1", v, what, r)
			}
		}
	}
}

// TestAFocusedControlStandsOut: Tab's place is plain: a focused field's
// border (Fyne draws it in the primary colour) stands out 3:1 from the
// field and the window, and a focused button, select or check box (Fyne
// blends the focus colour over it) differs from its unfocused look by at
// least 1.7:1, in light and dark. Fyne's own focus tint differed 1.1:1.
func TestAFocusedControlStandsOut(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		th := newTheme(appearanceSystem, false)
		for _, bg := range []fyne.ThemeColorName{theme.ColorNameInputBackground, theme.ColorNameBackground, theme.ColorNameOverlayBackground} {
			if r := contrast(th.Color(theme.ColorNamePrimary, v), th.Color(bg, v)); r < 3 {
				t.Errorf("variant %d: a focused field's border on %s stands out %.2f:1, want 3:1", v, bg, r)
			}
		}
		button := th.Color(theme.ColorNameButton, v)
		if r := contrast(over(th.Color(theme.ColorNameFocus, v), button), button); r < 1.7 {
			t.Errorf("variant %d: a focused button differs %.2f:1 from an unfocused one, want 1.7:1", v, r)
		}
	}
}
