package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A question about something final opens with Cancel focused: Enter,
// Space or Esc there cancels, and so does Enter with nothing focused (the
// window's ConfirmTop); only the act's own button goes ahead.
func TestAFinalQuestionGoesAheadOnlyOnItsButton(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	var answers []bool
	ask := func() {
		Final("Discard this action?", "It will not be sent.", "Discard", true, func(ok bool) { answers = append(answers, ok) }, w)
	}
	for _, answer := range []struct {
		how string
		do  func()
	}{
		{"Enter on the focused button", func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }},
		{"keypad Enter on it", func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnter}) }},
		{"Space on it", func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace}) }},
		{"Esc on it", func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		{"Enter with nothing focused", func() { c.Unfocus(); ConfirmTop(c) }},
		{"Esc with nothing focused", func() { c.Unfocus(); DismissTop(c) }},
	} {
		answers = nil
		ask()
		b, ok := c.Focused().(*finalCancel)
		if !ok || b.Text != "Cancel" {
			t.Fatalf("the question opens with %T focused, want its Cancel", c.Focused())
		}
		answer.do()
		if len(answers) != 1 || answers[0] || c.Overlays().Top() != nil {
			t.Errorf("%s: answered %v, still open %v; want one no, closed", answer.how, answers, c.Overlays().Top() != nil)
		}
	}
	// Tab moves to the act: Esc there still cancels, Enter (or Space)
	// goes ahead, once.
	for _, k := range []struct {
		key  fyne.KeyName
		want bool
	}{{fyne.KeyEscape, false}, {fyne.KeyReturn, true}, {fyne.KeySpace, true}} {
		answers = nil
		ask()
		c.FocusNext()
		on := c.Focused()
		if b, ok := on.(*Button); !ok || b.Text != "Discard" {
			t.Fatalf("Tab from Cancel gave the keyboard to %T, not Discard", on)
		}
		on.TypedKey(&fyne.KeyEvent{Name: k.key})
		on.TypedKey(&fyne.KeyEvent{Name: k.key}) // pressed again as it goes: no second answer
		if len(answers) != 1 || answers[0] != k.want || c.Overlays().Top() != nil {
			t.Errorf("%s on Discard: answered %v, still open %v; want [%v], closed", k.key, answers, c.Overlays().Top() != nil, k.want)
		}
	}
	answers = nil
	ask()
	test.Tap(buttonLabelled(c.Overlays().Top(), "Discard"))
	if len(answers) != 1 || !answers[0] || c.Overlays().Top() != nil {
		t.Errorf("tapping Discard answered %v, still open %v", answers, c.Overlays().Top() != nil)
	}
}
